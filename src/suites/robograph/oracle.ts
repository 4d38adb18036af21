/**
 * The suite's window on the engine's privileged oracle: optimal plans on the latent state,
 * the ordered action distance of appendix A and scene-level counts for `longhaul stats`.
 */
import {
  type EventSchedule,
  type Goal,
  oracleRollout,
  orderedActionDistance,
  PlanCache,
  planOracle,
  planStillOptimal,
  type SingleRobotScene,
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

/** The ordered action distance C_distance of the world's current latent state. */
export function actionDistance(world: World): number {
  return orderedActionDistance(world.latentState(), world.goalAtoms()).total;
}

/** The oracle rollout τ* of an episode (with its events) and the TSH computed on it. */
export function oracleEpisode(
  scene: SingleRobotScene,
  goal: Goal,
  events: EventSchedule,
): { success: boolean; initialPlanLength: number; actions: WorldAction[]; horizon: Horizon } {
  const world = new World(scene, goal, events);
  const rollout = oracleRollout(world, { cache: plans });
  return {
    success: rollout.success,
    initialPlanLength: rollout.initialPlanLength,
    actions: rollout.steps.map((s) => s.action),
    horizon: taskStateHorizon(world.latentState(), rollout),
  };
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
