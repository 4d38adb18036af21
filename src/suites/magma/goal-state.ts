/**
 * MAGMA's goal state (Suite.goalState) for `--memory oracle-state` (seed 000, §5.1: "an
 * oracle-provided task-state description with lists of remaining and completed goals ... only
 * revealed goals are included"). One goal per stage of the mission script (the subgoals GC
 * counts, §4.5), worded with the user's own words, as soon as the agent has been told it:
 * - a stage opened by a user instruction, once that instruction has been released;
 * - an announced continuation one stage early: the resumption X2 of "stop X, do Y, then
 *   continue" once Y is released, and the postponed Y of "when you are done, do Y" once its
 *   announcement is. So an interruption X1 -> Y -> X2 shows Y, then X2, remaining;
 * - a report of completion (no words of its own), once it is due.
 * A stage is completed once the environment has moved past it (or completed the last one).
 * Mission updates (MU) restate a rule before the request that relies on it (mission-builder):
 * they appear as their own goal to acknowledge, and no goal revealed earlier changes.
 */
import type { GoalState, Json, TaskSpec } from "../../core/index.ts";
import type { MagmaLatent } from "./environment.ts";
import type { MagmaPayload, Stage } from "./types.ts";

/** The revealed stages' goals, remaining and completed, in this latent snapshot. */
export function magmaGoalState(latent: Json, spec: TaskSpec<MagmaPayload>): GoalState {
  const l = latent as unknown as MagmaLatent;
  const stages = spec.payload.stages;
  const state: GoalState = { remaining: [], completed: [] };
  for (let k = 0; k < stages.length; k++) {
    if (!revealed(stages, k, l.stage)) continue;
    const done = k < l.stage || (k === l.stage && l.stageDone);
    (done ? state.completed : state.remaining).push(goalText(stages, k, done));
  }
  return state;
}

/** Whether stage `k` has been told to the agent while stage `current` runs. */
function revealed(stages: readonly Stage[], k: number, current: number): boolean {
  if (k <= current) return true;
  const stage = stages[k] as Stage;
  // An instructionless continuation right after the current stage was announced by it.
  return (
    k === current + 1 &&
    stage.instruction === undefined &&
    (stage.split === "after" || stage.interrupts !== undefined)
  );
}

/** The goal of stage `k` as one line: what to do, then the user's words in quotes. */
function goalText(stages: readonly Stage[], k: number, done: boolean): string {
  const stage = stages[k] as Stage;
  const words = `"${wordsOf(stages, k)}"`;
  if (stage.split === "before")
    return done ? `Do (until the interruption): ${words}` : `Do: ${words}`;
  if (stage.split === "after") return `Resume: ${words}`;
  if (stage.type === "act") return `Do: ${words}`;
  if (stage.type === "answer") return `Reply: ${words}`;
  if (stage.instruction === undefined) return `Report completion: ${words}`;
  return `Acknowledge: ${words}`;
}

/**
 * The user's words a stage answers to: its instruction; for a resumption, the interrupted
 * request's; for the postponed Y, its announcement; for a report, the work it reports on.
 */
function wordsOf(stages: readonly Stage[], k: number): string {
  const stage = stages[k] as Stage;
  if (stage.split === "after") {
    const origin = stages.findIndex((s) => s.id === stage.needs?.[0]);
    if (origin >= 0 && origin < k) return wordsOf(stages, origin);
  }
  if (stage.instruction !== undefined) return stage.instruction;
  const previous = stages[k - 1];
  if (!previous) return "";
  if (stage.interrupts !== undefined && previous.instruction !== undefined)
    return previous.instruction;
  return wordsOf(stages, k - 1);
}
