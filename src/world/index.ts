/**
 * Public surface of the symbolic world engine (RoboGraph's executable scene graph), shared by
 * the robograph, magma and continual suites.
 *
 * Available now: the data model (types.ts) — SceneGraph, WorldNode/WorldEdge, Goal/GoalAtom,
 * ActionSchema, WorldAction, EventSchedule/WorldEvent (trigger, rewrites, timing), WorldView.
 * Coming, with these names: ACTION_CATALOG (Table 5 schemas as data), class World (step, view,
 * goal, latent snapshot, clone), planOracle (A* optimal plan on the latent state),
 * orderedActionDistance (appendix A), taskStateHorizon (Definition 2) and exportPddl.
 */
export * from "./types.ts";
