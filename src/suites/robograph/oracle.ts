/**
 * The suite's window on the engine's privileged oracle: optimal plans on the latent state,
 * the ordered action distance of appendix A and scene-level counts for `longhaul stats`.
 */
import {
  atomNodeIds,
  type EventSchedule,
  type Goal,
  oracleRollout,
  orderedActionDistance,
  PlanCache,
  planOracle,
  planStillOptimal,
  type SingleRobotScene,
  spatialDependencies,
  type TaskStateHorizon,
  taskStateHorizon,
  World,
  type WorldAction,
} from "../../world/index.ts";

/** The task-state horizon (H_maintain, H_explore, H_update) of Definition 2. */
export type Horizon = TaskStateHorizon;

/** Plans shared by compile, stats and the oracle agent: a scene's 7 conditions share G_0. */
const plans = new PlanCache();

/** An optimal plan (non-stop actions) from the world's current latent state, or null. */
export function oraclePlan(world: World): WorldAction[] | null {
  return planOracle(world.latentState(), world.goalAtoms(), { cache: plans })?.actions ?? null;
}

/** `rest` when it is still provably optimal after an event, else a fresh optimal plan. */
export function oracleReplan(world: World, rest: WorldAction[]): WorldAction[] | null {
  return planStillOptimal(world.latentState(), world.goalAtoms(), rest) ? rest : oraclePlan(world);
}

/** A bound on the search behind a metric, so an agent's odd states cannot stall scoring. */
const METRIC_EXPANSIONS = 200_000;

/**
 * An optimal plan from the world's current latent state (RAR's necessity test), or null when
 * the goal is unreachable or the search gave up.
 */
export function remainingPlan(world: World): WorldAction[] | null {
  return (
    planOracle(world.latentState(), world.goalAtoms(), {
      cache: plans,
      maxExpansions: METRIC_EXPANSIONS,
    })?.actions ?? null
  );
}

/** The ordered action distance C_distance of the world's current latent state. */
export function actionDistance(world: World): number {
  return orderedActionDistance(world.latentState(), world.goalAtoms()).total;
}

/**
 * The oracle rollout τ* of an episode (with its events), the TSH computed on it and its
 * spatial dependencies (the nodes hidden in G_0 that τ* needs revealed).
 */
export function oracleEpisode(
  scene: SingleRobotScene,
  goal: Goal,
  events: EventSchedule,
): {
  success: boolean;
  initialPlanLength: number;
  actions: WorldAction[];
  horizon: Horizon;
  spatial: string[];
} {
  const world = new World(scene, goal, events);
  const rollout = oracleRollout(world, { cache: plans });
  return {
    success: rollout.success,
    initialPlanLength: rollout.initialPlanLength,
    actions: rollout.steps.map((s) => s.action),
    horizon: taskStateHorizon(world.latentState(), rollout),
    spatial: spatialDependencies(world.latentState(), rollout),
  };
}
/**
 * What the goal tells about nodes hidden in G_0 (not in the agent's first view): `hidden`
 * counts the goal facts naming such a node, `revealing` the facts among them that already
 * hold in G_0 and place it (ON/INSIDE its object, ASSEMBLED either part), so they would say
 * where an unseen node is.
 */
export function goalDisclosure(
  scene: SingleRobotScene,
  goal: Goal,
): { hidden: number; revealing: number } {
  const world = new World(scene, goal);
  const visible = world.visibleIds();
  const holds = world.goalProgress();
  let hidden = 0;
  let revealing = 0;
  goal.all.forEach((atom, k) => {
    const named = atomNodeIds(atom).filter((id) => !visible.has(id));
    if (named.length === 0) return;
    hidden++;
    const placed =
      atom.pred === "ON" || atom.pred === "INSIDE"
        ? !visible.has(atom.object)
        : atom.pred === "ASSEMBLED";
    if (holds[k] && placed) revealing++;
  });
  return { hidden, revealing };
}

/**
 * Decoys (Figure 1b's candidate search): closed containers and blockers in G_0 that an optimal
 * plan never opens or moves aside, because they hide nothing it needs. An agent that cannot
 * see inside them has to search them to find that out.
 */
export function decoyNodes(scene: SingleRobotScene, plan: readonly WorldAction[]): string[] {
  const resolved = new Set(
    plan.filter((a) => a.name === "open" || a.name === "move_aside").map((a) => a.args[0]),
  );
  return scene.nodes
    .filter(
      (n) =>
        (n.attrs.open === false || (n.affordances.includes("movable") && !n.attrs.moved_aside)) &&
        !resolved.has(n.id),
    )
    .map((n) => n.id);
}

/** Non-room nodes that no room's view shows in G_0 (behind a closed container or blocker). */
export function occludedNodes(scene: SingleRobotScene, goal: Goal): string[] {
  const seen = new Set<string>();
  for (const room of scene.nodes)
    if (room.type === "room")
      for (const id of new World(
        { ...scene, robot: { ...scene.robot, room: room.id } },
        goal,
      ).visibleIds())
        seen.add(id);
  return scene.nodes.filter((n) => n.type !== "room" && !seen.has(n.id)).map((n) => n.id);
}
