/**
 * Advanced Clean Table (Table 2: 2 robots; SE). The authors' two-robot table cleaning: the
 * table robot scans, takes food and clean dishware, stores them, throws dirty food away and
 * wipes the empty table with the sponge; the dish robot takes dishware from the table, the
 * sink or the drying zone, puts dirty dishes in the sink and cleans them (they come out on the
 * drying zone, where the table robot collects them). Reach and robot classes as in the authors'
 * AdvancedCleaningTools.
 */
import { Catalog, type Rewrite } from "../../../world/index.ts";
import type { ExpertCall, Family, SkillDef, StepContext } from "../family.ts";
import type { MissionBuilder, PlanHooks } from "../mission-builder.ts";
import { SceneBuilder } from "../scene-builder.ts";
import type { SymState } from "../sym-state.ts";
import type { Unit } from "../types.ts";
import { detectAction, list, p3, putAction, putSkill, takeAction, takeSkill } from "./common.ts";
import { cleanSkill, KITCHEN_ACTIONS, scanSceneSkill, wipeSkill, wipeUnit } from "./kitchen.ts";

const FOOD = ["banana", "apple"];
const DISHES = ["plate", "glass", "cup"];
const PLACES = [
  "table",
  "sink",
  "drying_zone",
  "food_storage",
  "dish_storage",
  "trashcan",
  "cleaning_shelf",
];
const TABLE_ROBOT = "table_robot";
const DISH_ROBOT = "dish_robot";

const isDish = (item: string) => DISHES.some((d) => item.startsWith(`${d}_`));
const isFood = (item: string) => FOOD.some((d) => item.startsWith(`${d}_`));

const TAKE_FROM: Record<string, string[]> = {
  [TABLE_ROBOT]: ["table", "drying_zone", "food_storage", "dish_storage", "cleaning_shelf"],
  [DISH_ROBOT]: ["table", "sink", "drying_zone"],
};
const PUT_TO: Record<string, string[]> = {
  [TABLE_ROBOT]: ["table", "food_storage", "dish_storage", "trashcan", "cleaning_shelf"],
  [DISH_ROBOT]: ["sink", "drying_zone"],
};

function canTake(s: SymState, robot: string, item: string): string | null {
  const at = s.parent(item) ?? "";
  if (robot === DISH_ROBOT && !isDish(item)) return "The dish robot can only take dishware.";
  return TAKE_FROM[robot]?.includes(at)
    ? null
    : `The ${robot.replace("_", " ")} cannot reach ${at}.`;
}

function canPut(s: SymState, robot: string, target: string): string | null {
  const held = s.held(robot) ?? "";
  if (!PUT_TO[robot]?.includes(target))
    return `The ${robot.replace("_", " ")} cannot put objects in ${target}.`;
  const dirty = s.attr(held, "dirty");
  if (target === "sink" && !dirty) return `${held} is already clean.`;
  if (target === "drying_zone" && dirty) return `${held} must be cleaned before drying.`;
  if (target === "trashcan" && !(isFood(held) && dirty))
    return "Only dirty food can be thrown away.";
  if (target === "food_storage" && !(isFood(held) && !dirty))
    return "Only clean food can be put in food storage.";
  if (target === "dish_storage" && !(isDish(held) && !dirty))
    return "Only clean dishware can be stored.";
  return null;
}

const SKILLS: SkillDef[] = [
  scanSceneSkill(PLACES),
  takeSkill(
    "Pick up an object with the selected robot.",
    "Name of the object to pick up.",
    (s, robot, a) => canTake(s, robot, a.name ?? ""),
  ),
  putSkill("Place the held object in a target location.", "Target location.", {
    guard: (s, robot, a) => (s.held(robot) ? canPut(s, robot, a.target ?? "") : null),
  }),
  cleanSkill("drying_zone", isDish),
  wipeSkill((s) => onTable(s)),
];

const CATALOG = new Catalog({
  actions: [detectAction("scan"), takeAction("take"), putAction("put"), ...KITCHEN_ACTIONS],
});

function clearUnit(s: SymState, item: string): Unit {
  const dest = isFood(item)
    ? s.attr(item, "dirty")
      ? "trashcan"
      : "food_storage"
    : "dish_storage";
  return clearTo(item, dest);
}

function clearTo(item: string, dest: string): Unit {
  const atoms: Unit["atoms"] = [{ pred: "INSIDE", object: item, target: dest }];
  if (isDish(item)) atoms.push({ pred: "ATTR", node: item, attr: "dirty", value: false });
  return { kind: "clear", args: { item, dest }, atoms, logs: [] };
}

const onTable = (s: SymState) => s.children("table").filter((i) => isDish(i) || isFood(i));

function request(b: MissionBuilder): void {
  const s = b.s;
  const rng = b.rng;
  const roll = rng.next();
  const table = onTable(s);
  if (table.length === 0) {
    // A meal: stored dishes and food come back to the table, used.
    const stored = rng
      .shuffle([
        ...s.children("dish_storage"),
        ...s.children("food_storage"),
        ...s.children("trashcan"),
      ])
      .slice(0, rng.range(3, 5));
    // Food thrown away stands for a fresh serving of the same kind.
    const enter: Rewrite[] = stored.flatMap((i): Rewrite[] => [
      { op: "relocate", node: i, rel: "INSIDE", target: "table" },
      { op: "set_attr", node: i, attr: "dirty", value: isDish(i) || rng.chance(0.5) },
    ]);
    enter.push({ op: "set_attr", node: "table", attr: "wiped", value: false });
    b.apply(enter);
    const units = onTable(b.s).map((i) => clearUnit(b.s, i));
    const wipe = rng.chance(0.5);
    b.act(
      wipe ? [...units, wipeUnit()] : units,
      wipe
        ? p3(
            "The meal is over: clear the table and wipe it.",
            "Everyone has eaten. Clear the table, then wipe it.",
            "Please clear and wipe the table.",
          )
        : p3(
            "The meal is over: clear the table.",
            "Everyone has eaten; clear the table.",
            "Please clear the table.",
          ),
      { request: "direct", enter, report: rng.chance(0.4) },
    );
    return;
  }
  if (roll < 0.25) {
    const dirty = b.nodes.ofType("object").filter((i) => s.attr(i, "dirty"));
    if (rng.chance(0.5))
      b.ask(
        p3("Which objects are dirty?", "List the dirty objects.", "Tell me every dirty object."),
        { kind: "set", items: dirty, universe: b.nodes.ofType("object") },
        dirty.length
          ? `${list(dirty)} ${dirty.length === 1 ? "is" : "are"} dirty.`
          : "Nothing is dirty.",
        { request: "question", allowTools: ["scan_scene"] },
      );
    else
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
    return;
  }
  const some = rng.shuffle(table).slice(0, rng.range(Math.min(2, table.length), table.length));
  b.act(
    some.map((i) => clearUnit(s, i)),
    p3(
      `Clear ${list(some)} from the table.`,
      `Put ${list(some)} away.`,
      `Take care of ${list(some)}.`,
    ),
    { request: "direct", report: rng.chance(0.3) },
  );
}

/** Both robots' programs: the dish robot washes, the table robot stores, throws away and wipes. */
function step(ctx: StepContext): ExpertCall | null {
  const { s, robot, open, known, reserved } = ctx;
  const held = s.held(robot);
  const clear = open.filter((u) => u.kind === "clear");
  const wipe = open.some((u) => u.kind === "wipe");
  const unknown = clear.some(
    (u) => !known.has(u.args.item as string) && s.parent(u.args.item as string) !== u.args.dest,
  );
  const usable = (item: string) => !reserved.has(item) && known.has(item);
  if (robot === DISH_ROBOT) {
    if (held)
      return { skill: "put", args: { target: s.attr(held, "dirty") ? "sink" : "drying_zone" } };
    for (const u of clear) {
      const item = u.args.item as string;
      if (!isDish(item) || !s.attr(item, "dirty") || !usable(item)) continue;
      if (s.parent(item) === "sink") return { skill: "clean", args: { name: item } };
      if (TAKE_FROM[DISH_ROBOT]?.includes(s.parent(item) ?? ""))
        return { skill: "take", args: { name: item } };
    }
    return null;
  }
  if (held === "sponge") {
    if (wipe && !s.attr("table", "wiped") && onTable(s).length === 0)
      return { skill: "wipe", args: {} };
    return { skill: "put", args: { target: "cleaning_shelf" } };
  }
  if (held) {
    const u = clear.find((x) => x.args.item === held);
    return u ? { skill: "put", args: { target: u.args.dest as string } } : null;
  }
  for (const u of clear) {
    const item = u.args.item as string;
    if (s.parent(item) === u.args.dest || (isDish(item) && s.attr(item, "dirty")) || !usable(item))
      continue;
    if (TAKE_FROM[TABLE_ROBOT]?.includes(s.parent(item) ?? ""))
      return { skill: "take", args: { name: item } };
  }
  if (unknown && !reserved.has("$detect")) return { skill: "scan_scene", args: {} };
  if (
    wipe &&
    onTable(s).length === 0 &&
    !reserved.has("sponge") &&
    (!s.attr("table", "wiped") || s.parent("sponge") !== "cleaning_shelf")
  )
    return { skill: "take", args: { name: "sponge" } };
  return null;
}

export const advancedCleanTable: Family & PlanHooks = {
  id: "advanced-clean-table",
  title: "Advanced Clean Table",
  robots: 2,
  perturbations: ["SE"],
  setting:
    "Two robots clean up after meals. The table robot scans the scene, takes food and clean dishware, stores them, throws dirty food away and wipes the empty table with the sponge. The dish robot takes dishware from the table, the sink or the drying zone, puts dirty dishes in the sink and cleans them there; clean dishes come out on the drying zone.",
  rules: [
    "Dirty dishware must be cleaned in the sink and dirty food must be placed in the trashcan.",
    "Only dish_robot can put objects in the sink; clean food goes in food_storage and clean dishware in dish_storage.",
  ],
  catalog: CATALOG,
  skills: SKILLS,
  durations: { scan_scene: 2, take: 4, put: 3, clean: 6, wipe: 5 },
  vocabulary: {
    table_robot: ["service_robot", "robot_a"],
    dish_robot: ["washing_robot", "robot_b"],
    plate: ["dish", "saucer"],
    glass: ["tumbler", "beaker"],
    cup: ["mug", "bowl"],
    banana: ["pear", "mango"],
    apple: ["orange", "peach"],
    sink: ["basin", "washbasin"],
    scan_scene: ["look_around", "detect_objects"],
  },
  attributes: () => ({
    locations: PLACES,
    object_classes: ["food", "dishware", "cleaning_objects"],
  }),
  initiallyKnown: () => ["sponge"],
  cost: (u, s) =>
    u.kind === "wipe"
      ? 3
      : isDish(u.args.item as string) && s.attr(u.args.item as string, "dirty")
        ? 5
        : 2,
  step,
  generate(b) {
    const rng = b.rng;
    const scene = new SceneBuilder().room("kitchen");
    for (const p of PLACES)
      scene.place(p, { in: "kitchen", ...(p === "table" ? { attrs: { wiped: false } } : {}) });
    let n = 0;
    const onTableAtStart = rng.range(5, 7);
    for (let k = 0; k < onTableAtStart; k++) {
      const cls = k % 3 === 2 ? rng.pick(FOOD) : rng.pick(DISHES);
      scene.item(`${cls}_${++n}`, {
        at: "table",
        category: cls,
        attrs: { dirty: isDish(`${cls}_`) || rng.chance(0.5) },
      });
    }
    for (let k = 0; k < 4; k++) {
      const cls = rng.pick(DISHES);
      scene.item(`${cls}_${++n}`, { at: "dish_storage", category: cls, attrs: { dirty: false } });
    }
    scene.item("sponge", { at: "cleaning_shelf", category: "sponge" });
    scene.robot(TABLE_ROBOT, {
      room: "kitchen",
      hands: 1,
      skills: ["scan", "take", "put", "wipe"],
    });
    scene.robot(DISH_ROBOT, { room: "kitchen", hands: 1, skills: ["take", "put", "clean"] });
    b.scene(scene.build());
    for (let guard = 0; !b.full && guard < 300; guard++) request(b);
  },
  ruleUpdate: () => null,
  interruption: () => null,
};
