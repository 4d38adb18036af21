/**
 * One training sample: a logged decision with the task card, the suite's harness (renderer)
 * and the decisions before it. `longhaul export sft` makes samples from a run's traces; an
 * expert-trace generator (e.g. the MAGMA dataset) makes them from its own synthesised steps.
 */
import type { Renderer, TaskCard, Trace, TraceStep } from "../core/index.ts";

/** A decision to learn: what the harness showed before `step`, and `step.action` as the target. */
export interface DecisionSample {
  card: TaskCard;
  renderer: Renderer;
  /** The logged steps before this one, in order (the history the harness renders). */
  before: readonly TraceStep[];
  /** The decision; its action is the target. */
  step: TraceStep & { action: NonNullable<TraceStep["action"]> };
  /** Rows of one group always land in one split (e.g. a scene, or a task definition). */
  group: string;
  family: string;
  /** Where the sample came from, for the manifest and for readers (episode id, task id). */
  source: { episodeId: string; taskId: string };
}

/** Every decision of a trace that has an action (unusable replies are not targets). */
export function* samplesOfTrace(
  trace: Trace,
  renderer: Renderer,
  group: string,
): Generator<DecisionSample> {
  for (const [i, step] of trace.steps.entries()) {
    if (!step.action) continue;
    yield {
      card: trace.card,
      renderer,
      before: trace.steps.slice(0, i),
      step: step as DecisionSample["step"],
      group,
      family: trace.record.family,
      source: { episodeId: trace.episodeId, taskId: trace.taskId },
    };
  }
}
