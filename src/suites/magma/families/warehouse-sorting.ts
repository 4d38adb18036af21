/**
 * Warehouse Sorting (Table 2: 1 robot; MU, SE, IN). The authors' factory sorting cell: objects
 * arrive on an intake and go to storage areas; the user gives assignment rules, closes areas,
 * adds and removes locations. Skills as in the authors' `WithoutManufacturingOrder` tools:
 * take_obj, depose, add_new_location, remove_location (launch_cycle is left out: one call
 * would sort a whole batch, so the nominal horizon would not count the work; docs/magma.md).
 * Objects on the intake are listed in the attributes; later batches arrive hidden in a backlog.
 */
import { Catalog } from "../../../world/index.ts";
import type { Family, SkillDef } from "../family.ts";
import type { MissionBuilder, PlanHooks } from "../mission-builder.ts";
import { SceneBuilder } from "../scene-builder.ts";
import type { Constraint, Unit } from "../types.ts";
import { armRelocationStep, moveUnit, p3, plural, putAction, same, takeAction } from "./common.ts";

const CLASSES = ["fork", "clipboard", "valve", "paper_sheet", "laptop"] as const;
const AREAS = ["area1", "area2", "area3", "area4", "area5"] as const;
const SPARES = ["dock_a", "dock_b"] as const;
const ROBOT = "sorter";

const SKILLS: SkillDef[] = [
  {
    name: "take_obj",
    description: "Take an object from the environment.",
    params: {
      obj: { type: "string", description: "The name of the object to take in the gripper." },
    },
    action: "take",
    args: ["param:obj"],
    kind: "act",
    faults: ["grasp"],
    item: "obj",
    needsDetection: true,
    report: (_s, _r, a) => ({ message: `You have a ${a.obj} object in your gripper.` }),
  },
  {
    name: "depose",
    description: "Put the held object in an area.",
    params: {
      target: { type: "string", description: "The area where the held object is dropped." },
    },
    action: "depose",
    args: ["$held", "param:target"],
    kind: "act",
    faults: ["execution"],
    report: (_s, _r, a) => ({ message: `Successfully deposed the object in ${a.target}.` }),
  },
  {
    name: "add_new_location",
    description: "Add a new location to the known areas the robot can use to store objects.",
    params: {
      location_name: {
        type: "string",
        description: "The name of the new location. Must not already exist.",
      },
    },
    action: "register",
    args: ["param:location_name"],
    kind: "info",
    faults: [],
    guard: (s, _r, a) =>
      SPARES.includes(a.location_name as (typeof SPARES)[number]) ||
      s.index.type(a.location_name ?? "") === "container"
        ? null
        : `${a.location_name} cannot be created here.`,
    report: (_s, _r, a) => ({ message: `${a.location_name} was added to known areas.` }),
  },
  {
    name: "remove_location",
    description: "Remove an existing location from the known areas.",
    params: {
      location_name: {
        type: "string",
        description: "The name of the location to remove. Must exist.",
      },
    },
    action: "unregister",
    args: ["param:location_name"],
    kind: "info",
    faults: [],
    report: (_s, _r, a) => ({ message: `${a.location_name} was removed from known areas.` }),
  },
];

const registered = { check: "attr", arg: 1, attr: "registered", value: true } as const;

const CATALOG = new Catalog({
  actions: [
    takeAction("take"),
    { ...putAction("depose"), preconditions: [...putAction("depose").preconditions, registered] },
    {
      name: "register",
      description: "register an area",
      parameters: ["area"],
      preconditions: [{ check: "attr", arg: 0, attr: "registered", value: false }],
      effects: [{ op: "set_attr", arg: 0, attr: "registered", value: true }],
    },
    {
      name: "unregister",
      description: "unregister an area",
      parameters: ["area"],
      preconditions: [{ check: "attr", arg: 0, attr: "registered", value: true }],
      effects: [{ op: "set_attr", arg: 0, attr: "registered", value: false }],
    },
  ],
});

function classOf(item: string): string {
  return item.replace(/_\d+$/, "");
}

function areas(b: MissionBuilder): string[] {
  const s = b.s;
  return [...AREAS, ...SPARES].filter((a) => s.attr(a, "registered"));
}

/** Registered areas the user has not closed. */
function openAreas(b: MissionBuilder): string[] {
  return areas(b).filter((a) => !b.rule(`closed:${a}`));
}

/** The default area of a class: its rule, else R_p's (area1..area5 in class order). */
function defaultArea(b: MissionBuilder, cls: string): string {
  return (
    b.rule(`dest:${cls}`)?.value ??
    (AREAS[CLASSES.indexOf(cls as (typeof CLASSES)[number])] as string)
  );
}

function forbidClosed(b: MissionBuilder): Constraint[] {
  const out: Constraint[] = [];
  for (const key of b.ruleKeys())
    if (key.startsWith("closed:")) {
      const area = key.slice("closed:".length);
      for (const item of b.nodes.ofType("object"))
        out.push({
          kind: "atom",
          atom: { pred: "INSIDE", object: item, target: area },
          source: "rule",
        });
    }
  return out;
}

function onIntake(b: MissionBuilder): string[] {
  return b.s.children("intake");
}

function arrive(b: MissionBuilder, n: number) {
  const backlog = b.s.children("backlog").slice(0, n);
  return backlog.map((item) => ({
    op: "relocate" as const,
    node: item,
    rel: "INSIDE" as const,
    target: "intake",
  }));
}

/** State a rule first in missions with rules; then make a request rely on it. */
function ruleFirst(b: MissionBuilder): boolean {
  const rng = b.rng;
  const intake = onIntake(b);
  if (b.wantsRule) {
    const cls = intake.length ? classOf(rng.pick(intake)) : rng.pick(CLASSES);
    const dest = rng.pick(openAreas(b).filter((a) => a !== defaultArea(b, cls)));
    b.ack(ruleSay(cls, dest), { request: "rule", key: `dest:${cls}`, value: dest });
    return true;
  }
  const unused = b.unusedRules.filter((k) => k.startsWith("dest:"));
  if (unused.length === 0 || !rng.chance(0.6)) return false;
  const key = rng.pick(unused);
  const cls = key.slice("dest:".length);
  const dest = defaultArea(b, cls);
  if (!openAreas(b).includes(dest)) return false;
  const mine = intake.filter((i) => classOf(i) === cls);
  if (mine.length > 0) {
    b.act(
      mine.map((i) => moveUnit("sort", i, dest)),
      p3(
        `Put the ${plural(cls)} from the intake away.`,
        `Store the ${plural(cls)} that are on the intake.`,
        `The ${plural(cls)} on the intake need storing.`,
      ),
      { request: "underspecified", uses: [key], forbid: forbidClosed(b), report: rng.chance(0.4) },
    );
    return true;
  }
  const backlog = b.s
    .children("backlog")
    .filter((i) => classOf(i) === cls)
    .slice(0, 2);
  if (backlog.length === 0) return false;
  const enter = backlog.map((item) => ({
    op: "relocate" as const,
    node: item,
    rel: "INSIDE" as const,
    target: "intake",
  }));
  b.act(
    backlog.map((i) => moveUnit("sort", i, dest)),
    p3(
      `New ${plural(cls)} arrived on the intake: put them away.`,
      `Some ${plural(cls)} just came in; store them.`,
      `Please store the ${plural(cls)} that just arrived.`,
    ),
    { request: "underspecified", uses: [key], enter, forbid: forbidClosed(b) },
  );
  return true;
}

function ruleSay(cls: string, dest: string) {
  return p3(
    `Remember: from now on, ${plural(cls)} go to ${dest} by default.`,
    `Please keep in mind that the default area for ${plural(cls)} is ${dest}.`,
    `New rule: ${plural(cls)} are stored in ${dest} unless I say otherwise.`,
  );
}

function request(b: MissionBuilder): void {
  if (ruleFirst(b)) return;
  const rng = b.rng;
  const roll = rng.next();
  const intake = onIntake(b);
  const open = openAreas(b);
  if (intake.length === 0) {
    // A new batch arrives; sort it by the default assignment (underspecified when rules apply).
    const enter = arrive(b, rng.range(2, 4));
    if (enter.length === 0) {
      const area = rng.pick(open);
      const n = b.s.children(area).length;
      b.ask(
        same(`How many objects are in ${area}?`),
        { kind: "count", n },
        `There are ${n} objects in ${area}.`,
        { request: "question" },
      );
      return;
    }
    const items = enter.map((e) => e.node);
    const units = items.map((i) => moveUnit("sort", i, defaultArea(b, classOf(i))));
    if (units.some((u) => !open.includes(u.args.dest as string))) {
      // A default points to a closed area: name destinations explicitly.
      const dests = items.map(() => rng.pick(open));
      b.act(
        items.map((i, k) => moveUnit("sort", i, dests[k] as string)),
        batchSay(items, dests),
        { request: "direct", enter, forbid: forbidClosed(b) },
      );
      return;
    }
    const uses = [...new Set(items.map((i) => `dest:${classOf(i)}`))].filter((k) => b.rule(k));
    b.act(
      units,
      p3(
        "A new batch arrived on the intake: sort it.",
        "Please sort the objects that just arrived on the intake.",
        "New objects are on the intake; put each where it belongs.",
      ),
      {
        request: uses.length ? "underspecified" : "direct",
        uses,
        enter,
        forbid: forbidClosed(b),
        report: rng.chance(0.4),
      },
    );
    return;
  }
  if (b.withRules && roll < 0.25) {
    const cls = rng.pick(CLASSES);
    const dest = rng.pick(open.filter((a) => a !== defaultArea(b, cls)));
    b.ack(
      p3(
        `Remember: from now on, ${plural(cls)} go to ${dest} by default.`,
        `Please keep in mind that the default area for ${plural(cls)} is ${dest}.`,
        `New rule: ${plural(cls)} are stored in ${dest} unless I say otherwise.`,
      ),
      { request: "rule", key: `dest:${cls}`, value: dest },
    );
    return;
  }
  if (b.withRules && roll < 0.32 && open.length > 3) {
    // Only an empty area no default points to can close: the rule forbids any object inside
    // it ("keep it empty"), so closing one that already holds objects would be a request the
    // state breaks before any action (§4.4: requests are state-valid).
    const used = new Set(CLASSES.map((c) => defaultArea(b, c)));
    const free = open.filter((a) => !used.has(a) && b.s.children(a).length === 0);
    if (free.length > 0) {
      const area = rng.pick(free);
      b.ack(
        p3(
          `${area} is closed for maintenance: never put anything there.`,
          `Do not use ${area} anymore, it is closed.`,
          `Rule: ${area} is out of service; keep it empty.`,
        ),
        { request: "rule", key: `closed:${area}`, value: area },
      );
      return;
    }
  }
  if (roll < 0.42) {
    const item = rng.pick(intake);
    const dest = rng.pick(open);
    const universe = [...AREAS, ...SPARES];
    if (rng.chance(0.5) && b.withRules && b.rule(`dest:${classOf(item)}`)) {
      const key = `dest:${classOf(item)}`;
      const value = b.rule(key)?.value as string;
      b.ask(
        same(`Which area do ${plural(classOf(item))} go to by default?`),
        { kind: "value", value, others: universe.filter((a) => a !== value) },
        `${plural(classOf(item))} go to ${value}.`,
        { request: "rule-question", uses: [key] },
      );
      return;
    }
    const here = b.s.children(dest);
    b.ask(
      p3(
        `How many objects are in ${dest}?`,
        `Count the objects stored in ${dest}.`,
        `Tell me how many objects ${dest} holds.`,
      ),
      { kind: "count", n: here.length },
      `There are ${here.length} objects in ${dest}.`,
      { request: "question" },
    );
    return;
  }
  if (roll < 0.5 && b.track === "CG") {
    const spare = SPARES.find((a) => !b.s.attr(a, "registered"));
    if (spare) {
      const item = rng.pick(intake);
      b.act(
        [
          {
            kind: "register",
            args: { area: spare },
            atoms: [{ pred: "ATTR", node: spare, attr: "registered", value: true }],
            logs: [],
          },
          moveUnit("sort", item, spare),
        ],
        p3(
          `Create a new area called ${spare} and put ${item} there.`,
          `Add a location named ${spare}, then store ${item} in it.`,
          `We need a new area, ${spare}; ${item} goes there.`,
        ),
        { request: "ordered", ordered: "instruction", forbid: forbidClosed(b) },
      );
      return;
    }
  }
  if (roll < 0.6 && intake.length >= 2) {
    const items = rng.shuffle(intake).slice(0, Math.min(3, intake.length));
    const dests = items.map(() => rng.pick(open));
    b.act(
      items.map((i, k) => moveUnit("sort", i, dests[k] as string)),
      orderedSay(items, dests),
      {
        request: "ordered",
        ordered: "instruction",
        forbid: forbidClosed(b),
        report: rng.chance(0.3),
      },
    );
    return;
  }
  const items = intake.slice(0, Math.min(intake.length, rng.range(1, 3)));
  const dests = items.map(() => rng.pick(open));
  b.act(
    items.map((i, k) => moveUnit("sort", i, dests[k] as string)),
    batchSay(items, dests),
    { request: "direct", forbid: forbidClosed(b), report: rng.chance(0.3) },
  );
}

function pairs(items: string[], dests: string[]): string {
  return items.map((i, k) => `${i} to ${dests[k]}`).join(", ");
}

function batchSay(items: string[], dests: string[]) {
  return p3(
    `Sort these objects: ${pairs(items, dests)}.`,
    `Please move ${pairs(items, dests)}.`,
    `Store the objects as follows: ${pairs(items, dests)}.`,
  );
}

function orderedSay(items: string[], dests: string[]) {
  const seq = items.map((i, k) => `${i} to ${dests[k]}`).join(", then ");
  return p3(
    `In this order: ${seq}.`,
    `First ${seq}. Keep that order.`,
    `One after the other, in order: ${seq}.`,
  );
}

export const warehouseSorting: Family & PlanHooks = {
  id: "warehouse-sorting",
  title: "Warehouse Sorting",
  robots: 1,
  perturbations: ["MU", "SE", "IN"],
  setting:
    "Objects arrive on an intake and must be stored in areas. The objects on the intake and the known areas are listed in the attributes.",
  rules: [
    "Default areas: forks go to area1, clipboards to area2, valves to area3, paper sheets to area4, laptops to area5.",
    "Only known areas can receive objects; the gripper holds one object at a time.",
  ],
  catalog: CATALOG,
  skills: SKILLS,
  durations: { take_obj: 4, depose: 4, add_new_location: 1, remove_location: 1 },
  vocabulary: {
    fork: ["spanner", "wrench"],
    forks: ["spanners", "wrenches"],
    clipboard: ["folder", "binder"],
    clipboards: ["folders", "binders"],
    valve: ["gauge", "nozzle"],
    valves: ["gauges", "nozzles"],
    laptop: ["tablet", "monitor"],
    laptops: ["tablets", "monitors"],
    intake: ["inbound_belt", "receiving_table"],
    sorter: ["cell_robot", "picker"],
    take_obj: ["grab_specific_object", "pick_object"],
    depose: ["move_object_to_location", "drop_object"],
  },
  attributes: (s) => ({
    objects: s.children("intake"),
    target_areas: [...AREAS, ...SPARES].filter((a) => s.attr(a, "registered")),
  }),
  initiallyKnown: () => [],
  listed: (s) => s.children("intake"),
  cost: (u, s) =>
    u.kind === "register" ? 1 : s.parent(u.args.item as string) === u.args.dest ? 0 : 2,
  step(ctx) {
    const reg = ctx.open.find((u) => u.kind === "register");
    if (reg && !ctx.s.held(ctx.robot))
      return { skill: "add_new_location", args: { location_name: reg.args.area as string } };
    return armRelocationStep(ctx, {
      take: "take_obj",
      takeParam: "obj",
      put: "depose",
      putParam: "target",
    });
  },
  generate(b) {
    const rng = b.rng;
    const scene = new SceneBuilder()
      .room("cell")
      .place("intake", { in: "cell" })
      .place("backlog", { in: "cell" });
    for (const a of AREAS)
      scene.place(a, { in: "cell", category: "area", attrs: { registered: true } });
    for (const a of SPARES)
      scene.place(a, { in: "cell", category: "area", attrs: { registered: false } });
    let n = 0;
    const first = rng.range(3, 5);
    for (let k = 0; k < 40; k++) {
      const cls = rng.pick(CLASSES);
      scene.item(`${cls}_${++n}`, { at: k < first ? "intake" : "backlog", category: cls });
    }
    scene.robot(ROBOT, {
      room: "cell",
      hands: 1,
      skills: ["take", "depose", "register", "unregister"],
    });
    b.scene(scene.build());
    for (let guard = 0; !b.full && guard < 200; guard++) request(b);
  },
  ruleUpdate(b, key) {
    if (!key.startsWith("dest:")) return null;
    const cls = key.slice("dest:".length);
    const options = openAreas(b).filter((a) => a !== b.rule(key)?.value);
    if (options.length === 0) return null;
    const value = b.rng.pick(options);
    return {
      value,
      say: p3(
        `Change of plan: ${plural(cls)} now go to ${value} by default.`,
        `Update: the default area for ${plural(cls)} is now ${value}.`,
        `Forget the earlier rule; ${plural(cls)} belong in ${value} from now on.`,
      ),
    };
  },
  interruption(b, exclude) {
    const intake = onIntake(b).filter((i) => !exclude.has(i));
    if (intake.length === 0) return null;
    const item = b.rng.pick(intake);
    const dest = b.rng.pick(openAreas(b));
    const units: Unit[] = [moveUnit("sort", item, dest)];
    return {
      units,
      say: p3(`Store ${item} in ${dest}.`, `Put ${item} into ${dest}.`, `${item} goes to ${dest}.`),
    };
  },
};
