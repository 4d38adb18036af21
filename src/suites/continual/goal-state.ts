/**
 * EmbodiedCLBench's goal state (Suite.goalState) for `--memory oracle-state`: the task's goal
 * predicates (the grader's goal_state, the instruction's goal in the authors' vocabulary, e.g.
 * `powered_off(ceiling_light)`), completed when they hold in the current state. The whole goal
 * is stated by the task description of the card, so every predicate is revealed from the start.
 */
import type { GoalState, Json, TaskSpec } from "../../core/index.ts";
import type { ContinualLatent } from "./environment.ts";
import { episodeGraphOf } from "./episode-graph.ts";
import type { ContinualPayload } from "./payload.ts";

/** The goal predicates, remaining and completed, in this latent snapshot. */
export function continualGoalState(latent: Json, spec: TaskSpec<ContinualPayload>): GoalState {
  const holds = new Set((latent as unknown as ContinualLatent).predicates);
  const state: GoalState = { remaining: [], completed: [] };
  for (const goal of episodeGraphOf(spec.payload).goalPredicates)
    (holds.has(goal) ? state.completed : state.remaining).push(goal);
  return state;
}
