/**
 * Packaging (Table 2: 1 robot; MU, SE, IN; the held-out family of the HO track). The
 * authors' meal-tray scenario (PackagingTool): food waits on a table; the robot detects what
 * is on the table and the tray, takes an object, puts it on the tray or back on the table, and
 * validates the tray (valid_plate), which hands it to the user and logs its content. A tray
 * holds at least one food and never two of one category (fruit, drink, main course); the user
 * states the default tray recipe (a rule) and later asks for "standard trays" (the authors'
 * DefaultRecipeConstraint; a mission update replaces one food of the recipe). A tray request
 * is judged on the log: the n-th tray of a recipe needs n validations with that content.
 */
import { Catalog, type Rewrite } from "../../../world/index.ts";
import type { ExpertCall, Family, SkillDef, StepContext } from "../family.ts";
import type { MissionBuilder, Phrasing, PlanHooks } from "../mission-builder.ts";
import { SceneBuilder } from "../scene-builder.ts";
import type { SymState } from "../sym-state.ts";
import type { Unit } from "../types.ts";
import {
  count,
  detectAction,
  list,
  p3,
  putAction,
  putSkill,
  takeAction,
  takeSkill,
} from "./common.ts";

const CATEGORIES: Readonly<Record<string, readonly string[]>> = {
  fruit: ["apple", "banana", "orange"],
  drink: ["water", "juice", "soda"],
  main_course: ["pasta", "rice", "sandwich"],
};
const FOODS = Object.values(CATEGORIES).flat();
const ROBOT = "packer";

const classOf = (item: string) => item.replace(/_\d+$/, "");
const categoryOf = (food: string) =>
  Object.keys(CATEGORIES).find((c) => CATEGORIES[c]?.includes(classOf(food))) ?? "";

/** A recipe's canonical content key: its foods sorted. */
const recipeKey = (foods: readonly string[]) => [...foods].sort().join(",");

/** Why a tray cannot be validated (R_p), or null. */
function trayProblem(s: SymState): string | null {
  const on = s.children("tray");
  if (on.length === 0) return "The tray is empty.";
  const cats = on.map(categoryOf);
  const twice = cats.find((c, i) => cats.indexOf(c) !== i);
  return twice ? `The tray holds two foods of the ${twice} category.` : null;
}

const SKILLS: SkillDef[] = [
  {
    name: "detect",
    description: "List the objects on the table and on the tray.",
    params: {},
    action: "detect",
    args: [],
    kind: "perception",
    faults: ["missed_detection"],
    report: (s, _r, _a, hidden) => {
      const table = s.children("table").filter((i) => !hidden.includes(i));
      const tray = s.children("tray").filter((i) => !hidden.includes(i));
      return {
        message: `${table.length ? `The table contains ${table.join(", ")}` : "The table is empty"}, and ${tray.length ? `the tray contains ${tray.join(", ")}` : "the tray is empty"}.`,
        reveal: [...table, ...tray],
        content: { seen: [...table, ...tray].join(",") },
      };
    },
  },
  takeSkill(
    "Take an object from the table or the tray.",
    "Name of the object to take.",
    (s, _r, a) =>
      ["table", "tray"].includes(s.parent(a.name ?? "") ?? "")
        ? null
        : `${a.name} is not on the table or the tray.`,
  ),
  putSkill("Put the held object on the table or on the tray.", "Destination: table or tray.", {
    guard: (_s, _r, a) =>
      a.target === "table" || a.target === "tray"
        ? null
        : `Unknown target ${a.target}. Use only tray or table.`,
    report: (s, r, a) => ({ message: `Successfully put ${s.held(r)} on the ${a.target}.` }),
  }),
  {
    name: "valid_plate",
    description: "Validate the tray and give it to the user.",
    params: {},
    action: "valid_plate",
    args: ["@tray", "@served", "@counter"],
    kind: "act",
    faults: ["execution"],
    guard: (s) => trayProblem(s),
    // Reports come after the effects: the validated tray's food is in `served` until the next.
    report: (s) => {
      const on = s.children("served");
      return {
        message: `The tray is ready with ${list(on)}.`,
        content: { recipe: recipeKey(on.map(classOf)) },
        items: on,
      };
    },
  },
];

const CATALOG = new Catalog({
  actions: [
    detectAction("detect"),
    takeAction("take"),
    putAction("put"),
    {
      name: "valid_plate",
      description: "hand the tray's content to the user",
      parameters: ["tray", "served", "counter"],
      preconditions: [{ check: "loaded", arg: 0 }],
      effects: [
        { op: "move_contents", from: 1, rel: "INSIDE", to: 2 },
        { op: "move_contents", from: 0, rel: "INSIDE", to: 1 },
      ],
    },
  ],
});

/** The unit "the n-th tray of this recipe in the request is validated". */
function trayUnit(foods: readonly string[], nth: number): Unit {
  const recipe = recipeKey(foods);
  return {
    kind: "tray",
    args: { recipe, nth: String(nth) },
    atoms: [],
    logs: [{ match: { skill: "valid_plate", content: { recipe } }, op: "ge", count: nth }],
  };
}

/** Units for trays of these recipes, numbering repeats of a recipe. */
function trayUnits(recipes: readonly (readonly string[])[]): Unit[] {
  const seen = new Map<string, number>();
  return recipes.map((foods) => {
    const key = recipeKey(foods);
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return trayUnit(foods, n);
  });
}

/** A valid recipe: one food from each of two or three categories. */
function sampleRecipe(b: MissionBuilder): string[] {
  const cats = b.rng.shuffle(Object.keys(CATEGORIES)).slice(0, b.rng.chance(0.7) ? 3 : 2);
  return cats.map((c) => b.rng.pick(CATEGORIES[c] as readonly string[]));
}

/** Foods on the table (the builder's account). */
function onTable(s: SymState): string[] {
  return s.children("table");
}

/**
 * Consume the trays' foods in the builder's account (the robot may pick other instances of a
 * food; the counts per food are what later requests depend on). Callers check availability.
 */
function consume(b: MissionBuilder, recipes: readonly (readonly string[])[]): void {
  const free = [...onTable(b.s)];
  const used: string[] = [];
  for (const foods of recipes)
    for (const food of foods) {
      const k = free.findIndex((i) => classOf(i) === food);
      if (k < 0) throw new Error(`packaging: no ${food} left on the table`);
      used.push(free.splice(k, 1)[0] as string);
    }
  b.apply(
    used.map((i): Rewrite => ({ op: "relocate", node: i, rel: "INSIDE", target: "counter" })),
  );
}

function available(s: SymState, recipes: readonly (readonly string[])[]): boolean {
  const free = onTable(s).map(classOf);
  for (const food of recipes.flat()) {
    const k = free.indexOf(food);
    if (k < 0) return false;
    free.splice(k, 1);
  }
  return true;
}

/**
 * Food the kitchen brings from the pantry when the table lacks some (the request's entry
 * transition, which the builder applies with the request):
 * what the trays miss first, then more, six in all; null if the pantry lacks a missing food.
 */
function restock(b: MissionBuilder, recipes: readonly (readonly string[])[]): Rewrite[] | null {
  const pantry = [...b.s.children("pantry")];
  const free = onTable(b.s).map(classOf);
  const bring: string[] = [];
  for (const food of recipes.flat()) {
    const k = free.indexOf(food);
    if (k >= 0) {
      free.splice(k, 1);
      continue;
    }
    const p = pantry.findIndex((i) => classOf(i) === food);
    if (p < 0) return null;
    bring.push(pantry.splice(p, 1)[0] as string);
  }
  bring.push(...pantry.slice(0, Math.max(0, 6 - bring.length)));
  return bring.map((i): Rewrite => ({ op: "relocate", node: i, rel: "INSIDE", target: "table" }));
}

/** The trays of the request being built (an interruption inside it must leave their food). */
const pending = new WeakMap<MissionBuilder, readonly (readonly string[])[]>();

function request(b: MissionBuilder): void {
  const rng = b.rng;
  const roll = rng.next();
  if (b.wantsRule) {
    const recipe = sampleRecipe(b);
    b.ack(
      p3(
        `The default tray recipe is ${list(recipe)}.`,
        `From now on, prepare the standard tray with ${list(recipe)}.`,
        `Remember: a standard tray holds ${list(recipe)}.`,
      ),
      { request: "rule", key: "recipe", value: recipeKey(recipe) },
    );
    return;
  }
  const standard = b.rule("recipe")?.value.split(",");
  const useStandard = standard && (b.unusedRules.length > 0 || roll < 0.45);
  const recipes: string[][] = useStandard
    ? Array.from({ length: rng.range(1, 2) }, () => standard)
    : Array.from({ length: rng.range(1, 2) }, () => sampleRecipe(b));
  if (roll > 0.85 && !useStandard) {
    const cat = rng.pick(Object.keys(CATEGORIES));
    const n = onTable(b.s).filter((i) => categoryOf(i) === cat).length;
    b.ask(
      p3(
        `How many ${cat === "main_course" ? "main courses" : `${cat}s`} are on the table?`,
        `Count the ${cat === "main_course" ? "main courses" : `${cat}s`} on the table.`,
        `Tell me how many ${cat === "main_course" ? "main courses" : `${cat}s`} the table holds.`,
      ),
      { kind: "count", n },
      `There are ${count(n)} on the table.`,
      { request: "question", allowTools: ["detect"] },
    );
    return;
  }
  const enter = available(b.s, recipes) ? [] : restock(b, recipes);
  if (!enter) return;
  pending.set(b, recipes);
  const units = trayUnits(recipes);
  const n = recipes.length;
  const arrived = enter.length ? "More food just arrived on the table. " : "";
  const options = { report: rng.chance(0.3), ...(enter.length ? { enter } : {}) };
  if (useStandard) {
    b.act(
      units,
      (n === 1
        ? p3(
            "Prepare a standard tray.",
            "I need one tray with the default recipe.",
            "Make a standard tray, please.",
          )
        : p3(
            `Prepare ${count(n)} standard trays.`,
            `I need ${count(n)} trays with the default recipe.`,
            `Make ${count(n)} standard trays, please.`,
          )
      ).map((t) => arrived + t) as unknown as Phrasing,
      { request: "underspecified", uses: ["recipe"], ...options },
    );
  } else {
    const say = recipes.map((r) => list(r)).join("; then one with ");
    b.act(
      units,
      p3(
        `${arrived}Prepare a tray with ${say}.`,
        `${arrived}I would like a tray with ${say}.`,
        `${arrived}Make me a tray with ${say}.`,
      ),
      { request: "direct", ...options },
    );
  }
  pending.delete(b);
  consume(b, recipes);
}

/** The packer's program: empty the tray of what the recipe lacks room for, fill it, validate. */
function step(ctx: StepContext): ExpertCall | null {
  const { s, robot, open, known, reserved } = ctx;
  const unit = open.find((u) => u.kind === "tray");
  if (!unit) return null;
  const recipe = (unit.args.recipe as string).split(",");
  const tray = s.children("tray");
  const missing = [...recipe];
  const extra: string[] = [];
  for (const item of tray) {
    const k = missing.indexOf(classOf(item));
    if (k >= 0) missing.splice(k, 1);
    else extra.push(item);
  }
  const held = s.held(robot);
  if (held) {
    const wanted = missing.includes(classOf(held)) && s.parent(held) !== "tray";
    return { skill: "put", args: { target: wanted ? "tray" : "table" } };
  }
  const wrong = extra.find((i) => known.has(i));
  if (wrong) return { skill: "take", args: { name: wrong } };
  if (missing.length === 0 && extra.length === 0) return { skill: "valid_plate", args: {} };
  let unknown = extra.length > 0;
  for (const food of missing) {
    const item = onTable(s).find((i) => classOf(i) === food && known.has(i) && !reserved.has(i));
    if (item) return { skill: "take", args: { name: item } };
    unknown = true;
  }
  return unknown && !reserved.has("$detect") ? { skill: "detect", args: {} } : null;
}

export const packaging: Family & PlanHooks = {
  id: "packaging",
  title: "Packaging",
  robots: 1,
  perturbations: ["MU", "SE", "IN"],
  setting:
    "A robot arm prepares meal trays: food waits on a table (fruits, drinks, main courses); the robot puts food on the tray and validates the tray, which hands it to the user and brings an empty tray. The robot must detect objects before taking them.",
  rules: [
    "A validated tray holds at least one food and never two foods of the same category (fruit, drink, main_course).",
    "Validate a tray only when it holds exactly what was asked for; put unwanted food back on the table.",
  ],
  catalog: CATALOG,
  skills: SKILLS,
  durations: { detect: 2, take: 4, put: 3, valid_plate: 3 },
  vocabulary: {
    packer: ["tray_robot", "meal_arm"],
    apple: ["pear", "peach"],
    banana: ["mango", "plum"],
    orange: ["kiwi", "grapefruit"],
    water: ["milk", "tea"],
    juice: ["lemonade", "smoothie"],
    soda: ["cola", "iced_tea"],
    pasta: ["noodles", "lasagna"],
    rice: ["couscous", "risotto"],
    sandwich: ["wrap", "burger"],
    valid_plate: ["validate_tray", "serve_tray"],
  },
  attributes: () => ({
    locations: ["table", "tray"],
    object_classes: Object.keys(CATEGORIES),
  }),
  initiallyKnown: () => [],
  cost: (u) => 2 * (u.args.recipe as string).split(",").length + 1.6,
  step,
  generate(b) {
    const rng = b.rng;
    const scene = new SceneBuilder().room("kitchen");
    scene.place("table", { in: "kitchen" });
    scene.place("tray", { in: "kitchen", capacity: 3 });
    scene.place("served", { in: "kitchen" });
    scene.place("counter", { in: "kitchen" });
    scene.place("pantry", { in: "kitchen" });
    const counts: Record<string, number> = {};
    const add = (at: string) => {
      const food = rng.pick(FOODS);
      counts[food] = (counts[food] ?? 0) + 1;
      scene.item(`${food}_${counts[food]}`, { at, category: food });
    };
    for (const food of FOODS) {
      counts[food] = 1;
      scene.item(`${food}_1`, { at: "table", category: food });
    }
    for (let k = 0; k < 3; k++) add("table");
    for (let k = 0; k < 36; k++) add("pantry");
    scene.robot(ROBOT, {
      room: "kitchen",
      hands: 1,
      skills: ["detect", "take", "put", "valid_plate"],
    });
    b.scene(scene.build());
    for (let guard = 0; !b.full && guard < 300; guard++) request(b);
  },
  ruleUpdate(b, key) {
    const current = (b.rule(key)?.value ?? "").split(",");
    const removed = b.rng.pick(current);
    const options = (CATEGORIES[categoryOf(removed)] ?? []).filter((f) => f !== removed);
    const added = b.rng.pick(options);
    return {
      value: recipeKey(current.map((f) => (f === removed ? added : f))),
      say: p3(
        `In the default recipe, replace ${removed} with ${added}.`,
        `The standard tray now uses ${added} instead of ${removed}.`,
        `Change of plan: standard trays get ${added} instead of ${removed} from now on.`,
      ),
    };
  },
  interruption(b, exclude) {
    const standard = b.rule("recipe")?.value;
    for (let k = 0; k < 10; k++) {
      const recipe = sampleRecipe(b);
      if (recipeKey(recipe) === standard || exclude.has(recipeKey(recipe))) continue;
      if (!available(b.s, [...(pending.get(b) ?? []), recipe])) continue;
      consume(b, [recipe]);
      return {
        units: trayUnits([recipe]),
        say: p3(
          `Prepare a tray with ${list(recipe)} for me first.`,
          `I urgently need a tray with ${list(recipe)}.`,
          `Quick: a tray with ${list(recipe)}.`,
        ),
      };
    }
    return null;
  },
};
