/**
 * The oracle rollout τ* with its scheduled events (the oracle retries an injected failure,
 * which leaves G unchanged, and replans after any other failure or a fired event unless the
 * rest of its plan provably stays optimal), the ordered action distance C_distance (appendix A) and the task-state
 * horizon H = (H_maintain, H_explore, H_update) of Definition 2, computed on τ*.
 */
import { applyEffects, resolveArgs } from "./actions.ts";
import type { ResolvedAtom } from "./goals.ts";
import { type PlanOptions, planOracle, planStillOptimal } from "./planner.ts";
import { orderedDistance, requirements, roomDistance } from "./requirements.ts";
import { ROBOGRAPH_CATALOG } from "./robograph-catalog.ts";
import { Loc, type WorldState } from "./state.ts";
import type { FiredEvent, WorldAction } from "./types.ts";
import type { World } from "./world.ts";

/** One executed step of the oracle rollout. */
export interface RolloutStep {
  action: WorldAction;
  success: boolean;
  fired: FiredEvent[];
  /** Node ids visible in the observation the decision was made on. */
  visibleBefore: string[];
  /** Node ids whose location or attributes an event changed during this step. */
  eventChanged: string[];
}

/** The oracle's executed rollout (ending with `stop` when it reached the goal). */
export interface OracleRollout {
  steps: RolloutStep[];
  success: boolean;
  /** Length of the first optimal plan on G_0 (L_o, stop excluded). */
  initialPlanLength: number;
  replans: number;
}

/** Ordered action distance of a state for a goal: C_goal + C_pre (appendix A). */
export function orderedActionDistance(
  state: WorldState,
  atoms: readonly ResolvedAtom[],
): { goal: number; pre: number; total: number } {
  return orderedDistance(requirements(state, atoms));
}

/**
 * Run the oracle on a copy of `world`: plan optimally on the latent state, execute, retry an
 * injected failure, and replan after any other failure or a fired event (keeping the rest of
 * the plan when it provably stays optimal), up to `maxSteps` (default 100, the paper's limit).
 */
export function oracleRollout(
  world: World,
  options: PlanOptions & { maxSteps?: number } = {},
): OracleRollout {
  const w = world.clone();
  const maxSteps = options.maxSteps ?? 100;
  const steps: RolloutStep[] = [];
  let plan = planOracle(w.latentState(), w.goalAtoms(), options)?.actions ?? null;
  const initialPlanLength = plan?.length ?? -1;
  let replans = 0;
  while (plan && steps.length < maxSteps) {
    const action: WorldAction = plan.shift() ?? { name: "stop", args: [] };
    const visibleBefore = [...w.visibleIds()];
    const expected = w.latentState().clone();
    const result = w.step(action);
    if (result.feedback.status === "success") {
      const resolved = resolveArgs(expected, ROBOGRAPH_CATALOG.get(action.name), action);
      if (!("type" in resolved)) applyEffects(expected, resolved.schema, resolved.args, 0);
    }
    const changed = result.fired.length > 0 ? eventChanges(expected, w.latentState()) : [];
    steps.push({
      action,
      success: result.feedback.status === "success",
      fired: result.fired,
      visibleBefore,
      eventChanged: changed,
    });
    if (result.terminated) break;
    if (result.feedback.failure_type === "injected_failure") {
      // An injected failure (I1) leaves G unchanged, so the plan is still optimal: retry.
      plan.unshift(action);
    } else if (
      result.feedback.status === "failure" ||
      (result.fired.length > 0 && !planStillOptimal(w.latentState(), w.goalAtoms(), plan))
    ) {
      replans++;
      plan = planOracle(w.latentState(), w.goalAtoms(), options)?.actions ?? null;
    }
  }
  const last = steps[steps.length - 1];
  return {
    steps,
    success: last?.action.name === "stop" && w.goalSatisfied(),
    initialPlanLength,
    replans,
  };
}

/** Nodes whose location, attributes or occlusion differ from what the action alone did. */
function eventChanges(before: WorldState, after: WorldState): string[] {
  const out: string[] = [];
  for (let i = 0; i < after.ids.length; i++) {
    const id = after.ids[i] as string;
    if (
      i >= before.ids.length ||
      before.parent[i] !== after.parent[i] ||
      before.rel[i] !== after.rel[i] ||
      before.val[i] !== after.val[i] ||
      before.alive[i] !== after.alive[i] ||
      before.occludes.some(
        ([b, t]) => t === i && !after.occludes.some(([b2, t2]) => b2 === b && t2 === t),
      ) ||
      after.occludes.some(
        ([b, t]) => t === i && !before.occludes.some(([b2, t2]) => b2 === b && t2 === t),
      )
    )
      out.push(id);
  }
  return out;
}

/** The task-state horizon of Definition 2. */
export interface TaskStateHorizon {
  maintain: number;
  explore: number;
  update: number;
}

/**
 * TSH on the oracle rollout. Operationally, the fact about a node n is its location and state.
 * The decisions it constrains are the steps that take n as an argument plus the preparatory
 * steps that serve n: the run of walk/open/move_aside steps, decided while n was hidden, that
 * ends with the step exposing n before its use (so interleaved actions do not hide them). A
 * decision depends on the fact when n is not in that decision's view.
 * - H_explore: over spatially dependent nodes (not in the view of G_0), the minimal number of
 *   view-expanding actions exposing n in G_0 (`exposureCost`: walks to its room, opens of the
 *   closed containers and move_asides of the occluders on its location chain).
 * - H_maintain: the longest span over temporally dependent facts, of two kinds. (1) A node
 *   seen before a decision that cannot see it (the agent's own walk or close hid it): the
 *   steps from first sight to the last decision it constrains. (2) Appendix A's ordering
 *   dependency open -> put -> close: the state of a container the rollout opened constrains
 *   the later steps that act on it (puts into it, its close) until it is closed again; the
 *   span runs from the open to the last of them.
 * - H_update: nodes some decision uses whose fact an event changed along τ* (the facts the
 *   oracle had to re-acquire).
 */
export function taskStateHorizon(initial: WorldState, rollout: OracleRollout): TaskStateHorizon {
  const steps = rollout.steps;
  const uses = nodeUses(steps);
  const firstSeen = new Map<string, number>();
  steps.forEach((step, t) => {
    for (const id of step.visibleBefore) if (!firstSeen.has(id)) firstSeen.set(id, t);
  });
  const changedByEvents = new Set(steps.flatMap((s) => s.eventChanged));
  const initialVis = initial.visibility();
  let maintain = orderingSpan(steps);
  let explore = 0;
  let update = 0;
  for (const [id, ts] of uses) {
    if (changedByEvents.has(id)) update++;
    const dependent = ts.filter((t) => !(steps[t] as RolloutStep).visibleBefore.includes(id));
    if (dependent.length === 0) continue;
    const i = initial.index.get(id);
    if (i !== undefined && !initialVis[i]) explore = Math.max(explore, exposureCost(initial, i));
    const seen = firstSeen.get(id);
    const last = Math.max(...ts);
    if (seen !== undefined && dependent.some((t) => t > seen))
      maintain = Math.max(maintain, last - seen);
  }
  return { maintain, explore, update };
}

/**
 * The spatial dependencies of τ* (Definition 1): nodes not in the view of G_0 on which some
 * decision of the rollout depends (a preparatory step taken while the node was hidden). They
 * are the hidden facts an agent must reveal; SEG's denominator. Sorted ids.
 */
export function spatialDependencies(initial: WorldState, rollout: OracleRollout): string[] {
  const steps = rollout.steps;
  const initialVis = initial.visibility();
  const out: string[] = [];
  for (const [id, ts] of nodeUses(steps)) {
    const i = initial.index.get(id);
    if (i === undefined || initialVis[i]) continue;
    if (ts.some((t) => !(steps[t] as RolloutStep).visibleBefore.includes(id))) out.push(id);
  }
  return out.sort();
}

/** Per node, the steps of the rollout its fact constrains (see taskStateHorizon). */
function nodeUses(steps: readonly RolloutStep[]): Map<string, number[]> {
  const uses = new Map<string, number[]>();
  const addUse = (id: string, t: number) => {
    const list = uses.get(id) ?? [];
    list.push(t);
    uses.set(id, list);
  };
  steps.forEach((step, t) => {
    if (step.action.name === "walk" || step.action.name === "stop") return;
    for (const id of step.action.args) {
      addUse(id, t);
      // The run of preparatory steps, each decided while the argument was hidden, that ends
      // with the step exposing it serves it (other actions may come between exposure and use).
      let s = t - 1;
      while (s >= 0 && (steps[s] as RolloutStep).visibleBefore.includes(id)) s--;
      for (; s >= 0; s--) {
        const prep = steps[s] as RolloutStep;
        const name = prep.action.name;
        if (name !== "walk" && name !== "open" && name !== "move_aside") break;
        if (prep.visibleBefore.includes(id)) break;
        addUse(id, s);
      }
    }
  });
  return uses;
}

/**
 * The longest ordering dependency open -> put -> close on the rollout (appendix A): from a
 * successful open(c) to the last later step taking c as an argument (a put into it, its
 * close) before c is closed or opened again.
 */
function orderingSpan(steps: readonly RolloutStep[]): number {
  let span = 0;
  steps.forEach((step, t) => {
    if (step.action.name !== "open" || !step.success) return;
    const c = step.action.args[0] as string;
    for (let s = t + 1; s < steps.length; s++) {
      const later = steps[s] as RolloutStep;
      if (!later.action.args.includes(c)) continue;
      if (later.action.name === "open" && later.success) break;
      span = Math.max(span, s - t);
      if (later.action.name === "close" && later.success) break;
    }
  });
  return span;
}

/**
 * The minimal number of view-expanding actions (walk, open, move_aside) that expose node `i`
 * in `state`: one open per closed container entered on its location chain, one move_aside
 * per active occluder of a node on the chain (and, recursively, whatever hides that occluder,
 * since move_aside needs it in view), and the fewest walks from the robot's room that pass
 * through every such blocker's room and end in the node's room. Each blocker needs its own
 * action (an action changes one node) and each walk crosses one room-graph edge, so no
 * shorter sequence exposes the node.
 */
export function exposureCost(state: WorldState, i: number): number {
  const blockers = new Set<number>();
  const clearChain = (node: number) => {
    for (let cur = node, guard = 0; cur >= 0 && guard <= state.ids.length; guard++) {
      if (state.rel[cur] === Loc.Held) return;
      for (const [b, t] of state.occludes)
        if (t === cur && state.alive[b] && !state.isMovedAside(b) && !blockers.has(b)) {
          blockers.add(b);
          clearChain(b);
        }
      const p = state.parent[cur] ?? -1;
      if (p >= 0 && state.rel[cur] === Loc.Inside && state.isClosed(p)) blockers.add(p);
      cur = p;
    }
  };
  clearChain(i);
  const target = state.roomOf(i);
  const stops = [...new Set([...blockers].map((b) => state.roomOf(b)))].filter((r) => r !== target);
  return blockers.size + shortestTour(state, state.robotRoom(0), stops, target);
}

/** Fewest walks from `start` through every room of `stops` (any order) ending at `end`. */
function shortestTour(state: WorldState, start: number, stops: number[], end: number): number {
  if (stops.length === 0) return roomDistance(state, start, end);
  let best = Number.POSITIVE_INFINITY;
  for (const next of stops) {
    const rest = stops.filter((r) => r !== next);
    best = Math.min(best, roomDistance(state, start, next) + shortestTour(state, next, rest, end));
  }
  return best;
}
