/**
 * The task generator (paper §3.2, §4.1): 84 basic tasks (two atomic goals from one capability
 * category, 14 per category) and 50 advanced tasks (four atomic goals from two to four
 * categories, in one room), each at the child and the adult camera height: 168 + 100 = 268.
 * Every advanced task ranks the basic tasks of its height by relevance (its designated
 * learning tasks are the first k); the complexity study derives 3-, 5- and 6-goal variants
 * from each advanced task in its room (the authors' L_N analysis: remove one goal, add one or
 * two). Deterministic: one seeded Rng stream per decision.
 */
import { LonghaulError, Rng } from "../../core/index.ts";
import type { ActionName } from "./catalog.ts";
import { kindOf, type Placement, roomObjects, SCENES } from "./household.ts";
import { describeTask, scenarioFor } from "./phrasing.ts";
import {
  type AtomicGoal,
  CATEGORY_IDS,
  type CategoryId,
  type Height,
  type TaskDef,
  TOGGLES,
} from "./task.ts";

/** Basic tasks per category and height (6 x 14 = 84 per height, 168 in all). */
export const BASIC_PER_CATEGORY = 14;
/** Advanced tasks per height by their number of categories (20 + 20 + 10 = 50, 100 in all). */
export const ADVANCED_BY_CATEGORIES: Record<2 | 3 | 4, number> = { 2: 20, 3: 20, 4: 10 };
/** Atomic goals per advanced task in the main experiment. */
export const ADVANCED_GOALS = 4;
/** The most learning tasks any study uses (k = 0..6, §5.2). */
export const MAX_RELATED = 6;
export const HEIGHTS: Height[] = ["child", "adult"];

/** How a unit uses the hand: not at all, picks and releases, or keeps a tool to the end. */
type Hand = "none" | "release" | "keep";

/** One or two atomic goals that belong together (a pick and its use). */
interface Unit {
  category: CategoryId;
  goals: AtomicGoal[];
  hand: Hand;
  /** The object in hand at the start, for a use without its pick. */
  held?: string;
}

/** A room of a scene with its objects' kinds. */
interface RoomInventory {
  scene: string;
  room: string;
  objects: Placement[];
}

/** What a grabbable kind may be used for, beyond placing it. */
const DROPPABLE: Record<string, string[]> = {
  trash_can: ["magazine", "napkin", "empty_bottle"],
  recycling_bin: ["magazine", "empty_bottle", "notebook"],
  laundry_basket: ["towel", "scarf", "slippers", "jacket"],
};
const HANGABLE = new Set(["jacket", "scarf", "towel"]);
const NOT_HANDED = new Set(["knife", "water_pitcher", "teapot", "napkin", "empty_bottle"]);

function inventories(): RoomInventory[] {
  return SCENES.flatMap((scene) =>
    scene.rooms.map((r) => ({
      scene: scene.id,
      room: r.room,
      objects: roomObjects(scene.id, r.room),
    })),
  );
}

const has = (p: Placement, affordance: string) => kindOf(p.kind).affordances.includes(affordance);

/** A single-goal toggle unit on `p`, in a seeded direction (turn only turns). */
function toggleUnit(p: Placement, category: CategoryId, rng: Rng): Unit {
  const options: ActionName[] = {
    appliance: ["switch_on", "switch_off"],
    container: ["open", "close"],
    power: ["plug_in", "unplug"],
    preparation: ["turn"],
  }[category as "appliance"] as ActionName[];
  const action = rng.pick(options);
  return { category, hand: "none", goals: [{ action, object: p.id, category }] };
}

/** The toggle affordance of each single-goal category. */
const TOGGLE_AFFORDANCE: Partial<Record<CategoryId, string>> = {
  appliance: "switchable",
  container: "openable",
  power: "pluggable",
  preparation: "turnable",
};

/** Uses of grabbable objects in a room for a category: [object, action, target]. */
function usesIn(inv: RoomInventory, category: CategoryId): [Placement, ActionName, Placement][] {
  const out: [Placement, ActionName, Placement][] = [];
  const grabbable = inv.objects.filter((p) => has(p, "grabbable"));
  for (const x of grabbable) {
    for (const t of inv.objects) {
      if (t.id === x.id) continue;
      if (category === "placement") {
        if (x.on === t.id || x.in === t.id || has(t, "receive")) continue;
        if (has(t, "support") && !has(t, "seat")) out.push([x, "place_on", t]);
        else if (has(t, "contain") && !has(t, "openable") && !has(t, "disposal"))
          out.push([x, "place_in", t]);
      } else if (category === "handling") {
        if (has(t, "disposal") && DROPPABLE[t.kind]?.includes(x.kind)) out.push([x, "drop", t]);
        else if (has(t, "hang") && HANGABLE.has(x.kind)) out.push([x, "hang", t]);
        else if (has(t, "receive") && !NOT_HANDED.has(x.kind)) out.push([x, "hand_over", t]);
      } else if (category === "preparation") {
        if (has(x, "blade") && has(t, "cuttable")) out.push([x, "cut", t]);
        if (has(x, "pourable") && has(t, "fillable")) out.push([x, "pour", t]);
      }
    }
  }
  return out;
}

/** The goals of using `x` on `t` (cut names the food first and the knife second). */
function useGoal(x: string, action: ActionName, t: string, category: CategoryId): AtomicGoal {
  return action === "cut"
    ? { action, object: t, target: x, category }
    : { action, object: x, target: t, category };
}

/** A pick-and-use unit, or the use alone with the object already in hand. */
function useUnit(
  use: [Placement, ActionName, Placement],
  category: CategoryId,
  held: boolean,
): Unit {
  const [x, action, t] = use;
  const hand: Hand = action === "cut" || action === "pour" ? "keep" : "release";
  const goal = useGoal(x.id, action, t.id, category);
  return held
    ? { category, hand, held: x.id, goals: [goal] }
    : { category, hand, goals: [{ action: "pick_up", object: x.id, category }, goal] };
}

/** Objects a unit touches, once each (a pick and its use share the picked object). */
function unitObjects(unit: Unit): string[] {
  return [...new Set(unit.goals.flatMap((g) => [g.object, ...(g.target ? [g.target] : [])]))];
}

/** Hand order: the object in hand first, tools kept to the end last. */
function handRank(unit: Unit): number {
  if (unit.held) return 0;
  return unit.hand === "keep" ? 2 : 1;
}

/** Units in a valid order: shuffled, then the hand units re-ordered in their own slots. */
function orderUnits(units: Unit[], rng: Rng): Unit[] {
  const shuffled = rng.shuffle(units);
  const handUnits = shuffled
    .filter((u) => u.hand !== "none")
    .sort((a, b) => handRank(a) - handRank(b));
  let next = 0;
  return shuffled.map((u) => (u.hand === "none" ? u : (handUnits[next++] as Unit)));
}

/**
 * Can these units share one task: no object used by two units, one held object, one kept tool,
 * and a hand free for every pick (a tool in hand from the start and kept leaves none: the
 * agent has one hand).
 */
function compatible(units: Unit[]): boolean {
  const objects = units.flatMap(unitObjects);
  if (new Set(objects).size !== objects.length) return false;
  if (units.filter((u) => u.held).length > 1) return false;
  if (
    units.some((u) => u.held && u.hand === "keep") &&
    units.some((u) => !u.held && u.hand !== "none")
  )
    return false;
  return units.filter((u) => u.hand === "keep").length <= 1;
}

/** Initial attribute values: every toggle goal starts in the opposite state. */
function initialFor(goals: AtomicGoal[]): Record<string, Record<string, boolean>> {
  const initial: Record<string, Record<string, boolean>> = {};
  for (const g of goals) {
    const toggle = TOGGLES[g.action];
    if (toggle) initial[g.object] = { ...initial[g.object], [toggle.attr]: !toggle.value };
  }
  return initial;
}

/** A distractor: another operable or portable object of the room, not used by the task. */
function pickDistractor(inv: RoomInventory, used: Set<string>, rng: Rng): string {
  const supports = new Set(inv.objects.flatMap((p) => [p.on, p.in]).filter(Boolean));
  const operable = ["switchable", "openable", "pluggable", "turnable", "grabbable"];
  const pool = inv.objects.filter(
    (p) =>
      !used.has(p.id) && !supports.has(p.id) && operable.some((a) => has(p, a)) && !has(p, "blade"),
  );
  if (pool.length === 0) throw new LonghaulError("RUNTIME", `no distractor in ${inv.room}`);
  return rng.pick(pool).id;
}

/** A task definition from its units (description and related tasks filled in later). */
function assemble(
  id: string,
  level: TaskDef["level"],
  height: Height,
  inv: RoomInventory,
  units: Unit[],
  rng: Rng,
): TaskDef {
  const goals = units.flatMap((u) => u.goals);
  const used = new Set(units.flatMap(unitObjects));
  const distractor = pickDistractor(inv, used, rng.derive("distractor"));
  const held = units.find((u) => u.held)?.held;
  const def: TaskDef = {
    id,
    level,
    height,
    scene: inv.scene,
    room: inv.room,
    goals,
    categories: [...new Set(goals.map((g) => g.category))],
    objects: [...new Set([...goals.flatMap((g) => [g.object, g.target ?? g.object])]), distractor],
    distractors: [distractor],
    initial: initialFor(goals),
    ...(held ? { held } : {}),
    scenario: scenarioFor(inv.room, rng.derive("scenario")),
    description: "",
    related: [],
  };
  def.description = describeTask(def, rng.derive("description"));
  return def;
}

/** Every candidate basic task of a category in a room, as unit lists. */
function basicCandidates(inv: RoomInventory, category: CategoryId, rng: Rng): Unit[][] {
  const out: Unit[][] = [];
  const affordance = TOGGLE_AFFORDANCE[category];
  if (affordance) {
    const toggles = inv.objects.filter((p) => has(p, affordance));
    for (let i = 0; i < toggles.length; i++)
      for (let j = i + 1; j < toggles.length; j++)
        out.push([
          toggleUnit(toggles[i] as Placement, category, rng),
          toggleUnit(toggles[j] as Placement, category, rng),
        ]);
  }
  for (const use of usesIn(inv, category)) out.push([useUnit(use, category, false)]);
  return out;
}

/** A key of a task's goals, to keep tasks of one height distinct. */
const goalKey = (scene: string, room: string, goals: AtomicGoal[]) =>
  `${scene}/${room}/${goals.map((g) => `${g.action}:${g.object}:${g.target ?? ""}`).join(",")}`;

/** The 84 basic task blueprints: 14 per category, spread round-robin over the rooms. */
function basicBlueprints(seed: string): { inv: RoomInventory; units: Unit[] }[] {
  const rooms = inventories();
  const out: { inv: RoomInventory; units: Unit[] }[] = [];
  for (const category of CATEGORY_IDS) {
    const rng = new Rng(seed, `basic/${category}`);
    const groups = rooms
      .map((inv) => ({ inv, candidates: rng.shuffle(basicCandidates(inv, category, rng)) }))
      .filter((g) => g.candidates.length > 0);
    const order = rng.shuffle(groups);
    const seen = new Set<string>();
    let picked = 0;
    for (let round = 0; picked < BASIC_PER_CATEGORY; round++) {
      let progress = false;
      for (const g of order) {
        if (picked === BASIC_PER_CATEGORY) break;
        const units = g.candidates[round];
        if (!units) continue;
        progress = true;
        const key = goalKey(
          g.inv.scene,
          g.inv.room,
          units.flatMap((u) => u.goals),
        );
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ inv: g.inv, units });
        picked++;
      }
      if (!progress)
        throw new LonghaulError("RUNTIME", `only ${picked} basic ${category} tasks can be built`);
    }
  }
  return out;
}

/** Single-goal units a category offers in a room (toggles, or a use of an object in hand). */
function singleUnits(inv: RoomInventory, category: CategoryId, rng: Rng): Unit[] {
  const affordance = TOGGLE_AFFORDANCE[category];
  const toggles = affordance
    ? inv.objects.filter((p) => has(p, affordance)).map((p) => toggleUnit(p, category, rng))
    : [];
  const held = usesIn(inv, category).map((use) => useUnit(use, category, true));
  return [...toggles, ...held];
}

/** Two-goal units a category offers in a room (pick and use). */
function pairUnits(inv: RoomInventory, category: CategoryId): Unit[] {
  return usesIn(inv, category).map((use) => useUnit(use, category, false));
}

/**
 * Units for an advanced task with exactly `categories` and `goals` atomic goals, or null when
 * this seeded attempt does not fit: one unit per category, then singles of those categories
 * until the goals add up.
 */
function composeUnits(
  inv: RoomInventory,
  categories: CategoryId[],
  goals: number,
  rng: Rng,
): Unit[] | null {
  const units: Unit[] = [];
  for (const category of categories) {
    const pairs = pairUnits(inv, category);
    const singles = singleUnits(inv, category, rng);
    const pool = rng.chance(0.5) && pairs.length > 0 ? pairs : singles.length > 0 ? singles : pairs;
    const unit = pool.length > 0 ? rng.pick(pool) : undefined;
    if (!unit) return null;
    units.push(unit);
  }
  for (let guard = 0; units.reduce((n, u) => n + u.goals.length, 0) < goals; guard++) {
    if (guard > 20) return null;
    const toggles = categories.flatMap((c) =>
      singleUnits(inv, c, rng).filter((u) => u.hand === "none"),
    );
    const fresh = toggles.filter((u) => compatible([...units, u]));
    if (fresh.length === 0) return null;
    units.push(rng.pick(fresh));
  }
  const total = units.reduce((n, u) => n + u.goals.length, 0);
  return total === goals && compatible(units) ? units : null;
}

/** Categories that offer anything in a room. */
function categoriesIn(inv: RoomInventory, rng: Rng): CategoryId[] {
  return CATEGORY_IDS.filter(
    (c) => singleUnits(inv, c, rng).length > 0 || pairUnits(inv, c).length > 0,
  );
}

/** The 50 advanced blueprints: 20 with two categories, 20 with three, 10 with four. */
function advancedBlueprints(seed: string): { inv: RoomInventory; units: Unit[] }[] {
  const rooms = inventories();
  const out: { inv: RoomInventory; units: Unit[] }[] = [];
  const seen = new Set<string>();
  let index = 0;
  for (const [n, count] of Object.entries(ADVANCED_BY_CATEGORIES)) {
    const ncat = Number(n);
    for (let i = 0; i < count; i++, index++) {
      const rng = new Rng(seed, `advanced/${index}`);
      let built: { inv: RoomInventory; units: Unit[] } | null = null;
      for (let attempt = 0; attempt < 200 && !built; attempt++) {
        const inv = rooms[(index + attempt) % rooms.length] as RoomInventory;
        const available = categoriesIn(inv, rng);
        if (available.length < ncat) continue;
        const units = composeUnits(inv, rng.sample(available, ncat), ADVANCED_GOALS, rng);
        if (!units) continue;
        const ordered = orderUnits(units, rng);
        const key = goalKey(
          inv.scene,
          inv.room,
          ordered.flatMap((u) => u.goals),
        );
        if (seen.has(key)) continue;
        seen.add(key);
        built = { inv, units: ordered };
      }
      if (!built) throw new LonghaulError("RUNTIME", `advanced task ${index} cannot be built`);
      out.push(built);
    }
  }
  return out;
}

const pad = (n: number) => String(n).padStart(3, "0");

/**
 * Rank basic tasks for an advanced task, greedily and prefix-stable (k = 1..6 are prefixes):
 * new target actions, target action overlap, new target categories, category overlap, new
 * actions, a different scene, low reuse, then ids (the authors' N-sample selection policy).
 */
function rankRelated(target: TaskDef, basics: TaskDef[], usage: Map<string, number>): string[] {
  const targetActions = new Set(target.goals.map((g) => g.action));
  const targetCategories = new Set(target.categories);
  const candidates = basics.map((t) => {
    const actions = [...new Set(t.goals.map((g) => g.action))];
    return {
      t,
      actions,
      inTarget: actions.filter((a) => targetActions.has(a)),
      cats: t.categories.filter((c) => targetCategories.has(c)),
      otherScene: t.scene !== target.scene ? -1 : 0,
    };
  });
  const selected: typeof candidates = [];
  const coveredActions = new Set<string>();
  const coveredCategories = new Set<string>();
  while (selected.length < MAX_RELATED) {
    let best: { c: (typeof candidates)[number]; key: (number | string)[] } | null = null;
    for (const c of candidates) {
      if (selected.includes(c)) continue;
      const key = [
        -c.inTarget.filter((a) => !coveredActions.has(a)).length,
        -c.inTarget.length,
        -c.cats.filter((x) => !coveredCategories.has(x)).length,
        -c.cats.length,
        -c.actions.filter((a) => !coveredActions.has(a)).length,
        c.otherScene,
        usage.get(c.t.id) ?? 0,
        c.t.scene,
        c.t.id,
      ];
      if (!best || compareKeys(key, best.key) < 0) best = { c, key };
    }
    if (!best) break;
    selected.push(best.c);
    for (const a of best.c.actions) coveredActions.add(a);
    for (const x of best.c.t.categories) coveredCategories.add(x);
    usage.set(best.c.t.id, (usage.get(best.c.t.id) ?? 0) + 1);
  }
  return selected.map((c) => c.t.id);
}

function compareKeys(a: (number | string)[], b: (number | string)[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number | string;
    const y = b[i] as number | string;
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return 0;
}

/** The generated benchmark: basic and advanced tasks at both heights. */
export interface GeneratedTasks {
  basic: TaskDef[];
  advanced: TaskDef[];
  /** Units of each advanced task (the complexity study rebuilds from them). */
  units: Map<string, Unit[]>;
  inventories: Map<string, RoomInventory>;
}

/** Generate the 168 basic and 100 advanced tasks. */
export function generateTasks(seed: string): GeneratedTasks {
  const basicPlans = basicBlueprints(seed);
  const advancedPlans = advancedBlueprints(seed);
  const basic: TaskDef[] = [];
  const advanced: TaskDef[] = [];
  const units = new Map<string, Unit[]>();
  const invs = new Map<string, RoomInventory>();
  for (const height of HEIGHTS) {
    const basicOfHeight = basicPlans.map((plan, i) =>
      assemble(
        `L2-${height}-${pad(i + 1)}`,
        "basic",
        height,
        plan.inv,
        plan.units,
        new Rng(seed, `task/L2/${i}`),
      ),
    );
    const usage = new Map<string, number>();
    for (const [i, plan] of advancedPlans.entries()) {
      const id = `L4-${height}-${pad(i + 1)}`;
      const def = assemble(
        id,
        "advanced",
        height,
        plan.inv,
        plan.units,
        new Rng(seed, `task/L4/${i}`),
      );
      def.related = rankRelated(def, basicOfHeight, usage);
      advanced.push(def);
      units.set(id, plan.units);
      invs.set(id, plan.inv);
    }
    basic.push(...basicOfHeight);
  }
  return { basic, advanced, units, inventories: invs };
}

/**
 * A complexity variant of an advanced task with `goals` atomic goals (§5.1): 3 removes one
 * goal (a single-goal unit, else a pick whose object then starts in hand), 5 and 6 add one or
 * two toggles from the same room. Learning tasks stay the parent's.
 */
export function complexityVariant(
  parent: TaskDef,
  units: Unit[],
  inv: RoomInventory,
  goals: number,
  seed: string,
): TaskDef {
  if (goals === ADVANCED_GOALS) return parent;
  const rng = new Rng(seed, `complexity/${parent.id}/${goals}`);
  let next = [...units];
  if (goals < ADVANCED_GOALS) {
    const single = next.map((u) => u.goals.length).lastIndexOf(1);
    if (single >= 0) next.splice(single, 1);
    else {
      // Two picks: the first one's object starts in hand (a held object must be used first).
      const first = next.findIndex((u) => u.hand !== "none");
      const unit = next[first] as Unit;
      next[first] = { ...unit, held: unit.goals[0]?.object ?? "", goals: unit.goals.slice(1) };
    }
  } else {
    const categories: CategoryId[] = ["appliance", "container", "power", "preparation"];
    while (next.reduce((n, u) => n + u.goals.length, 0) < goals) {
      const extra = categories
        .flatMap((c) => singleUnits(inv, c, rng).filter((u) => u.hand === "none"))
        .filter((u) => compatible([...next, u]));
      if (extra.length === 0)
        throw new LonghaulError("RUNTIME", `no ${goals}-goal variant of ${parent.id}`);
      next = [...next, rng.pick(extra)];
    }
  }
  const id = parent.id.replace(/^L4/, `L${goals}`);
  const def = assemble(id, "advanced", parent.height, inv, next, rng.derive("assemble"));
  return {
    ...def,
    scenario: parent.scenario,
    related: parent.related,
    parent: parent.id,
    description: describeTask({ ...def, scenario: parent.scenario }, rng.derive("description")),
  };
}
