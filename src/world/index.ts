/**
 * Public surface of the symbolic world engine (RoboGraph's executable scene graph), shared by
 * the robograph, magma and continual suites.
 *
 * Data model (types.ts): SceneGraph with its robots (RobotSpec; `SceneInput` also takes the
 * single-robot shorthand), WorldNode/WorldEdge, Goal/GoalAtom, WorldAction, EventSchedule /
 * WorldEvent (trigger, rewrites, timing), WorldView. Catalogs (catalog.ts): ActionSchema,
 * Precondition, Effect, Catalog; ROBOGRAPH_CATALOG is Table 5.
 * Engine: World (check / apply / fire, tick for step and time triggers, step for lock-step
 * callers, view per robot), WorldState (compact latent state). RoboGraph's single-robot
 * oracle on Table 5: planOracle (A* optimal plan), oracleRollout (τ* with events and
 * replanning), orderedActionDistance (appendix A), taskStateHorizon (Definition 2); exportPddl
 * writes an instance as a STRIPS domain + problem with the oracle's optimal length.
 */
export { type Failure, successorInto, successorState } from "./actions.ts";
export {
  ActionSchema,
  Catalog,
  CatalogData,
  type CatalogEntry,
  Effect,
  Precondition,
} from "./catalog.ts";
export { atomHolds, atomNodeIds, goalHolds, type ResolvedAtom, resolveGoal } from "./goals.ts";
export {
  type OracleRollout,
  oracleRollout,
  orderedActionDistance,
  type RolloutStep,
  spatialDependencies,
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
export { ACTION_CATALOG, catalogFor, ROBOGRAPH_CATALOG } from "./robograph-catalog.ts";
export { DEPOT_CATALOG, DEPOT_GOAL, depotScene, PEN_GOAL, studyScene } from "./sample-scenes.ts";
export { WorldState } from "./state.ts";
export * from "./types.ts";
export { projectView } from "./view.ts";
export {
  type AppliedAction,
  type CheckedAction,
  type CheckResult,
  World,
  type WorldOptions,
} from "./world.ts";
