/**
 * Clean Table (Table 2: 1 robot; MU, SE). The authors' table-cleaning scenario with one robot:
 * food and dishware on a table, some dirty; permanent rules say where each goes (dirty food in
 * the trashcan, clean food in the food storage, dishware cleaned in the sink before the dish
 * storage). Skills: scan_scene, take, put, clean (a dish in the sink: it comes out clean on the
 * drying rack), wipe (the empty table, holding the sponge).
 */
import { Catalog } from "../../../world/index.ts";
import type { ExpertCall, Family, SkillDef, StepContext } from "../family.ts";
import type { MissionBuilder, PlanHooks } from "../mission-builder.ts";
import { SceneBuilder } from "../scene-builder.ts";
import type { SymState } from "../sym-state.ts";
import type { Unit } from "../types.ts";
import { detectAction, list, p3, putAction, putSkill, takeAction, takeSkill } from "./common.ts";
import { cleanSkill, KITCHEN_ACTIONS, scanSceneSkill, wipeSkill, wipeUnit } from "./kitchen.ts";

const FOOD = ["banana", "apple", "bread"];
const DISHES = ["plate", "glass", "cup"];
const PLACES = [
  "table",
  "sink",
  "drying_rack",
  "food_storage",
  "dish_storage",
  "trashcan",
  "cleaning_shelf",
];
const ROBOT = "cleaner";

const isDish = (item: string) => DISHES.some((d) => item.startsWith(`${d}_`));
const isFood = (item: string) => FOOD.some((d) => item.startsWith(`${d}_`));
const classOf = (item: string) => item.replace(/_\d+$/, "");

const SKILLS: SkillDef[] = [
  scanSceneSkill(PLACES),
  takeSkill("Pick up an object.", "Name of the object to pick up."),
  putSkill("Place the held object in a target location.", "Target location."),
  cleanSkill("drying_rack", isDish),
  wipeSkill((s) => onTable(s)),
];

const CATALOG = new Catalog({
  actions: [detectAction("scan"), takeAction("take"), putAction("put"), ...KITCHEN_ACTIONS],
});

/** Where an object goes when the table is cleared: R_p, or the user's rule for its class. */
function destOf(b: MissionBuilder, item: string): string {
  const s = b.s;
  const rule = b.rule(`dest:${classOf(item)}`)?.value;
  if (isFood(item)) return s.attr(item, "dirty") ? "trashcan" : (rule ?? "food_storage");
  return rule ?? "dish_storage";
}

function clearUnit(item: string, dest: string, dish: boolean): Unit {
  const atoms: Unit["atoms"] = [{ pred: "INSIDE", object: item, target: dest }];
  if (dish) atoms.push({ pred: "ATTR", node: item, attr: "dirty", value: false });
  return { kind: "clear", args: { item, dest }, atoms, logs: [] };
}

function onTable(s: SymState): string[] {
  return s.children("table").filter((i) => isDish(i) || isFood(i));
}

function request(b: MissionBuilder): void {
  const s = b.s;
  const rng = b.rng;
  const roll = rng.next();
  const table = onTable(s);
  if (b.wantsRule || (b.withRules && roll < 0.15)) {
    const cls = rng.pick(DISHES);
    const dest = rng.pick(
      ["drying_rack", "dish_storage"].filter(
        (d) => d !== (b.rule(`dest:${cls}`)?.value ?? "dish_storage"),
      ),
    );
    b.ack(
      p3(
        `Remember: from now on, ${cls}s go on the ${dest} once clean.`,
        `Please keep in mind that clean ${cls}s belong on the ${dest}.`,
        `New rule: put clean ${cls}s on the ${dest}.`,
      ),
      { request: "rule", key: `dest:${cls}`, value: dest },
    );
    return;
  }
  if (table.length === 0 || roll < 0.3) {
    // Setting the table, then a meal makes things dirty.
    const stored = [
      ...s.children("dish_storage"),
      ...s.children("food_storage"),
      ...s.children("drying_rack"),
    ];
    const pick = rng.shuffle(stored).slice(0, rng.range(2, 4));
    if (pick.length === 0) return;
    b.act(
      pick.map((i) => ({
        kind: "set",
        args: { item: i, dest: "table" },
        atoms: [{ pred: "INSIDE", object: i, target: "table" }],
        logs: [],
      })),
      p3(
        `Set the table with ${list(pick)}.`,
        `Put ${list(pick)} on the table.`,
        `We need ${list(pick)} on the table.`,
      ),
      { request: "direct" },
    );
    return;
  }
  if (roll < 0.42) {
    if (rng.chance(0.5)) {
      const dirty = b.nodes.ofType("object").filter((i) => s.attr(i, "dirty"));
      b.ask(
        p3("Which objects are dirty?", "List the dirty objects.", "Tell me every dirty object."),
        { kind: "set", items: dirty, universe: b.nodes.ofType("object") },
        dirty.length
          ? `${list(dirty)} ${dirty.length === 1 ? "is" : "are"} dirty.`
          : "Nothing is dirty.",
        { request: "question", allowTools: ["scan_scene"] },
      );
    } else {
      b.ask(
        p3(
          "How many objects are on the table?",
          "Count the objects on the table.",
          "Tell me how many objects are on the table.",
        ),
        { kind: "count", n: table.length },
        `There are ${table.length} objects on the table.`,
        { request: "question", allowTools: ["scan_scene"] },
      );
    }
    return;
  }
  const meal = rng.chance(0.6);
  const enter = meal
    ? table
        .map((i) => ({ op: "set_attr" as const, node: i, attr: "dirty", value: true }))
        .concat([{ op: "set_attr", node: "table", attr: "wiped", value: false }])
    : [];
  if (meal) b.apply(enter);
  const items = onTable(b.s);
  const uses = [...new Set(items.map((i) => `dest:${classOf(i)}`))].filter((k) => b.rule(k));
  const units = items.map((i) => clearUnit(i, destOf(b, i), isDish(i)));
  const wipe = meal && rng.chance(0.5);
  if (wipe) units.push(wipeUnit());
  const say = meal
    ? wipe
      ? p3(
          "We just had a meal: clear the table and wipe it.",
          "Lunch is over. Clear everything away, then wipe the table.",
          "Please clear and wipe the table after the meal.",
        )
      : p3(
          "We just had a meal: clear the table.",
          "Lunch is over; clear the table.",
          "Please clear the table after the meal.",
        )
    : p3("Clear the table.", "Please put everything on the table away.", "Tidy up the table.");
  // The meal happens in the world too: the stage's entry transition dirties what was served.
  b.act(units, say, {
    request: uses.length ? "underspecified" : "direct",
    uses,
    report: rng.chance(0.4),
    ...(meal ? { enter } : {}),
  });
}

/** The cleaner's program: wipe when the table is empty, clean dirty dishes, put things away. */
function step(ctx: StepContext): ExpertCall | null {
  const { s, robot, open, known, reserved } = ctx;
  const held = s.held(robot);
  const wipe = open.find((u) => u.kind === "wipe");
  const tableEmpty = onTable(s).length === 0;
  if (held === "sponge") {
    if (wipe && !s.attr("table", "wiped") && tableEmpty) return { skill: "wipe", args: {} };
    return { skill: "put", args: { target: "cleaning_shelf" } };
  }
  if (held) {
    const u = open.find((x) => x.args.item === held);
    if (!u) return null;
    const needsCleaning = u.kind === "clear" && isDish(held) && s.attr(held, "dirty");
    return { skill: "put", args: { target: needsCleaning ? "sink" : (u.args.dest as string) } };
  }
  let unknown = false;
  for (const u of open) {
    if (u.kind === "wipe") continue;
    const item = u.args.item as string;
    if (reserved.has(item)) continue;
    const dirtyDish = u.kind === "clear" && isDish(item) && s.attr(item, "dirty");
    if (!dirtyDish && s.parent(item) === u.args.dest) continue;
    if (!known.has(item)) {
      unknown = true;
      continue;
    }
    if (dirtyDish && s.parent(item) === "sink") return { skill: "clean", args: { name: item } };
    return { skill: "take", args: { name: item } };
  }
  if (unknown && !reserved.has("$detect")) return { skill: "scan_scene", args: {} };
  if (
    wipe &&
    tableEmpty &&
    !reserved.has("sponge") &&
    (!s.attr("table", "wiped") || s.parent("sponge") !== "cleaning_shelf")
  )
    return { skill: "take", args: { name: "sponge" } };
  return null;
}

export const cleanTable: Family & PlanHooks = {
  id: "clean-table",
  title: "Clean Table",
  robots: 1,
  perturbations: ["MU", "SE"],
  setting:
    "A kitchen robot clears and sets a table: food, dishware and a sponge; a sink, a drying rack, a food storage, a dish storage, a trashcan and a cleaning shelf. Objects must be detected (scan_scene) before they are taken.",
  rules: [
    "Dirty food goes in the trashcan; clean food goes in the food_storage.",
    "Dirty dishware must be cleaned in the sink; clean dishware goes in the dish_storage.",
    "The sponge lives on the cleaning_shelf; only an empty table can be wiped.",
  ],
  catalog: CATALOG,
  skills: SKILLS,
  durations: { scan_scene: 2, take: 4, put: 3, clean: 6, wipe: 5 },
  vocabulary: {
    cleaner: ["kitchen_robot", "helper"],
    plate: ["dish", "saucer"],
    plates: ["dishes", "saucers"],
    glass: ["tumbler", "beaker"],
    glasses: ["tumblers", "beakers"],
    cup: ["mug", "bowl"],
    cups: ["mugs", "bowls"],
    banana: ["pear", "mango"],
    apple: ["orange", "peach"],
    sink: ["basin", "washbasin"],
    trashcan: ["bin", "garbage"],
    scan_scene: ["look_around", "detect_objects"],
  },
  attributes: () => ({
    locations: PLACES,
    object_classes: ["food", "dishware", "cleaning_objects"],
  }),
  initiallyKnown: () => [],
  cost: (u, s) => {
    if (u.kind === "wipe") return 3;
    const item = u.args.item as string;
    if (u.kind === "clear" && isDish(item) && s.attr(item, "dirty"))
      return u.args.dest === "drying_rack" ? 3 : 5;
    return 2;
  },
  step,
  generate(b) {
    const rng = b.rng;
    const scene = new SceneBuilder().room("kitchen");
    for (const p of PLACES)
      scene.place(p, { in: "kitchen", ...(p === "table" ? { attrs: { wiped: false } } : {}) });
    const counts: Record<string, number> = {};
    const n = rng.range(5, 7);
    for (let k = 0; k < n; k++) {
      const cls = rng.pick(k % 2 === 0 ? DISHES : FOOD);
      counts[cls] = (counts[cls] ?? 0) + 1;
      scene.item(`${cls}_${counts[cls]}`, {
        at: "table",
        category: cls,
        attrs: { dirty: rng.chance(0.5) },
      });
    }
    scene.item("sponge", { at: "cleaning_shelf", category: "sponge" });
    scene.robot(ROBOT, {
      room: "kitchen",
      hands: 1,
      skills: ["scan", "take", "put", "clean", "wipe"],
    });
    b.scene(scene.build());
    for (let guard = 0; !b.full && guard < 300; guard++) request(b);
  },
  ruleUpdate(b, key) {
    const value = ["drying_rack", "dish_storage"].find((d) => d !== b.rule(key)?.value) as string;
    const cls = key.slice("dest:".length);
    return {
      value,
      say: p3(
        `Change of plan: clean ${cls}s go on the ${value} now.`,
        `Update: from now on clean ${cls}s belong on the ${value}.`,
        `Forget the earlier rule; ${cls}s go on the ${value}.`,
      ),
    };
  },
  interruption: () => null,
};
