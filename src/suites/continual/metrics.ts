/**
 * Per-episode metrics: success (Eq. 1's c_i: the goal reached within the step budget), the
 * selections by hidden role (Figure 6: optimal = success path, suboptimal = valid detour,
 * invalid), the step at which the goal was reached (the extra-step curve of Figure 7 is read
 * from it, as the authors' summary does) and the authors' grader terms.
 */
import { type EpisodeScore, LonghaulError } from "../../core/index.ts";
import type { ContinualOutcome } from "./environment.ts";
import { grade } from "./grader.ts";

/** Read an outcome's data, or fail naming what is missing. */
export function outcomeData(data: unknown): ContinualOutcome {
  const o = data as Partial<ContinualOutcome> | null;
  if (
    !o ||
    typeof o.reachedGoal !== "boolean" ||
    !Array.isArray(o.decisions) ||
    typeof o.pathLength !== "number"
  )
    throw new LonghaulError("INVALID_INPUT", "continual outcome data is malformed");
  return o as ContinualOutcome;
}

/** Score one episode from its outcome. */
export function scoreOutcome(o: ContinualOutcome): EpisodeScore {
  const count = (role: string) => o.decisions.filter((d) => d.role === role).length;
  const steps = o.decisions.length;
  const successStep = o.reachedGoal ? steps : null;
  const g = grade({
    steps: o.decisions.map((d) => ({
      valid: d.valid,
      action: d.action,
      toState: d.to,
      toDepth: d.toDepth,
    })),
    reachedGoal: o.reachedGoal,
    initialState: o.initialState,
    initialDepth: o.initialDepth,
    finalPredicates: o.finalPredicates,
    goalPredicates: o.goalPredicates,
    referencePaths: o.referencePaths,
    shortestLength: o.pathLength,
    maxGoalDepth: o.maxGoalDepth,
  });
  return {
    success: o.reachedGoal,
    metrics: {
      sr: o.reachedGoal ? 1 : 0,
      steps,
      optimal: count("success_path"),
      suboptimal: count("valid_detour"),
      invalid: count("invalid"),
      malformed: count("malformed"),
      path_length: o.pathLength,
      budget: o.budget,
      success_step: successStep,
      extra_used: successStep === null ? null : successStep - o.pathLength,
      grader_overall: g.overall,
      grader_success: g.success,
      grader_efficiency: g.efficiency,
      grader_path_quality: g.pathQuality,
      grader_progress: g.progress,
      grader_predicate_progress: g.predicateProgress,
      grader_invalid_penalty: g.invalidPenalty,
    },
  };
}
