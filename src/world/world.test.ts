import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ACTION_CATALOG,
  type ActionName,
  type ActionSchema,
  Catalog,
  type EventSchedule,
  type Goal,
  PEN_GOAL,
  randomScene,
  type SceneGraph,
  studyScene,
  successorState,
  World,
  type WorldAction,
  WorldState,
} from "./index.ts";
import { invariantProblems } from "./test-support.ts";

const act = (name: ActionName, ...args: string[]): WorldAction => ({ name, args });

function run(world: World, actions: WorldAction[]): string[] {
  return actions.map((a) => {
    const r = world.step(a);
    return r.feedback.failure_type ?? "ok";
  });
}

describe("actions (Table 5)", () => {
  it("appendix A's plan succeeds and satisfies the goal", () => {
    const w = new World(studyScene(), PEN_GOAL);
    expect(
      run(w, [
        act("move_aside", "book"),
        act("grab", "red_pen"),
        act("putin", "red_pen", "pencil_case"),
        act("close", "pencil_case"),
      ]),
    ).toEqual(["ok", "ok", "ok", "ok"]);
    expect(w.goalSatisfied()).toBe(true);
  });

  it("open/close need two free hands and a state change", () => {
    const w = new World(studyScene(), PEN_GOAL);
    expect(run(w, [act("close", "drawer"), act("open", "drawer"), act("open", "drawer")])).toEqual([
      "already_in_state",
      "ok",
      "already_in_state",
    ]);
    expect(run(w, [act("grab", "book"), act("close", "drawer")])).toEqual(["ok", "hands_not_free"]);
    expect(run(w, [act("open", "desk")])).toEqual(["missing_affordance"]);
  });

  it("grab occupies one hand; a third grab fails; puton frees the hand", () => {
    const w = new World(studyScene(), PEN_GOAL);
    expect(
      run(w, [act("grab", "book"), act("grab", "lipstick_body"), act("grab", "lipstick_cap")]),
    ).toEqual(["ok", "ok", "hands_not_free"]);
    expect(w.view().robot.hands).toEqual({ left: "book", right: "lipstick_body" });
    expect(run(w, [act("puton", "book", "desk")])).toEqual(["ok"]);
    expect(w.view().robot.hands).toEqual({ left: null, right: "lipstick_body" });
  });

  it("loaded carriers reject grabs; capacity and cycles are enforced", () => {
    const w = new World(studyScene(), PEN_GOAL);
    expect(run(w, [act("open", "drawer"), act("grab", "box")])).toEqual(["ok", "carrier_loaded"]);
    expect(
      run(w, [act("open", "box"), act("grab", "eraser"), act("putin", "eraser", "eraser")]),
    ).toEqual(["ok", "ok", "placement_cycle"]);
    // drawer capacity 3: box + eraser + book fills it.
    expect(
      run(w, [
        act("putin", "eraser", "drawer"),
        act("grab", "book"),
        act("putin", "book", "drawer"),
        act("grab", "lipstick_body"),
        act("putin", "lipstick_body", "drawer"),
      ]),
    ).toEqual(["ok", "ok", "ok", "ok", "target_full"]);
    expect(w.view().visible_nodes.find((n) => n.id === "drawer")?.is_full).toBe(true);
  });

  it("putin into a closed container fails; puton needs a surface", () => {
    const w = new World(studyScene(), PEN_GOAL);
    expect(
      run(w, [
        act("grab", "book"),
        act("putin", "book", "drawer"),
        act("puton", "book", "pencil_case"),
      ]),
    ).toEqual(["ok", "target_closed", "missing_affordance"]);
  });

  it("press and attach set their attributes; attached parts cannot be grabbed", () => {
    const w = new World(studyScene(), PEN_GOAL);
    expect(
      run(w, [
        act("press", "lamp_button"),
        act("press", "lamp_button"),
        act("attach", "lipstick_body", "lipstick_cap"),
        act("attach", "lipstick_cap", "lipstick_body"),
        act("grab", "lipstick_cap"),
        act("grab", "lipstick_body"),
      ]),
    ).toEqual(["ok", "already_in_state", "missing_affordance", "ok", "already_in_state", "ok"]);
    const v = w.view();
    expect(v.visible_nodes.find((n) => n.id === "lamp_button")?.pressed).toBe(true);
    expect(v.visible_nodes.find((n) => n.id === "lipstick_cap")?.assembled).toBe(true);
    // The cap travels with the held body.
    expect(v.visible_nodes.some((n) => n.id === "lipstick_cap")).toBe(true);
  });

  it("walk only in navigation scenes, only to adjacent rooms; held objects come along", () => {
    expect(run(new World(studyScene(), PEN_GOAL), [act("walk", "hall")])).toEqual([
      "not_available",
    ]);
    const w = new World(studyScene(true), PEN_GOAL);
    expect(run(w, [act("walk", "study"), act("grab", "book"), act("walk", "hall")])).toEqual([
      "not_adjacent",
      "ok",
      "ok",
    ]);
    const v = w.view();
    expect(v.robot.current_room).toBe("hall");
    expect(v.held_objects.map((h) => h.id)).toEqual(["book"]);
    expect(v.visible_nodes.map((n) => n.id)).toEqual([
      "book",
      "hall",
      "shelf",
      "marker_1",
      "marker_2",
    ]);
  });

  it("failures never reveal whether a hidden or unknown node exists", () => {
    const w = new World(studyScene(), PEN_GOAL);
    const hidden = w.step(act("grab", "eraser")).feedback;
    const missing = w.step(act("grab", "unicorn")).feedback;
    expect(hidden.failure_type).toBe("not_visible");
    expect(missing.failure_type).toBe("not_visible");
    expect(hidden.message.replace("eraser", "X")).toBe(missing.message.replace("unicorn", "X"));
    expect(w.step({ name: "fly", args: [] }).feedback.failure_type).toBe("invalid_action");
    expect(w.step(act("grab")).feedback.failure_type).toBe("invalid_action");
  });

  it("the catalog rows carry Table 5's hand usage and injectability", () => {
    expect(ACTION_CATALOG.open.requiredFreeHands).toBe(2);
    expect(ACTION_CATALOG.grab.handResult).toBe("occupies one hand");
    expect(ACTION_CATALOG.puton.heldObjectRequired).toBe(true);
    expect(ACTION_CATALOG.observe.failureInjectable).toBe(false);
    expect(ACTION_CATALOG.walk.navigationOnly).toBe(true);
  });
});

describe("view projection (Eq. 8-9)", () => {
  const ids = (w: World) => w.view().visible_nodes.map((n) => n.id);

  it("hides nodes behind occluders and inside closed (nested) containers", () => {
    const w = new World(studyScene(), PEN_GOAL);
    expect(ids(w)).not.toContain("red_pen");
    expect(ids(w)).not.toContain("box");
    w.step(act("move_aside", "book"));
    expect(ids(w)).toContain("red_pen");
    w.step(act("open", "drawer"));
    expect(ids(w)).toContain("box");
    expect(ids(w)).not.toContain("eraser");
    w.step(act("open", "box"));
    expect(ids(w)).toContain("eraser");
    w.step(act("close", "drawer"));
    expect(ids(w)).not.toContain("box");
    expect(ids(w)).not.toContain("eraser");
  });

  it("shows only the current room and relations among visible nodes", () => {
    const w = new World(studyScene(true), PEN_GOAL);
    const v = w.view();
    expect(v.visible_nodes.map((n) => n.id)).not.toContain("shelf");
    expect(v.robot.adjacent_rooms).toEqual(["hall"]);
    const visible = new Set(v.visible_nodes.map((n) => n.id));
    for (const e of v.visible_edges) {
      expect(visible.has(e.from)).toBe(true);
      expect(visible.has(e.to)).toBe(true);
    }
    expect(v.visible_edges).not.toContainEqual({
      from: "book",
      to: "red_pen",
      relation: "OCCLUDES",
    });
  });

  it("carries the last action's feedback", () => {
    const w = new World(studyScene(), PEN_GOAL);
    w.step(act("open", "drawer"));
    expect(w.view().last_action).toMatchObject({ status: "success", action: { name: "open" } });
  });
});

describe("event schedules (Eq. 10/12)", () => {
  it("I1-style suppression fails each action name at most once and leaves G unchanged", () => {
    const schedule: EventSchedule = [
      {
        id: "i1",
        trigger: { on: "action_success" },
        rewrites: [],
        timing: "suppress",
        maxFires: 20,
        oncePerAction: true,
      },
    ];
    const w = new World(studyScene(), PEN_GOAL, schedule);
    const before = w.latent();
    expect(w.step(act("open", "drawer")).feedback.failure_type).toBe("injected_failure");
    expect(w.latent()).toEqual(before);
    expect(run(w, [act("open", "drawer"), act("close", "drawer"), act("close", "drawer")])).toEqual(
      ["ok", "injected_failure", "ok"],
    );
    expect(w.step(act("observe")).feedback.status).toBe("success");
    expect(w.fired().map((f) => f.id)).toEqual(["i1", "i1"]);
  });

  it("a goal-fact trigger rewrites with bindings once (I3 rollback)", () => {
    const schedule: EventSchedule = [
      {
        id: "i3",
        trigger: { on: "goal_fact", pred: "INSIDE" },
        rewrites: [{ op: "relocate", node: "$object", rel: "ON", target: "desk" }],
        timing: "after_action",
        maxFires: 1,
        oncePerAction: false,
      },
    ];
    const w = new World(studyScene(), PEN_GOAL, schedule);
    run(w, [act("move_aside", "book"), act("grab", "red_pen")]);
    const r = w.step(act("putin", "red_pen", "pencil_case"));
    expect(r.fired).toEqual([
      { id: "i3", step: 3, bindings: { $object: "red_pen", $target: "pencil_case" } },
    ]);
    expect(w.view().visible_edges).toContainEqual({ from: "red_pen", to: "desk", relation: "ON" });
    run(w, [act("grab", "red_pen"), act("putin", "red_pen", "pencil_case")]);
    expect(w.fired()).toHaveLength(1);
    expect(w.goalProgress()).toEqual([true, false]);
  });

  it("attribute triggers regress state after a minimum step (I2) and goals can be extended (I6)", () => {
    const schedule: EventSchedule = [
      {
        id: "i2",
        trigger: { on: "attr_reached", attr: "open", value: true, minStep: 2 },
        rewrites: [{ op: "set_attr", node: "$node", attr: "open", value: false }],
        timing: "after_action",
        maxFires: 1,
        oncePerAction: false,
      },
      {
        id: "i6",
        trigger: { on: "action_success", action: "press" },
        rewrites: [
          {
            op: "add_node",
            node: {
              id: "pen_2",
              type: "object",
              name: "blue pen",
              category: "pen",
              affordances: ["grabbable"],
              attrs: {},
            },
          },
          { op: "add_edge", from: "pen_2", to: "desk", rel: "ON" },
          {
            op: "extend_goal",
            atoms: [{ pred: "INSIDE", object: "pen_2", target: "pencil_case" }],
          },
        ],
        timing: "after_action",
        maxFires: 1,
        oncePerAction: false,
      },
    ];
    const w = new World(studyScene(), PEN_GOAL, schedule);
    expect(w.step(act("open", "drawer")).fired).toEqual([]); // step 1 is before the guard
    run(w, [act("close", "drawer")]);
    expect(w.step(act("open", "drawer")).fired.map((f) => f.id)).toEqual(["i2"]);
    expect(w.view().visible_nodes.find((n) => n.id === "drawer")?.open).toBe(false);
    w.step(act("press", "lamp_button"));
    expect(w.goal().all).toHaveLength(3);
    expect(w.view().visible_nodes.map((n) => n.id)).toContain("pen_2");
  });

  it("an event whose rewrite is invalid in the current state does not fire", () => {
    const schedule: EventSchedule = [
      {
        id: "bad",
        trigger: { on: "action_success", action: "grab" },
        rewrites: [{ op: "relocate", node: "$object", rel: "ON", target: "$object" }],
        timing: "after_action",
        maxFires: 1,
        oncePerAction: false,
      },
    ];
    const w = new World(studyScene(), PEN_GOAL, schedule);
    expect(w.step(act("grab", "book")).fired).toEqual([]);
    expect(w.view().held_objects.map((h) => h.id)).toEqual(["book"]);
  });
});

describe("invalid scenes and goals are rejected with a path", () => {
  it("names what is wrong", () => {
    const scene = studyScene();
    expect(
      () =>
        new World(
          { ...scene, edges: [...scene.edges, { from: "desk", to: "ghost", rel: "ON" }] },
          PEN_GOAL,
        ),
    ).toThrow(/edges\[11\]\.to: .*unknown node ghost/);
    expect(() => new World(scene, { all: [{ pred: "OPEN", node: "ghost" }] })).toThrow(
      /goal\.all\[0\]\.node/,
    );
    const cyclic = {
      ...scene,
      edges: [
        ...scene.edges.filter((e) => e.from !== "desk"),
        { from: "desk", to: "pencil_case", rel: "ON" as const },
      ],
    };
    expect(() => new World(cyclic, PEN_GOAL)).toThrow(/cycle/);
  });
});

const actionArb = (ids: string[]) =>
  fc.record({
    name: fc.constantFrom(
      ...(Object.keys(ACTION_CATALOG) as ActionName[]).filter((n) => n !== "stop"),
    ),
    args: fc.array(fc.constantFrom(...ids, "ghost"), { minLength: 0, maxLength: 2 }),
  });

describe("engine properties", () => {
  const scenes = [
    studyScene(true),
    ...["a", "b", "c"].map((s) => randomScene(s, { rooms: 2, objects: 9 }).scene),
  ];
  const goal: Goal = { all: [] };

  it("random action sequences keep invariants; views never show hidden nodes; failures change nothing", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...scenes.keys()),
        fc.array(actionArb(scenes[0]?.nodes.map((n) => n.id) ?? []), { maxLength: 40 }),
        fc.array(actionArb(scenes[1]?.nodes.map((n) => n.id) ?? []), { maxLength: 40 }),
        (k, a, b) => {
          const scene = scenes[k] as SceneGraph;
          const w = new World(scene, goal);
          for (const action of k === 0 ? a : b) {
            const before = w.latent();
            const r = w.step(action);
            const after = w.latent();
            if (r.feedback.status === "failure") expect(after).toEqual(before);
            expect(invariantProblems(after)).toEqual([]);
            const visible = w.visibleIds();
            for (const n of w.view().visible_nodes) expect(visible.has(n.id)).toBe(true);
            // What the world read (once per state version) is what the state shows afresh.
            const fresh = WorldState.fromScene(after);
            const seen = fresh.visibility(0);
            expect(visible).toEqual(new Set(fresh.ids.filter((_, i) => seen[i])));
            // Independent checks: nothing in view is actively occluded or in a closed container.
            const shown = new Set(w.view().visible_nodes.map((n) => n.id));
            for (const e of after.edges)
              if (e.rel === "OCCLUDES" && shown.has(e.to))
                expect(after.nodes.find((n) => n.id === e.from)?.attrs.moved_aside).toBe(true);
            for (const e of w.view().visible_edges)
              if (e.relation === "INSIDE")
                expect(after.nodes.find((n) => n.id === e.to)?.attrs.open).not.toBe(false);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("single-selection attributes and the search primitive", () => {
  const catalog = new Catalog({
    actions: [
      {
        name: "look_at",
        description: "Turn to face a visible node.",
        parameters: ["object"],
        preconditions: [
          { check: "visible", arg: 0 },
          { check: "attr", arg: 0, attr: "in_view", value: false },
        ],
        effects: [{ op: "set_attr_only", arg: 0, attr: "in_view" }],
      },
    ],
  });
  const node = (id: string) => ({
    id,
    type: "furniture" as const,
    name: id,
    category: id,
    affordances: [],
    attrs: { in_view: false },
  });
  const scene: SceneGraph = {
    nodes: [
      { id: "room", type: "room", name: "room", category: "room", affordances: [], attrs: {} },
      node("lamp"),
      node("desk"),
      { ...node("bin"), attrs: {} },
    ],
    edges: ["lamp", "desk", "bin"].map((id) => ({ from: id, to: "room", rel: "IN_ROOM" as const })),
    robots: [{ id: "agent", room: "room", hands: [null] }],
    navigation: false,
  };

  it("set_attr_only moves the attribute: one node holds it at a time", () => {
    const w = new World(scene, { all: [] }, [], { catalog });
    w.step({ name: "look_at", args: ["lamp"] });
    w.step({ name: "look_at", args: ["desk"] });
    const attrs = Object.fromEntries(w.latent().nodes.map((n) => [n.id, n.attrs.in_view]));
    expect(attrs).toEqual({ room: undefined, lamp: false, desk: true, bin: undefined });
    expect(w.step({ name: "look_at", args: ["desk"] }).feedback.failure_type).toBe(
      "already_in_state",
    );
    w.step({ name: "look_at", args: ["bin"] });
    const after = Object.fromEntries(w.latent().nodes.map((n) => [n.id, n.attrs.in_view]));
    expect(after).toEqual({ room: undefined, lamp: false, desk: false, bin: true });
  });

  it("successorState gives what World.step gives, and leaves its input unchanged", () => {
    const start = WorldState.fromScene(scene);
    const schema = catalog.get("look_at") as ActionSchema;
    const before = start.key();
    const next = successorState(start, schema, [start.index.get("desk") as number]);
    expect(next).toBeInstanceOf(WorldState);
    expect(start.key()).toBe(before);
    const w = new World(scene, { all: [] }, [], { catalog });
    w.step({ name: "look_at", args: ["desk"] });
    expect((next as WorldState).key()).toBe(w.latentState().key());
    const again = successorState(next as WorldState, schema, [start.index.get("desk") as number]);
    expect(again).toMatchObject({ type: "already_in_state" });
  });
});
