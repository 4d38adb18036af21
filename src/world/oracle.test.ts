import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { goalHolds, type ResolvedAtom } from "./goals.ts";
import {
  type Goal,
  oracleRollout,
  orderedActionDistance,
  PEN_GOAL,
  PlanCache,
  planOracle,
  planStillOptimal,
  randomScene,
  resolveGoal,
  type SceneGraph,
  spatialDependencies,
  studyScene,
  successors,
  taskStateHorizon,
  World,
  WorldState,
} from "./index.ts";
import { exposureCost } from "./oracle.ts";
import { planKey } from "./planner.ts";
import { admissibleEstimate, requirements } from "./requirements.ts";

/**
 * Plain breadth-first search over the same successor relation: the optimal length, -1 when
 * no plan exists, null when the search gave up after `limit` states (too large to compare).
 */
function bfsLength(
  start: WorldState,
  atoms: readonly ResolvedAtom[],
  limit = 200_000,
): number | null {
  let frontier = [start];
  const seen = new Set([start.key()]);
  for (let depth = 0; frontier.length > 0 && seen.size < limit; depth++) {
    const next: WorldState[] = [];
    for (const s of frontier) {
      if (goalHolds(s, atoms)) return depth;
      for (const succ of successors(s, atoms)) {
        const key = succ.state.key();
        if (seen.has(key)) continue;
        seen.add(key);
        next.push(succ.state);
      }
    }
    frontier = next;
  }
  return seen.size < limit ? -1 : null;
}

/**
 * The states of a walk through `scene` by the planner's successor relation, the k-th step taking
 * successor `picks[k]` (modulo their count); it stops early where a state has none.
 */
function randomWalk(
  scene: SceneGraph,
  goal: Goal,
  picks: readonly number[],
): { states: WorldState[]; atoms: ResolvedAtom[] } {
  let s = WorldState.fromScene(scene);
  const atoms = resolveGoal(s, goal);
  const states = [s];
  for (const k of picks) {
    const next = successors(s, atoms);
    if (next.length === 0) break;
    s = (next[k % next.length] as { state: WorldState }).state;
    states.push(s);
  }
  return { states, atoms };
}

describe("oracle planner", () => {
  it("finds appendix A's 4-step plan, and 6 steps when the case starts closed", () => {
    const s = WorldState.fromScene(studyScene());
    const plan = planOracle(s, resolveGoal(s, PEN_GOAL));
    expect(plan?.actions.map((a) => a.name)).toEqual(["move_aside", "grab", "putin", "close"]);
    const closed = studyScene();
    const pc = closed.nodes.find((n) => n.id === "pencil_case");
    if (pc) pc.attrs = { open: false };
    const c = WorldState.fromScene(closed);
    expect(planOracle(c, resolveGoal(c, PEN_GOAL))?.actions).toHaveLength(5);
  });

  it("every plan step is executable in the engine and reaches the goal", () => {
    const goal: Goal = {
      all: [
        ...PEN_GOAL.all,
        { pred: "INSIDE", object: "eraser", target: "pencil_case" },
        { pred: "ON", object: "marker_1", target: "desk" },
        { pred: "ASSEMBLED", part: "lipstick_cap", target: "lipstick_body" },
        { pred: "PRESSED", node: "lamp_button" },
        { pred: "COUNT", rel: "ON", category: "marker", target: "desk", op: "exactly", n: 2 },
      ],
    };
    const w = new World(studyScene(true), goal);
    const plan = planOracle(w.latentState(), w.goalAtoms());
    expect(plan).not.toBeNull();
    for (const a of plan?.actions ?? []) expect(w.step(a).feedback.status).toBe("success");
    expect(w.goalSatisfied()).toBe(true);
  });

  it("matches brute-force BFS lengths on small random instances", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 2 }),
        (seed, rooms) => {
          const { scene, goal } = randomScene(seed, { rooms, objects: 4, containers: 2, goals: 2 });
          const s = WorldState.fromScene(scene);
          const atoms = resolveGoal(s, goal);
          const plan = planOracle(s, atoms);
          expect(plan?.actions.length ?? -1).toBe(bfsLength(s, atoms));
        },
      ),
      { numRuns: 25 },
    );
  });

  it("matches BFS on three-room navigation scenes (chains and cycles) with objects to carry", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 6 }), fc.boolean(), (seed, cycle) => {
        const { scene, goal } = randomScene(seed, {
          rooms: 3,
          objects: 5,
          containers: 2,
          goals: 3,
        });
        if (cycle) scene.edges.push({ from: "room_2", to: "room_0", rel: "ADJACENT" });
        const s = WorldState.fromScene(scene);
        const atoms = resolveGoal(s, goal);
        // A few seeds exceed the BFS budget (e.g. "h!u" with a cycle): nothing to compare.
        const exact = bfsLength(s, atoms);
        fc.pre(exact !== null);
        expect(planOracle(s, atoms)?.actions.length ?? -1).toBe(exact);
      }),
      { numRuns: 20 },
    );
  });

  it("the heuristic never exceeds the true distance on states reached by random walks", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (seed, rooms, picks) => {
          const { scene, goal } = randomScene(seed, {
            rooms,
            objects: 4,
            containers: 2,
            goals: 3,
          });
          // Four rooms form a cycle, so the layered cut bound is exercised too.
          if (rooms === 4) scene.edges.push({ from: "room_3", to: "room_0", rel: "ADJACENT" });
          const { states, atoms } = randomWalk(scene, goal, picks);
          const s = states.at(-1) as WorldState;
          const h = admissibleEstimate(requirements(s, atoms));
          const exact = bfsLength(s, atoms);
          if (exact !== null && exact >= 0) expect(h).toBeLessThanOrEqual(exact);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("a plan cache hit equals a fresh search and hands out independent copies", () => {
    const cache = new PlanCache();
    const w = new World(studyScene(true), PEN_GOAL);
    const fresh = planOracle(w.latentState(), w.goalAtoms());
    const first = planOracle(w.latentState(), w.goalAtoms(), { cache });
    first?.actions.shift();
    // A new state object with the same content hits the entry.
    const again = new World(studyScene(true), PEN_GOAL);
    const hit = planOracle(again.latentState(), again.goalAtoms(), { cache });
    expect(hit?.actions).toEqual(fresh?.actions);
    // A different robot room is a different key.
    const away = {
      ...studyScene(true),
      robots: [{ id: "robot", room: "hall", hands: [null, null] }],
    };
    const moved = new World(away, PEN_GOAL);
    expect(planOracle(moved.latentState(), moved.goalAtoms(), { cache })?.actions).toHaveLength(
      (fresh?.actions.length ?? 0) + 1,
    );
  });

  it("a plan key is shared only by states with equal scene graphs, and by every such pair of equal worlds", () => {
    /** What the cache keyed on before planKey: the numbering, the search key and the scene. */
    const sceneKey = (s: WorldState) =>
      [s.ids.join(","), s.key(), JSON.stringify(s.toScene())].join("|");
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (seed, rooms, picks) => {
          const { scene, goal } = randomScene(seed, { rooms, objects: 3, containers: 2, goals: 2 });
          // Two worlds built from one scene (as a scene's conditions are) walk the same way.
          const a = randomWalk(scene, goal, picks);
          const b = randomWalk(scene, goal, picks);
          const keys = a.states.map((s) => planKey(s, a.atoms, 100));
          expect(b.states.map((s) => planKey(s, b.atoms, 100))).toEqual(keys);
          for (let i = 0; i < keys.length; i++)
            for (let j = i + 1; j < keys.length; j++)
              if (keys[i] === keys[j])
                expect(sceneKey(a.states[j] as WorldState)).toBe(
                  sceneKey(a.states[i] as WorldState),
                );
        },
      ),
      { numRuns: 40 },
    );
  });

  it("a plan key changes with each part of the state the search key leaves out", () => {
    const base = new World(studyScene(true), PEN_GOAL).latentState();
    const atoms = new World(studyScene(true), PEN_GOAL).goalAtoms();
    const keyOf = (change: (s: WorldState) => void) => {
      const s = base.clone();
      change(s);
      return planKey(s, atoms, 100);
    };
    const unchanged = keyOf(() => undefined);
    const pen = base.index.get("red_pen") as number;
    expect(pen).toBeGreaterThan(0);
    const changed = [
      keyOf((s) => {
        s.alive[pen] = false;
      }),
      // The pen now has a "pressed" attribute (false): its scene node shows it.
      keyOf((s) => {
        s.has[pen] = (s.has[pen] ?? 0) | 2;
      }),
      keyOf((s) => s.registerAttr("plugged_in")),
      keyOf((s) => {
        s.adjacent = s.adjacent.slice(1);
      }),
      keyOf((s) => {
        s.hands = [[pen, -1]];
      }),
      keyOf((s) => {
        s.hands = [[-1, pen]];
      }),
    ];
    expect(changed.every((key) => key !== unchanged)).toBe(true);
    expect(new Set(changed).size).toBe(changed.length);
    expect(planKey(base, atoms, 200)).not.toBe(unchanged);
  });

  it("keeps a plan's rest only when it is executable, reaches the goal and meets the bound", () => {
    const w = new World(studyScene(), PEN_GOAL);
    const plan = planOracle(w.latentState(), w.goalAtoms())?.actions ?? [];
    expect(planStillOptimal(w.latentState(), w.goalAtoms(), plan)).toBe(true);
    // Too short: does not reach the goal.
    expect(planStillOptimal(w.latentState(), w.goalAtoms(), plan.slice(0, -1))).toBe(false);
    // Out of order: the grab of the occluded pen comes before the move_aside.
    const swapped = [plan[1], plan[0], ...plan.slice(2)] as typeof plan;
    expect(planStillOptimal(w.latentState(), w.goalAtoms(), swapped)).toBe(false);
  });

  it("retries an injected failure without replanning (G is unchanged)", () => {
    const w = new World(studyScene(), PEN_GOAL, [
      {
        id: "I1",
        trigger: { on: "action_success" },
        rewrites: [],
        timing: "suppress",
        maxFires: 11,
        oncePerAction: true,
      },
    ]);
    const rollout = oracleRollout(w);
    expect(rollout.success).toBe(true);
    expect(rollout.replans).toBe(0);
    // move_aside, grab, putin, close each fail once, then succeed on retry; then stop.
    expect(rollout.steps.map((s) => `${s.action.name}:${s.success}`)).toEqual([
      "move_aside:false",
      "move_aside:true",
      "grab:false",
      "grab:true",
      "putin:false",
      "putin:true",
      "close:false",
      "close:true",
      "stop:true",
    ]);
  });

  it("a repeated goal atom changes neither the estimate nor the plan", () => {
    const s = WorldState.fromScene(studyScene(true));
    // Two markers share one walk back; a third carry would need a second one.
    const carry = { pred: "ON", object: "marker_1", target: "desk" } as const;
    const other = { pred: "ON", object: "marker_2", target: "desk" } as const;
    const once = resolveGoal(s, { all: [...PEN_GOAL.all, carry, other] });
    const twice = resolveGoal(s, { all: [...PEN_GOAL.all, carry, other, carry] });
    expect(admissibleEstimate(requirements(s, twice))).toBe(
      admissibleEstimate(requirements(s, once)),
    );
    expect(planOracle(s, twice)?.actions).toEqual(planOracle(s, once)?.actions);
  });

  it("returns null for an unsatisfiable goal", () => {
    const s = WorldState.fromScene(studyScene());
    const atoms = resolveGoal(s, { all: [{ pred: "PRESSED", node: "desk" }] });
    expect(planOracle(s, atoms)).toBeNull();
  });
});

describe("ordered action distance and TSH (hand-worked)", () => {
  it("appendix A: 4, 5 with the pair in an adjacent room, 5 with the case closed", () => {
    const s = WorldState.fromScene(studyScene());
    expect(orderedActionDistance(s, resolveGoal(s, PEN_GOAL))).toEqual({
      goal: 2,
      pre: 2,
      total: 4,
    });
    // Robot starts in the hall: one extra walk.
    const away = {
      ...studyScene(true),
      robots: [{ id: "robot", room: "hall", hands: [null, null] }],
    };
    const a = WorldState.fromScene(away);
    expect(orderedActionDistance(a, resolveGoal(a, PEN_GOAL)).total).toBe(5);
    // Closed case: open, and CLOSED is already satisfied (no close goal action) but needs a re-close.
    const closed = studyScene();
    const pc = closed.nodes.find((n) => n.id === "pencil_case");
    if (pc) pc.attrs = { open: false };
    const c = WorldState.fromScene(closed);
    expect(orderedActionDistance(c, resolveGoal(c, PEN_GOAL))).toEqual({
      goal: 1,
      pre: 4,
      total: 5,
    });
  });

  it("TSH of the pen task with an extra eraser and marker", () => {
    // Plan (0-based steps): 0 walk(hall) 1 grab(marker_1) 2 walk(study) 3 puton(marker_1,desk)
    // 4 move_aside(book) 5 grab(red_pen) 6 putin(red_pen,case) 7 open(drawer) 8 open(box)
    // 9 grab(eraser) 10 putin(eraser,case) 11 close(case) 12 stop.
    // explore: the eraser sits in a closed box in a closed drawer; the opens at 7 and 8 that
    // expose it are decided while it is hidden -> 2 view-expanding actions.
    // maintain: the pencil case is seen at 0, unseen at the walk back (2) that serves its use
    // at 6 (steps 3-5 keep it in view), last used at 11 -> 11.
    const goal: Goal = {
      all: [
        ...PEN_GOAL.all,
        { pred: "INSIDE", object: "eraser", target: "pencil_case" },
        { pred: "ON", object: "marker_1", target: "desk" },
      ],
    };
    const w = new World(studyScene(true), goal);
    const rollout = oracleRollout(w);
    expect(rollout.success).toBe(true);
    expect(rollout.initialPlanLength).toBe(12);
    expect(rollout.steps.map((s) => s.action.name)).toEqual([
      "walk",
      "grab",
      "walk",
      "puton",
      "move_aside",
      "grab",
      "putin",
      "open",
      "open",
      "grab",
      "putin",
      "close",
      "stop",
    ]);
    const tsh = taskStateHorizon(w.latentState(), rollout);
    expect(tsh).toEqual({ maintain: 11, explore: 2, update: 0 });
  });

  it("H_maintain counts appendix A's ordering dependency open -> put -> close (tabletop)", () => {
    // Appendix A's pen task with the pencil case closed. Plan (0-based): 0 open(case)
    // 1 move_aside(book) 2 grab(red_pen) 3 putin(red_pen, case) 4 close(case) 5 stop. Every
    // node stays in view, so no fact is hidden from a decision; but the case opened at 0 must
    // stay open for the put at 3 and be closed again at 4: H_maintain = 4 - 0 = 4. The pen is
    // behind the book (one move_aside): H_explore = 1, and it is the only spatial dependency
    // (the eraser in the closed box is hidden too, but no decision needs it).
    const scene = studyScene();
    const pc = scene.nodes.find((n) => n.id === "pencil_case");
    if (pc) pc.attrs = { open: false };
    const w = new World(scene, PEN_GOAL);
    const rollout = oracleRollout(w);
    expect(rollout.steps.map((s) => `${s.action.name}(${s.action.args.join(",")})`)).toEqual([
      "open(pencil_case)",
      "move_aside(book)",
      "grab(red_pen)",
      "putin(red_pen,pencil_case)",
      "close(pencil_case)",
      "stop()",
    ]);
    expect(taskStateHorizon(w.latentState(), rollout)).toEqual({
      maintain: 4,
      explore: 1,
      update: 0,
    });
    expect(spatialDependencies(w.latentState(), rollout)).toEqual(["red_pen"]);
  });

  it("H_explore counts the walks to the node's room: box in drawer next door = 1 + 2 = 3", () => {
    // Robot starts in the hall; the eraser is in the closed box in the closed drawer of the
    // adjacent study. Plan: walk(study) open(drawer) open(box) grab(eraser) putin(eraser, case).
    const away = {
      ...studyScene(true),
      robots: [{ id: "robot", room: "hall", hands: [null, null] }],
    };
    const w = new World(away, {
      all: [{ pred: "INSIDE", object: "eraser", target: "pencil_case" }],
    });
    const rollout = oracleRollout(w);
    expect(rollout.steps.map((s) => s.action.name)).toEqual([
      "walk",
      "open",
      "open",
      "grab",
      "putin",
      "stop",
    ]);
    expect(taskStateHorizon(w.latentState(), rollout).explore).toBe(3);
  });

  it("exposure cost: walks + opens + move_asides, occluders of occluders and their rooms", () => {
    const scene = studyScene(true);
    (scene.robots[0] as { room: string }).room = "hall";
    // A lamp in front of the book that hides the red pen: both must be moved aside.
    scene.nodes.push({
      id: "lamp",
      type: "object",
      name: "lamp",
      category: "lamp",
      affordances: ["movable"],
      attrs: { moved_aside: false },
    });
    scene.edges.push(
      { from: "lamp", to: "desk", rel: "ON" },
      { from: "lamp", to: "book", rel: "OCCLUDES" },
    );
    const s = WorldState.fromScene(scene);
    const cost = (id: string) => exposureCost(s, s.index.get(id) as number);
    expect(cost("marker_1")).toBe(0); // in view
    expect(cost("desk")).toBe(1); // walk
    expect(cost("box")).toBe(2); // walk, open(drawer)
    expect(cost("eraser")).toBe(3); // walk, open(drawer), open(box)
    expect(cost("red_pen")).toBe(3); // walk, move_aside(lamp), move_aside(book)
    // A blocker in the hall hiding the pen, seen from the study: walk there, move it aside,
    // walk back, then the lamp and the book.
    (scene.robots[0] as { room: string }).room = "study";
    scene.nodes.push({
      id: "screen",
      type: "object",
      name: "screen",
      category: "screen",
      affordances: ["movable"],
      attrs: { moved_aside: false },
    });
    scene.edges.push(
      { from: "screen", to: "shelf", rel: "ON" },
      { from: "screen", to: "red_pen", rel: "OCCLUDES" },
    );
    const t = WorldState.fromScene(scene);
    expect(exposureCost(t, t.index.get("red_pen") as number)).toBe(5);
  });

  it("the oracle replans after an event and H_update counts the disturbed fact", () => {
    const w = new World(studyScene(), PEN_GOAL, [
      {
        id: "i3",
        trigger: { on: "goal_fact", pred: "INSIDE" },
        rewrites: [{ op: "relocate", node: "$object", rel: "ON", target: "desk" }],
        timing: "after_action",
        maxFires: 1,
        oncePerAction: false,
      },
    ]);
    const rollout = oracleRollout(w);
    expect(rollout.success).toBe(true);
    expect(rollout.replans).toBe(1);
    expect(rollout.steps.map((s) => s.action.name)).toEqual([
      "move_aside",
      "grab",
      "putin",
      "grab",
      "putin",
      "close",
      "stop",
    ]);
    expect(taskStateHorizon(w.latentState(), rollout).update).toBe(1);
  });
});
