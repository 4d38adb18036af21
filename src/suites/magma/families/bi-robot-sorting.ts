/**
 * Bi-Robot Sorting (Table 2: 2 robots; MU, SE). The authors' two-arm cell: a left, a mutual and
 * a right zone; arm1 reaches left and mutual and alone can inspect objects
 * (`get_objects_state`, which also reports damaged ones); arm2 reaches mutual and right. Both
 * move an object with `deplace(object, target_area)`; an object crossing from one side to the
 * other is handed over through the mutual zone.
 */
import { Catalog } from "../../../world/index.ts";
import type { ExpertCall, Family, SkillDef, StepContext } from "../family.ts";
import type { MissionBuilder, PlanHooks } from "../mission-builder.ts";
import { SceneBuilder } from "../scene-builder.ts";
import type { SymState } from "../sym-state.ts";
import type { Unit } from "../types.ts";
import {
  detectAction,
  list,
  listingReport,
  moveUnit,
  p3,
  plural,
  same,
  transferAction,
} from "./common.ts";

const ZONES = ["left_zone", "mutual_zone", "right_zone"] as const;
/** Where rules may send objects (the mutual zone is for handovers). */
const SIDES = ["left_zone", "right_zone"] as const;
const CLASSES = ["bottle", "can", "box", "jar"] as const;
const REACH: Record<string, readonly string[]> = {
  arm1: ["left_zone", "mutual_zone"],
  arm2: ["mutual_zone", "right_zone"],
};

function reaches(robot: string, zone: string | undefined): boolean {
  return zone !== undefined && (REACH[robot]?.includes(zone) ?? false);
}

const SKILLS: SkillDef[] = [
  {
    name: "get_objects_state",
    description: "Return all known objects grouped by area and indicate which objects are damaged.",
    params: {},
    action: "inspect",
    args: [],
    kind: "perception",
    faults: ["missed_detection"],
    report: (s, _r, _a, hidden) => {
      const r = listingReport(s, ZONES, (i) => s.index.type(i) === "object", hidden, "is empty");
      const damaged = (r.reveal ?? []).filter((i) => s.attr(i, "damaged"));
      return {
        ...r,
        message: `${r.message} Damaged objects: ${damaged.length ? damaged.join(", ") : "none"}.`,
      };
    },
  },
  {
    name: "deplace",
    description:
      "Take the object and send it to an area; the object and the area must be in the robot's range.",
    params: {
      object: { type: "string", description: "The name of the object to take." },
      target_area: { type: "string", description: "The target area where to depose the object." },
    },
    action: "deplace",
    args: ["param:object", "param:target_area"],
    kind: "act",
    faults: ["grasp", "execution"],
    item: "object",
    needsDetection: true,
    guard: (s, robot, a) => {
      if (!reaches(robot, a.target_area))
        return `The area ${a.target_area} is out of range for robot ${robot}.`;
      if (!reaches(robot, s.parent(a.object ?? "")))
        return `Object ${a.object} is out of range for robot ${robot}.`;
      return null;
    },
    report: (_s, _r, a) => ({ message: `Successfully deposed ${a.object} to ${a.target_area}.` }),
  },
];

const CATALOG = new Catalog({ actions: [detectAction("inspect"), transferAction("deplace")] });

function classOf(item: string): string {
  return item.replace(/_\d+$/, "");
}

function objects(b: MissionBuilder): string[] {
  return b.nodes.ofType("object");
}

/** Where a class goes: its user rule, else by R_p intact objects right and damaged left. */
function destOf(b: MissionBuilder, item: string): string {
  const s = b.s;
  if (s.attr(item, "damaged")) return b.rule("damaged")?.value ?? "left_zone";
  return b.rule(`dest:${classOf(item)}`)?.value ?? "right_zone";
}

/** State a rule first in missions with rules; then make a request rely on it. */
function ruleFirst(b: MissionBuilder): boolean {
  const rng = b.rng;
  const s = b.s;
  if (b.wantsRule) {
    const cls = classOf(rng.pick(objects(b)));
    const zone = rng.pick(SIDES);
    b.ack(
      p3(
        `Remember: ${plural(cls)} go to the ${zone} by default.`,
        `Please keep in mind that the default area for ${plural(cls)} is the ${zone}.`,
        `New rule: ${plural(cls)} belong in the ${zone}.`,
      ),
      { request: "rule", key: `dest:${cls}`, value: zone },
    );
    return true;
  }
  const unused = b.unusedRules;
  if (unused.length === 0 || !rng.chance(0.6)) return false;
  const key = rng.pick(unused);
  const matching = objects(b).filter((i) =>
    key === "damaged"
      ? s.attr(i, "damaged")
      : `dest:${classOf(i)}` === key && !s.attr(i, "damaged"),
  );
  const misplaced = matching.filter((i) => s.parent(i) !== destOf(b, i));
  if (misplaced.length === 0) {
    const item = matching[0];
    if (!item) return false;
    const away = SIDES.find((z) => z !== destOf(b, item)) as string;
    b.act([moveUnit("sort", item, away)], same(`Move ${item} to the ${away} for now.`), {
      request: "direct",
    });
    return true;
  }
  const what = key === "damaged" ? "damaged objects" : plural(key.slice("dest:".length));
  b.act(
    misplaced.map((i) => moveUnit("sort", i, destOf(b, i))),
    p3(`Sort the ${what}.`, `Put the ${what} where they belong.`, `The ${what} need sorting.`),
    { request: "underspecified", uses: [key], report: rng.chance(0.4) },
  );
  return true;
}

function request(b: MissionBuilder): void {
  if (ruleFirst(b)) return;
  const s = b.s;
  const rng = b.rng;
  const roll = rng.next();
  const all = objects(b);
  if (b.withRules && roll < 0.22) {
    if (rng.chance(0.35)) {
      const zone = rng.pick(SIDES.filter((z) => z !== (b.rule("damaged")?.value ?? "left_zone")));
      b.ack(
        p3(
          `Remember: damaged objects must go to the ${zone} from now on.`,
          `Please keep in mind that damaged objects belong in the ${zone}.`,
          `New rule: put damaged objects in the ${zone}.`,
        ),
        { request: "rule", key: "damaged", value: zone },
      );
      return;
    }
    const cls = rng.pick(CLASSES);
    const zone = rng.pick(SIDES);
    b.ack(
      p3(
        `Remember: ${plural(cls)} go to the ${zone} by default.`,
        `Please keep in mind that the default area for ${plural(cls)} is the ${zone}.`,
        `New rule: ${plural(cls)} belong in the ${zone}.`,
      ),
      { request: "rule", key: `dest:${cls}`, value: zone },
    );
    return;
  }
  const misplaced = all.filter((i) => s.parent(i) !== destOf(b, i));
  if (roll < 0.5 && misplaced.length > 0) {
    const items = rng.shuffle(misplaced).slice(0, rng.range(2, 4));
    const uses = [
      ...new Set(items.map((i) => (s.attr(i, "damaged") ? "damaged" : `dest:${classOf(i)}`))),
    ].filter((k) => b.rule(k));
    b.act(
      items.map((i) => moveUnit("sort", i, destOf(b, i))),
      p3(
        `Sort ${list(items)} to their areas.`,
        `Put ${list(items)} where they belong.`,
        `${list(items)} need to be sorted.`,
      ),
      { request: uses.length ? "underspecified" : "direct", uses, report: rng.chance(0.4) },
    );
    return;
  }
  if (roll < 0.62) {
    if (rng.chance(0.5)) {
      const damaged = all.filter((i) => s.attr(i, "damaged"));
      b.ask(
        p3(
          "Which objects are damaged?",
          "List the damaged objects.",
          "Tell me every damaged object.",
        ),
        { kind: "set", items: damaged, universe: all },
        damaged.length
          ? `${list(damaged)} ${damaged.length === 1 ? "is" : "are"} damaged.`
          : "No object is damaged.",
        { request: "question", allowTools: ["get_objects_state"] },
      );
    } else {
      const zone = rng.pick(ZONES);
      const n = s.children(zone).length;
      b.ask(
        p3(
          `How many objects are in the ${zone}?`,
          `Count the objects in the ${zone}.`,
          `Tell me how many objects the ${zone} holds.`,
        ),
        { kind: "count", n },
        `There are ${n} objects in the ${zone}.`,
        { request: "question", allowTools: ["get_objects_state"] },
      );
    }
    return;
  }
  const items = rng.shuffle(all).slice(0, rng.range(2, 4));
  // Keep the mutual zone at two objects at most, so handovers always find room.
  let mutual = s.children("mutual_zone").filter((i) => !items.includes(i)).length;
  const dests = items.map((i) => {
    const options = ZONES.filter((z) => z !== s.parent(i) && (z !== "mutual_zone" || mutual < 2));
    const dest = rng.pick(options);
    if (dest === "mutual_zone") mutual++;
    return dest;
  });
  const ordered = roll > 0.88;
  const pairs = items.map((i, k) => `${i} to the ${dests[k]}`);
  b.act(
    items.map((i, k) => moveUnit("sort", i, dests[k] as string)),
    ordered
      ? p3(
          `In this order: ${pairs.join(", then ")}.`,
          `First ${pairs.join(", then ")}; keep that order.`,
          `One after the other: ${pairs.join(", then ")}.`,
        )
      : p3(
          `Move ${pairs.join(", ")}.`,
          `Please send ${pairs.join(", ")}.`,
          `Relocate ${pairs.join(", ")}.`,
        ),
    {
      request: ordered ? "ordered" : "direct",
      ordered: ordered ? "instruction" : undefined,
      report: rng.chance(0.3),
    },
  );
}

/** Each arm moves an object one hop: straight to its target if it reaches it, else to the mutual zone. */
function step(ctx: StepContext): ExpertCall | null {
  const { s, robot, open, known, reserved } = ctx;
  let unknown = false;
  for (const u of open) {
    const item = u.args.item as string;
    const dest = u.args.dest as string;
    const at = s.parent(item);
    if (at === dest || reserved.has(item)) continue;
    if (!known.has(item)) {
      unknown = true;
      continue;
    }
    if (!reaches(robot, at)) continue;
    const next = reaches(robot, dest) ? dest : "mutual_zone";
    if (next === at || (next === "mutual_zone" && full(s))) continue;
    return { skill: "deplace", args: { object: item, target_area: next } };
  }
  if (unknown && robot === "arm1" && !reserved.has("$detect"))
    return { skill: "get_objects_state", args: {} };
  return null;
}

function full(s: SymState): boolean {
  return (
    s.children("mutual_zone").length >=
    (s.index.capacity("mutual_zone") ?? Number.POSITIVE_INFINITY)
  );
}

export const biRobotSorting: Family & PlanHooks = {
  id: "bi-robot-sorting",
  title: "Bi-Robot Sorting",
  robots: 2,
  perturbations: ["MU", "SE"],
  setting:
    "Two fixed arms share a table with a left, a mutual and a right zone. arm1 reaches the left and mutual zones and can inspect objects; arm2 reaches the mutual and right zones. Objects crossing sides are handed over in the mutual zone.",
  rules: [
    "By default, intact objects go to the right_zone and damaged objects to the left_zone.",
    "The mutual_zone holds at most four objects.",
  ],
  catalog: CATALOG,
  skills: SKILLS,
  durations: { get_objects_state: 2, deplace: 6 },
  vocabulary: {
    arm1: ["left_arm", "arm_a"],
    arm2: ["right_arm", "arm_b"],
    bottle: ["flask", "vial"],
    bottles: ["flasks", "vials"],
    can: ["tin", "canister"],
    cans: ["tins", "canisters"],
    jar: ["pot", "tub"],
    jars: ["pots", "tubs"],
    deplace: ["transfer", "send_object"],
    get_objects_state: ["inspect_objects", "scan_table"],
  },
  attributes: () => ({ areas: [...ZONES] }),
  initiallyKnown: () => [],
  cost: (u, s) => {
    const at = s.parent(u.args.item as string);
    if (at === u.args.dest) return 0;
    return (at === "left_zone" && u.args.dest === "right_zone") ||
      (at === "right_zone" && u.args.dest === "left_zone")
      ? 2
      : 1;
  },
  step,
  generate(b) {
    const rng = b.rng;
    const scene = new SceneBuilder().room("cell");
    for (const z of ZONES)
      scene.place(z, {
        in: "cell",
        category: "zone",
        ...(z === "mutual_zone" ? { capacity: 4 } : {}),
      });
    const n = rng.range(5, 8);
    for (let k = 0; k < n; k++) {
      const cls = rng.pick(CLASSES);
      scene.item(`${cls}_${k + 1}`, {
        at: rng.pick(["left_zone", "right_zone", "left_zone"]),
        category: cls,
        attrs: { damaged: rng.chance(0.3) },
      });
    }
    scene.robot("arm1", { room: "cell", hands: 0, skills: ["inspect", "deplace"] });
    scene.robot("arm2", { room: "cell", hands: 0, skills: ["deplace"] });
    b.scene(scene.build());
    for (let guard = 0; !b.full && guard < 300; guard++) request(b);
  },
  ruleUpdate(b, key) {
    const options = SIDES.filter((z) => z !== b.rule(key)?.value);
    const value = b.rng.pick(options);
    const what = key === "damaged" ? "damaged objects" : plural(key.slice("dest:".length));
    return {
      value,
      say: p3(
        `Change of plan: ${what} now go to the ${value}.`,
        `Update: ${what} belong in the ${value} from now on.`,
        `Forget the earlier rule; put ${what} in the ${value}.`,
      ),
    };
  },
  interruption(b, exclude) {
    const free = objects(b).filter((i) => !exclude.has(i));
    if (free.length === 0) return null;
    const item = b.rng.pick(free);
    const dest = b.rng.pick(["left_zone", "right_zone"].filter((z) => z !== b.s.parent(item)));
    const units: Unit[] = [moveUnit("sort", item, dest)];
    return { units, say: same(`Move ${item} to the ${dest}.`) };
  },
};
