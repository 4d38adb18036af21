/**
 * Public surface of the symbolic world engine (RoboGraph's executable scene graph), shared by
 * the robograph, magma and continual suites.
 *
 * Data model (types.ts): SceneGraph, WorldNode/WorldEdge, Goal/GoalAtom, ActionSchema,
 * WorldAction, EventSchedule/WorldEvent (trigger, rewrites, timing), WorldView.
 * Engine: ACTION_CATALOG (Table 5 as data), World (step, view, goal, latent, clone),
 * WorldState (compact latent state), planOracle (A* optimal plan), oracleRollout (τ* with
 * events and replanning), orderedActionDistance (appendix A), taskStateHorizon (Definition 2).
 * exportPddl writes an instance as a STRIPS domain + problem with the oracle's optimal length.
 */
export { ACTION_CATALOG, catalogFor } from "./catalog.ts";
export { atomHolds, goalHolds, type ResolvedAtom, resolveGoal } from "./goals.ts";
export {
  type OracleRollout,
  oracleRollout,
  orderedActionDistance,
  type RolloutStep,
  type TaskStateHorizon,
  taskStateHorizon,
} from "./oracle.ts";
export { engineActionName, exportPddl, pddlName } from "./pddl-export.ts";
export {
  explainNoPlan,
  type NoPlanReason,
  type OraclePlan,
  PlanCache,
  type PlanOptions,
  planOracle,
  planStillOptimal,
  successors,
} from "./planner.ts";
export { type RandomSceneOptions, randomScene } from "./random-scene.ts";
export { PEN_GOAL, studyScene } from "./sample-scenes.ts";
export { WorldState } from "./state.ts";
export * from "./types.ts";
export { projectView } from "./view.ts";
export { World } from "./world.ts";
