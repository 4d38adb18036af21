import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ACTION_CATALOG,
  Catalog,
  DEPOT_CATALOG,
  DEPOT_GOAL,
  depotScene,
  type EventSchedule,
  type FiredEvent,
  type Goal,
  PEN_GOAL,
  randomScene,
  type SceneGraph,
  studyScene,
  World,
  type WorldAction,
  type WorldEvent,
  type WorldNode,
} from "./index.ts";
import { invariantProblems } from "./test-support.ts";

const depot = (schedule: EventSchedule = []) =>
  new World(depotScene(), DEPOT_GOAL, schedule, { catalog: DEPOT_CATALOG });

/** Check now, apply later: the simulator's use of a durative skill. */
function start(w: World, action: WorldAction) {
  const c = w.check(action);
  if (!c.ok) throw new Error(`${action.name} rejected: ${c.feedback.message}`);
  return c.checked;
}

describe("robots as first-class nodes", () => {
  it("keeps each robot's room, hands and skills; a tray on a robot travels with it", () => {
    const w = depot();
    expect(w.robots()).toEqual(["arm", "cart"]);
    const pick = start(w, { name: "pick", args: ["red_box"], robot: "arm" });
    expect(w.apply(pick).feedback.status).toBe("success");
    expect(w.view("arm").robot.hands).toEqual(["red_box"]);
    expect(w.view("cart").robot.hands).toEqual([]);
    expect(w.step({ name: "put", args: ["red_box", "tray"], robot: "arm" }).feedback.status).toBe(
      "success",
    );
    expect(w.step({ name: "move_to", args: ["storage"], robot: "cart" }).feedback.status).toBe(
      "success",
    );
    expect(w.goalSatisfied()).toBe(true);
    // The box rode along: it is in storage, out of the arm's view, in the cart's.
    expect(w.visibleIds("arm").has("red_box")).toBe(false);
    expect(w.visibleIds("cart").has("red_box")).toBe(true);
    expect(w.latent().robots.map((r) => [r.id, r.room])).toEqual([
      ["arm", "station"],
      ["cart", "storage"],
    ]);
  });

  it("rejects skills a robot lacks, unknown robots and a second grasp of a held object", () => {
    const w = depot();
    const before = w.latent();
    const feedback = (a: WorldAction) => {
      const c = w.check(a);
      return c.ok ? "ok" : `${c.feedback.failure_type}: ${c.feedback.message}`;
    };
    expect(feedback({ name: "pick", args: ["red_box"], robot: "cart" })).toBe(
      "not_available: cart cannot pick",
    );
    expect(feedback({ name: "move_to", args: ["storage"], robot: "arm" })).toBe(
      "not_available: arm cannot move_to",
    );
    expect(feedback({ name: "detect", args: [], robot: "ghost" })).toBe(
      "invalid_action: unknown robot ghost",
    );
    expect(feedback({ name: "move_to", args: ["table"], robot: "cart" })).toBe(
      "missing_affordance: table is not a room",
    );
    expect(w.latent()).toEqual(before);
    const two = new World(
      { ...depotScene(), robots: [...depotScene().robots, { id: "arm2", room: "station" }] },
      DEPOT_GOAL,
      [],
      { catalog: DEPOT_CATALOG },
    );
    two.step({ name: "pick", args: ["red_box"], robot: "arm" });
    const again = two.step({ name: "pick", args: ["red_box"], robot: "arm2" }).feedback;
    expect(again.failure_type).toBe("already_in_state");
    expect(two.view("arm2").robot.hands).toEqual({ left: null, right: null });
  });

  it("shows other robots as visible nodes, with HELD edges to what they hold", () => {
    const w = depot();
    w.step({ name: "pick", args: ["red_box"], robot: "arm" });
    const v = w.view("cart");
    expect(v.robot.id).toBe("cart");
    expect(v.visible_nodes.find((n) => n.id === "arm")?.type).toBe("robot");
    expect(v.visible_nodes.some((n) => n.id === "cart")).toBe(false);
    expect(v.visible_edges).toContainEqual({ from: "arm", to: "red_box", relation: "HELD" });
    expect(v.visible_edges).toContainEqual({ from: "tray", to: "cart", relation: "ON" });
    expect(w.view("arm").held_objects).toEqual([{ id: "red_box", name: "red box" }]);
  });

  it("reads the single-robot shorthand and rejects robots among the nodes or clashing ids", () => {
    const { robots: _r, ...rest } = studyScene();
    const short = { ...rest, robot: { room: "study", hands: [null, null] as [null, null] } };
    expect(new World(short, PEN_GOAL).latent()).toEqual(new World(studyScene(), PEN_GOAL).latent());
    const scene = depotScene();
    const table = scene.nodes[2] as WorldNode;
    const asNode = {
      ...scene,
      nodes: [...scene.nodes, { ...table, id: "r2", type: "robot" as const }],
    };
    expect(() => new World(asNode, DEPOT_GOAL)).toThrow(/nodes\[7\]\.type: .*declared in robots/);
    const clash = { ...scene, robots: [{ id: "table", room: "station" }] };
    expect(() => new World(clash, { all: [] })).toThrow(/robots\[0\]\.id: .*duplicate node id/);
    const badRoom = {
      ...scene,
      robots: [
        { id: "arm", room: "station" },
        { id: "cart", room: "table" },
      ],
    };
    expect(() => new World(badRoom, { all: [] })).toThrow(/robots\[1\]\.room: .*not a room/);
  });

  it("keeps any attribute a catalog sets, shows it in views and tests it in ATTR goals", () => {
    const catalog = new Catalog({
      actions: [
        ...DEPOT_CATALOG.actions,
        {
          name: "go_anywhere",
          description: "Drive to a free place.",
          parameters: ["place"],
          preconditions: [{ check: "unoccupied", arg: 0 }],
          effects: [{ op: "move_robot", arg: 0 }],
        },
      ],
    });
    const scene = depotScene();
    scene.robots = scene.robots.map(({ skills: _s, ...robot }) => robot);
    const goal: Goal = { all: [{ pred: "ATTR", node: "conveyor", attr: "on", value: true }] };
    const w = new World(scene, goal, [], { catalog });
    expect(w.step({ name: "go_anywhere", args: ["station"], robot: "cart" }).feedback.message).toBe(
      "station is occupied by arm",
    );
    expect(w.step({ name: "go_anywhere", args: ["conveyor"], robot: "cart" }).feedback.status).toBe(
      "success",
    );
    expect(
      w.step({ name: "switch_on", args: ["conveyor"], robot: "arm" }).feedback.failure_type,
    ).toBe("not_visible");
    w.step({ name: "move_to", args: ["storage"], robot: "arm" });
    expect(w.view("arm").visible_nodes.find((n) => n.id === "conveyor")?.attrs).toEqual({
      on: false,
    });
    expect(w.goalSatisfied()).toBe(false);
    w.step({ name: "switch_on", args: ["conveyor"], robot: "arm" });
    expect(w.goalSatisfied()).toBe(true);
    expect(w.latent().nodes.find((n) => n.id === "conveyor")?.attrs).toEqual({ on: true });
  });
});

describe("catalogs as data", () => {
  it("derives Table 5's hand columns from the preconditions", () => {
    const rows = Object.values(ACTION_CATALOG).map((e) => [
      e.name,
      e.requiredFreeHands,
      e.heldObjectRequired,
      e.navigationOnly,
    ]);
    expect(rows).toEqual([
      ["observe", 0, false, false],
      ["walk", 0, false, true],
      ["open", 2, false, false],
      ["close", 2, false, false],
      ["press", 1, false, false],
      ["grab", 1, false, false],
      ["attach", 2, false, false],
      ["puton", 0, true, false],
      ["putin", 0, true, false],
      ["move_aside", 1, false, false],
      ["stop", 0, false, false],
    ]);
  });

  it("rejects malformed catalogs with the path of what is wrong", () => {
    const row = DEPOT_CATALOG.actions.find((a) => a.name === "pick");
    expect(() => new Catalog({ actions: [] })).toThrow(/actions/);
    expect(() => new Catalog({ actions: [row, row] as never })).toThrow(/duplicate action pick/);
    expect(
      () =>
        new Catalog({
          actions: [{ ...(row as object), preconditions: [{ check: "visible", arg: 1 }] }] as never,
        }),
    ).toThrow(/actions\[0\].*names argument 1 but takes 1/);
    expect(() => new Catalog({ actions: [row] as never, idle: "nap" })).toThrow(/idle/);
  });
});

describe("check / apply / fire", () => {
  it("counts a step in step() before checking, so minStep guards see the step being taken", () => {
    const guarded: WorldEvent = {
      id: "g",
      trigger: { on: "action_success", action: "detect", minStep: 2 },
      rewrites: [],
      timing: "after_action",
      maxFires: 1,
      oncePerAction: false,
    };
    const w = depot([guarded]);
    expect(w.step({ name: "detect", args: [], robot: "cart" }).fired).toEqual([]);
    expect(w.step({ name: "detect", args: [], robot: "cart" }).fired).toEqual([
      { id: "g", step: 2, bindings: { $robot: "cart" } },
    ]);
  });

  it("re-checks at apply when the world changed since the check; a late failure changes nothing", () => {
    const w = depot();
    w.step({ name: "pick", args: ["red_box"], robot: "arm" });
    const put = start(w, { name: "put", args: ["red_box", "tray"], robot: "arm" });
    const go = start(w, { name: "move_to", args: ["storage"], robot: "cart" });
    w.tick({ time: 5 });
    expect(w.apply(go).feedback.status).toBe("success");
    const before = w.latent();
    w.tick({ time: 6 });
    const late = w.apply(put);
    expect(late.feedback).toMatchObject({ status: "failure", failure_type: "not_visible" });
    expect(late.progress).toBeNull();
    expect(w.latent()).toEqual(before);
    expect(w.view("arm").last_action?.failure_type).toBe("not_visible");
  });

  it("injects a stage-scoped grasp fault for one robot: the world is unchanged, $robot is bound", () => {
    const fault: WorldEvent = {
      id: "grasp-fault",
      trigger: { on: "action_success", action: "pick", robot: "arm" },
      rewrites: [],
      timing: "suppress",
      maxFires: 1,
      oncePerAction: false,
    };
    const w = depot([fault]);
    const before = w.latent();
    const r = w.apply(start(w, { name: "pick", args: ["red_box"], robot: "arm" }));
    expect(r.feedback.failure_type).toBe("injected_failure");
    expect(r.fired).toEqual([
      { id: "grasp-fault", step: 0, bindings: { $object: "red_box", $robot: "arm" } },
    ]);
    expect(w.latent()).toEqual(before);
    expect(w.fire(r)).toEqual([]);
    expect(
      w.apply(start(w, { name: "pick", args: ["red_box"], robot: "arm" })).feedback.status,
    ).toBe("success");
  });

  it("fires progress events only through fire(), with minTime guards on the caller's clock", () => {
    const schedule: EventSchedule = [
      {
        id: "slow",
        trigger: { on: "goal_fact", pred: "INSIDE", minTime: 10 },
        rewrites: [{ op: "relocate", node: "$object", rel: "ON", target: "table" }],
        timing: "after_action",
        maxFires: 1,
        oncePerAction: false,
      },
    ];
    const early = depot(schedule);
    early.step({ name: "pick", args: ["red_box"], robot: "arm" });
    expect(early.step({ name: "put", args: ["red_box", "tray"], robot: "arm" }).fired).toEqual([]);
    const late = depot(schedule);
    late.step({ name: "pick", args: ["red_box"], robot: "arm" });
    late.tick({ time: 12 });
    const applied = late.apply(
      start(late, { name: "put", args: ["red_box", "tray"], robot: "arm" }),
    );
    expect(late.goalProgress()[0]).toBe(true);
    expect(late.fire(applied).map((f) => f.id)).toEqual(["slow"]);
    expect(late.goalProgress()[0]).toBe(false);
  });
});

describe("clock triggers", () => {
  it("deliver a timed mission update once, with its message, when the clock passes it", () => {
    const update: WorldEvent = {
      id: "MU",
      trigger: { on: "time", at: 20 },
      rewrites: [
        { op: "extend_goal", atoms: [{ pred: "INSIDE", object: "blue_box", target: "tray" }] },
      ],
      timing: "after_action",
      maxFires: 1,
      oncePerAction: false,
      message: "Also load the blue box.",
    };
    const w = depot([update]);
    expect(w.nextEventTime()).toBe(20);
    expect(w.tick({ time: 19.5 })).toEqual([]);
    expect(w.tick({ time: 31 })).toEqual([
      { id: "MU", step: 0, bindings: {}, time: 20, message: "Also load the blue box." },
    ]);
    expect(w.goal().all).toHaveLength(3);
    expect(w.tick({ time: 40 })).toEqual([]);
    expect(w.nextEventTime()).toBeNull();
    expect(() => w.tick({ time: 39 })).toThrow(/only moves forward/);
  });

  it("fire step triggers after the step that reaches them", () => {
    const at3: WorldEvent = {
      id: "s3",
      trigger: { on: "step", at: 3 },
      rewrites: [{ op: "set_attr", node: "drawer", attr: "open", value: true }],
      timing: "after_action",
      maxFires: 1,
      oncePerAction: false,
    };
    const w = new World(studyScene(), PEN_GOAL, [at3]);
    expect(w.step({ name: "observe", args: [] }).fired).toEqual([]);
    expect(w.step({ name: "observe", args: [] }).fired).toEqual([]);
    expect(w.step({ name: "observe", args: [] }).fired).toEqual([
      { id: "s3", step: 3, bindings: {} },
    ]);
    expect(w.visibleIds().has("box")).toBe(true);
    expect(w.step({ name: "observe", args: [] }).fired).toEqual([]);
  });

  it("reject clock triggers that could fire twice", () => {
    const twice: WorldEvent = {
      id: "t",
      trigger: { on: "time", at: 1 },
      rewrites: [],
      timing: "after_action",
      maxFires: 2,
      oncePerAction: false,
    };
    expect(() => depot([twice])).toThrow(/\[0\]\.maxFires: step and time triggers fire once/);
  });
});

// ---- properties ----

const scenes = ["p", "q", "r", "s"].map((seed, k) =>
  randomScene(seed, { rooms: 1 + (k % 3), objects: 8, robots: 2 + (k % 2) }),
);
const names = Object.keys(ACTION_CATALOG).filter((n) => n !== "stop");

/** A random Table 5 action by a random robot of `scene` (ids may be hidden or unknown). */
const actionArb = (scene: SceneGraph) =>
  fc.record({
    name: fc.constantFrom(...names),
    args: fc.array(fc.constantFrom(...scene.nodes.map((n) => n.id), "ghost"), { maxLength: 2 }),
    robot: fc.constantFrom(...scene.robots.map((r) => r.id)),
  });

const perScene = <T>(make: (scene: SceneGraph) => fc.Arbitrary<T>) =>
  fc.oneof(...scenes.map((s) => fc.tuple(fc.constant(s.scene), make(s.scene))));

describe("engine properties with several robots", () => {
  it("random multi-robot actions keep one place per object and hand capacity; a failed check changes nothing", () => {
    fc.assert(
      fc.property(
        perScene((s) => fc.array(actionArb(s), { maxLength: 40 })),
        ([scene, actions]) => {
          const w = new World(scene, { all: [] });
          const capacity = scene.robots.map((r) => r.hands.length);
          for (const action of actions) {
            const before = w.latent();
            const c = w.check(action);
            expect(w.latent()).toEqual(before); // checking is pure
            const r = w.step(action);
            const after = w.latent();
            expect(r.feedback.status === "success").toBe(c.ok);
            if (!c.ok) expect(after).toEqual(before);
            expect(invariantProblems(after)).toEqual([]);
            expect(after.robots.map((x) => x.hands.length)).toEqual(capacity);
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it("check + apply + fire + tick equal step, and two runs of the same inputs are identical", () => {
    const schedule: EventSchedule = [
      {
        id: "fault",
        trigger: { on: "action_success", action: "grab" },
        rewrites: [],
        timing: "suppress",
        maxFires: 2,
        oncePerAction: false,
      },
      {
        id: "undo",
        trigger: { on: "attr_reached", attr: "open", value: true },
        rewrites: [{ op: "set_attr", node: "$node", attr: "open", value: false }],
        timing: "after_action",
        maxFires: 1,
        oncePerAction: false,
      },
      {
        id: "late",
        trigger: { on: "step", at: 5 },
        rewrites: [{ op: "add_edge", from: "object_0", to: "object_1", rel: "OCCLUDES" }],
        timing: "after_action",
        maxFires: 1,
        oncePerAction: false,
      },
    ];
    fc.assert(
      fc.property(
        perScene((s) => fc.array(actionArb(s), { maxLength: 30 })),
        ([scene, actions]) => {
          const trace = (w: World) => (r: { feedback: unknown; fired: FiredEvent[] }) => ({
            r,
            latent: w.latent(),
            views: w.robots().map((id) => w.view(id)),
          });
          const a = new World(scene, { all: [] }, schedule);
          const b = new World(scene, { all: [] }, schedule);
          const c = a.clone();
          for (const action of actions) {
            const { terminated: _t, ...stepped } = a.step(action);
            const viaStep = trace(a)(stepped);
            b.advance({ step: b.stepCount + 1 });
            const checked = b.check(action);
            let r: { feedback: unknown; fired: FiredEvent[] };
            if (!checked.ok) {
              b.recordRejection(checked);
              r = { feedback: checked.feedback, fired: [] };
            } else {
              const applied = b.apply(checked.checked);
              r = {
                feedback: applied.feedback,
                fired: [...applied.fired, ...b.fire(applied), ...b.fireDue()],
              };
            }
            expect(trace(b)(r)).toEqual(viaStep);
            const { terminated: _c, ...cloned } = c.step(action);
            expect(trace(c)(cloned)).toEqual(viaStep);
          }
          expect(b.fired()).toEqual(a.fired());
        },
      ),
      { numRuns: 100 },
    );
  });

  it("a catalog without preconditions cannot break the structure: effects guard themselves", () => {
    const bare = (name: string, parameters: string[], effect: object) => ({
      name,
      description: name,
      parameters,
      preconditions: [],
      effects: [effect],
    });
    const sloppy = new Catalog({
      actions: [
        bare("take", ["x"], { op: "grab", arg: 0 }),
        bare("drop_in", ["x", "t"], { op: "place", object: 0, rel: "INSIDE", target: 1 }),
        bare("drop_on", ["x", "t"], { op: "place", object: 0, rel: "ON", target: 1 }),
        bare("join", ["x", "t"], { op: "attach", part: 0, target: 1 }),
        bare("go", ["x"], { op: "move_robot", arg: 0 }),
        bare("flag", ["x"], { op: "set_attr", arg: 0, attr: "flagged", value: true }),
      ] as never,
    });
    const arb = (scene: SceneGraph) => {
      const ids = [...scene.nodes.map((n) => n.id), ...scene.robots.map((r) => r.id), "ghost"];
      return fc.record({
        name: fc.constantFrom("take", "drop_in", "drop_on", "join", "go", "flag"),
        args: fc.array(fc.constantFrom(...ids), { minLength: 1, maxLength: 2 }),
        robot: fc.constantFrom(...scene.robots.map((r) => r.id)),
      });
    };
    fc.assert(
      fc.property(
        perScene((s) => fc.array(arb(s), { maxLength: 40 })),
        ([scene, actions]) => {
          const w = new World(scene, { all: [] }, [], { catalog: sloppy });
          for (const action of actions) {
            const before = w.latent();
            if (w.step(action).feedback.status === "failure") expect(w.latent()).toEqual(before);
            // Capacity is the catalog's precondition (not_full), not structure.
            expect(invariantProblems(w.latent(), { capacity: false })).toEqual([]);
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it("durative skills interleaved across robots: applies re-check, failures leave the world as it was", () => {
    const op = (s: SceneGraph) =>
      fc.oneof(
        fc.record({ start: actionArb(s) }),
        fc.record({ finish: fc.nat(5) }),
        fc.record({ now: actionArb(s) }),
      );
    fc.assert(
      fc.property(
        perScene((s) => fc.array(op(s), { maxLength: 40 })),
        ([scene, ops]) => {
          const w = new World(scene, { all: [] });
          const pending: Parameters<World["apply"]>[0][] = [];
          for (const o of ops) {
            if ("start" in o) {
              const c = w.check(o.start);
              if (c.ok) pending.push(c.checked);
            } else if ("finish" in o) {
              const checked = pending.splice(o.finish % Math.max(1, pending.length), 1)[0];
              if (!checked) continue;
              const before = w.latent();
              const applied = w.apply(checked);
              if (applied.feedback.status === "failure") expect(w.latent()).toEqual(before);
              w.fire(applied);
            } else w.step(o.now);
            expect(invariantProblems(w.latent())).toEqual([]);
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it("time triggers fire exactly once, at the first tick at or after their time, in time order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 12 }),
        (ats, steps) => {
          const schedule: EventSchedule = ats.map((at, i) => ({
            id: `t${i}`,
            trigger: { on: "time", at },
            rewrites: [],
            timing: "after_action",
            maxFires: 1,
            oncePerAction: false,
          }));
          const w = depot(schedule);
          const done = new Set<string>();
          let now = 0;
          for (const dt of [...steps, 200]) {
            now += dt;
            const pending = ats
              .map((at, i) => ({ id: `t${i}`, at }))
              .filter((e) => !done.has(e.id))
              .sort((x, y) => x.at - y.at);
            expect(w.nextEventTime()).toBe(pending[0]?.at ?? null);
            // Exactly the pending events now due fire, in time order, each stamped with its time.
            const due = pending.filter((e) => e.at <= now);
            expect(w.tick({ time: now }).map((f) => [f.id, f.time])).toEqual(
              due.map((e) => [e.id, e.at]),
            );
            for (const e of due) done.add(e.id);
          }
          expect(done.size).toBe(ats.length);
          expect(w.fired()).toHaveLength(ats.length);
        },
      ),
      { numRuns: 200 },
    );
  });
});
