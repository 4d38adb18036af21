/** Helpers the scenario programs share: catalog rows, units, phrasing, the one-arm expert step. */
import type { ActionSchema, GoalAtom } from "../../../world/index.ts";
import { NUMBER_WORDS } from "../evaluate.ts";
import type { ExpertCall, SkillDef, SkillReport, StepContext } from "../family.ts";
import type { Phrasing } from "../mission-builder.ts";
import type { SymState } from "../sym-state.ts";
import type { LogGoal, Unit } from "../types.ts";

type Guard = SkillDef["guard"];

/** take: grasp the named item once detected; families word it, and may guard it, their own way. */
export function takeSkill(description: string, nameDescription: string, guard?: Guard): SkillDef {
  return {
    name: "take",
    description,
    params: { name: { type: "string", description: nameDescription } },
    action: "take",
    args: ["param:name"],
    kind: "act",
    faults: ["grasp"],
    item: "name",
    needsDetection: true,
    ...(guard ? { guard } : {}),
    report: (_s, _r, a) => ({ message: `You have ${a.name} in your gripper.` }),
  };
}

/** put: place the held item at the named target (by default reported as "now in" it). */
export function putSkill(
  description: string,
  targetDescription: string,
  options: { guard?: Guard; report?: SkillDef["report"] } = {},
): SkillDef {
  return {
    name: "put",
    description,
    params: { target: { type: "string", description: targetDescription } },
    action: "put",
    args: ["$held", "param:target"],
    kind: "act",
    faults: ["execution"],
    ...(options.guard ? { guard: options.guard } : {}),
    report: options.report ?? ((_s, _r, a) => ({ message: `The object is now in ${a.target}.` })),
  };
}

/** Three phrasings. */
export function p3(a: string, b: string, c: string): Phrasing {
  return [a, b, c];
}

/** The same words for every realization (names still change). */
export function same(text: string): Phrasing {
  return [text, text, text];
}

/** "a", "a and b", "a, b and c". */
export function list(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "nothing";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** An English plural of a class name ("box" -> "boxes", "paper_sheet" -> "paper sheets"). */
export function plural(word: string): string {
  const w = word.replace(/_/g, " ");
  return /(s|x|ch|sh)$/.test(w) ? `${w}es` : `${w}s`;
}

/** A count in words up to twelve ("three"), digits beyond. */
export function count(n: number): string {
  return (n <= 12 ? NUMBER_WORDS[n] : undefined) ?? String(n);
}

/** A unit whose goal is a set of world atoms. */
export function atomUnit(
  kind: string,
  args: Record<string, string>,
  atoms: GoalAtom[],
  logs: LogGoal[] = [],
): Unit {
  return { kind, args, atoms, logs };
}

/** The relocation unit: `item` ends INSIDE `dest`. */
export function moveUnit(kind: string, item: string, dest: string): Unit {
  return atomUnit(kind, { item, dest }, [{ pred: "INSIDE", object: item, target: dest }]);
}

/** A perception skill with no world effect. */
export function detectAction(name: string): ActionSchema {
  return {
    name,
    description: "perception",
    parameters: [],
    failureInjectable: false,
    preconditions: [],
    effects: [],
  };
}

/** A one-handed grasp of a visible, free item. */
export function takeAction(name: string): ActionSchema {
  return {
    name,
    description: "grasp an item",
    parameters: ["item"],
    failureInjectable: false,
    preconditions: [
      { check: "visible", arg: 0 },
      { check: "affords", arg: 0, affordance: "grabbable" },
      { check: "held", arg: 0, value: false },
      { check: "free_hands", n: 1 },
    ],
    effects: [{ op: "grab", arg: 0 }],
  };
}

/** Release the held item into a visible container with room. */
export function putAction(name: string): ActionSchema {
  return {
    name,
    description: "put the held item into a container",
    parameters: ["item", "target"],
    failureInjectable: false,
    preconditions: [
      { check: "held", arg: 0, value: true },
      { check: "visible", arg: 1 },
      { check: "affords", arg: 1, affordance: "contain" },
      { check: "acyclic", object: 0, target: 1 },
      { check: "not_full", arg: 1 },
    ],
    effects: [{ op: "place", object: 0, rel: "INSIDE", target: 1 }],
  };
}

/** Move a visible item nobody holds into a container (an arm's pick-and-place). */
export function transferAction(
  name: string,
  extra: ActionSchema["preconditions"] = [],
): ActionSchema {
  return {
    name,
    description: "move an item into a container",
    parameters: ["item", "target"],
    failureInjectable: false,
    preconditions: [
      { check: "visible", arg: 0 },
      { check: "affords", arg: 0, affordance: "grabbable" },
      { check: "held", arg: 0, value: false },
      { check: "visible", arg: 1 },
      { check: "affords", arg: 1, affordance: "contain" },
      { check: "not_full", arg: 1 },
      ...extra,
    ],
    effects: [{ op: "transfer", object: 0, rel: "INSIDE", target: 1 }],
  };
}

/** Drive to a room. */
export function moveAction(name: string): ActionSchema {
  return {
    name,
    description: "drive to a place",
    parameters: ["room"],
    failureInjectable: false,
    preconditions: [
      { check: "type", arg: 0, type: "room" },
      { check: "unoccupied", arg: 0 },
    ],
    effects: [{ op: "move_robot", arg: 0 }],
  };
}

/** Where an item is, as a place name (its parent). */
export function whereIs(s: SymState, item: string): string | undefined {
  return s.parent(item);
}

/** Items of `items` directly inside `place`, in scene order. */
export function inPlace(s: SymState, items: readonly string[], place: string): string[] {
  return items.filter((i) => s.parent(i) === place);
}

/** A report listing what a perception skill sees per place, minus what it missed. */
export function listingReport(
  s: SymState,
  places: readonly string[],
  isItem: (id: string) => boolean,
  hidden: readonly string[],
  none = "contains nothing",
): SkillReport {
  const seen: string[] = [];
  const parts = places.map((place) => {
    const items = s.children(place).filter((i) => isItem(i) && !hidden.includes(i));
    seen.push(...items);
    return items.length ? `${place} contains ${items.join(", ")}` : `${place} ${none}`;
  });
  return { message: `${parts.join(". ")}.`, reveal: seen, content: { seen: seen.join(",") } };
}

/** The skill named `name` of a list (throws on a typo in family data). */
export function skill(skills: readonly SkillDef[], name: string): SkillDef {
  const found = skills.find((k) => k.name === name);
  if (!found) throw new Error(`unknown skill ${name}`);
  return found;
}

/**
 * The one-arm relocation expert: put what it holds where its unit wants it; otherwise take
 * the first open unit's item that is known, not reserved and not in place; detect first when a
 * needed item is unknown (and no detection is under way).
 */
export function armRelocationStep(
  ctx: StepContext,
  o: {
    take: string;
    takeParam: string;
    put: string;
    putParam: string;
    detect?: string;
    /** Can this robot reach the item / destination (reach, robot classes). */
    canTake?: (item: string) => boolean;
    canPut?: (dest: string) => boolean;
  },
): ExpertCall | null {
  const { s, robot, open, known, reserved } = ctx;
  const held = s.held(robot);
  if (held !== undefined) {
    const unit = open.find((u) => u.args.item === held);
    const dest = unit?.args.dest;
    if (dest && (o.canPut?.(dest) ?? true)) return { skill: o.put, args: { [o.putParam]: dest } };
    return null;
  }
  let unknown = false;
  for (const u of open) {
    const item = u.args.item;
    const dest = u.args.dest;
    if (!item || !dest || reserved.has(item) || s.parent(item) === dest) continue;
    if (o.canTake && !o.canTake(item)) continue;
    if (o.canPut && !o.canPut(dest)) continue;
    if (!known.has(item)) {
      unknown = true;
      continue;
    }
    return { skill: o.take, args: { [o.takeParam]: item } };
  }
  if (unknown && o.detect && !reserved.has("$detect")) return { skill: o.detect, args: {} };
  return null;
}

/** How a mobile robot family routes items (delivery, hall sorting, advanced delivery). */
export interface MobileRouting {
  move: string;
  moveParam: string;
  pick: string;
  pickParam: string;
  drop: string;
  dropParam: string;
  detect?: string;
  /** The container a robot carries items in. */
  tray(robot: string): string;
  capacity: number;
  /** The room a place (a room's table) belongs to, and a room's table. */
  roomOf(place: string): string;
  tableOf(room: string): string;
  /** Rooms a robot may drive to. */
  reach(robot: string, room: string): boolean;
  /** The room an item should go next on its way to `dest` when this robot cannot reach `dest`. */
  via?(robot: string, item: string, dest: string): string | undefined;
}

/** Where an item heads next with this robot: its destination room if reachable, else a relay. */
function hop(r: MobileRouting, robot: string, item: string, dest: string): string | undefined {
  const room = r.roomOf(dest);
  if (r.reach(robot, room)) return room;
  return r.via?.(robot, item, dest);
}

/**
 * The mobile expert: drop what it carries where it belongs next, load what waits in its room
 * (up to capacity), then drive to where its load goes or to the next item to collect. Rooms
 * another robot occupies or drives to are avoided; unknown items in its room are detected.
 */
export function mobileStep(ctx: StepContext, r: MobileRouting): ExpertCall | null {
  const { s, robot, open, known, reserved } = ctx;
  const room = s.parent(robot) as string;
  const tray = r.tray(robot);
  const carried = s.children(tray);
  const destOf = new Map<string, string>();
  for (const u of open) if (u.args.item && u.args.dest) destOf.set(u.args.item, u.args.dest);
  for (const item of carried) {
    const dest = destOf.get(item);
    if (dest && hop(r, robot, item, dest) === room)
      return { skill: r.drop, args: { [r.dropParam]: item } };
  }
  const here = r.tableOf(room);
  const waiting = [...destOf.entries()].filter(
    ([item, dest]) =>
      s.parent(item) !== dest &&
      !carried.includes(item) &&
      !reserved.has(item) &&
      !isCarried(s, item) &&
      hop(r, robot, item, dest) !== undefined &&
      hop(r, robot, item, dest) !== r.roomOf(s.parent(item) ?? ""),
  );
  if (carried.length < r.capacity) {
    const local = waiting.filter(([item]) => s.parent(item) === here);
    const pickable = local.find(([item]) => known.has(item));
    if (pickable) return { skill: r.pick, args: { [r.pickParam]: pickable[0] } };
    if (local.length > 0 && r.detect && !reserved.has("$detect"))
      return { skill: r.detect, args: {} };
  }
  const blocked = (target: string) =>
    reserved.has(`room:${target}`) || occupied(s, ctx.robot, target);
  const load = carried
    .map((item) => destOf.get(item) && hop(r, robot, item, destOf.get(item) as string))
    .find((t) => t && t !== room && !blocked(t));
  if (load) return { skill: r.move, args: { [r.moveParam]: load } };
  if (carried.length < r.capacity) {
    for (const [item] of waiting) {
      const at = s.parent(item);
      if (!at) continue;
      const target = r.roomOf(at);
      if (target !== room && r.reach(robot, target) && !blocked(target))
        return { skill: r.move, args: { [r.moveParam]: target } };
    }
  }
  // Rooms open units still need a robot in: where items wait and where they go.
  const needed = new Set<string>();
  for (const [item, dest] of destOf) {
    if (s.parent(item) === dest) continue;
    needed.add(r.roomOf(dest));
    const at = s.parent(item);
    if (at && !isCarried(s, item)) needed.add(r.roomOf(at));
    // Where another robot's load goes next: an idle robot there must make room.
    const carrier = at && isCarried(s, item) ? s.parent(at) : undefined;
    const next = carrier && carrier !== robot ? hop(r, carrier, item, dest) : undefined;
    if (next) needed.add(next);
  }
  const aside = (avoid: readonly string[]) =>
    s.index
      .ofType("room")
      .find(
        (x) =>
          x !== room && r.reach(robot, x) && !blocked(x) && !needed.has(x) && !avoid.includes(x),
      );
  if (carried.length > 0) {
    // Two loaded robots wanting each other's hall: the later one in scene order steps aside.
    const targets = carried
      .map((item) => destOf.get(item) && hop(r, robot, item, destOf.get(item) as string))
      .filter((t): t is string => !!t && t !== room);
    const me = s.index.robots.indexOf(robot);
    const yields = (t: string) =>
      s.index.robots.some((o, k) => k < me && s.parent(o) === t && !ctx.busy.has(o));
    if (targets.length > 0) {
      if (!targets.every(yields)) return null;
      const free = aside(targets);
      return free ? { skill: r.move, args: { [r.moveParam]: free } } : null;
    }
  }
  // Idle where others must pick or drop: make room (a hall holds one robot).
  if (needed.has(room)) {
    const free = aside([]);
    if (free) return { skill: r.move, args: { [r.moveParam]: free } };
  }
  return null;
}

function isCarried(s: SymState, item: string): boolean {
  const p = s.parent(item);
  return p !== undefined && s.index.type(s.parent(p) ?? "") === "robot";
}

function occupied(s: SymState, robot: string, room: string): boolean {
  return s.index.robots.some((other) => other !== robot && s.parent(other) === room);
}
