/**
 * Per-episode metrics of RoboGraphBench (results section and appendix C), computed from the
 * environment's privileged OutcomeData and the trace's recovery fields. Where the paper gives
 * only a sentence, the formula chosen is stated next to the metric and in docs/robograph.md.
 */
import { z } from "zod";
import type { EpisodeScore, Trace } from "../../core/index.ts";
import { EXPLORATORY_ACTIONS, type OutcomeData, type StepLog } from "./outcome.ts";

/** The recovery block of an appendix B reply, as carried in TraceStep.extra.recovery. */
export const RecoveryField = z.object({
  required: z.boolean(),
  failed_action: z.string().nullable(),
  failed_node_ids: z.array(z.string()),
});
/** The recovery block of an appendix B reply. */
export type RecoveryField = z.infer<typeof RecoveryField>;

/** Failure categories of unsuccessful episodes. */
export type RoboGraphCategory = "PREMATURE" | "TIME";

/** Counts behind F1@RD and Acc@RG, summed over episodes before dividing. */
export interface RecoveryCounts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  groundedCorrect: number;
  groundedTotal: number;
}

const percent = (num: number, den: number): number | null => (den > 0 ? (100 * num) / den : null);

function signature(step: StepLog): string {
  return `${step.action}(${step.nodeIds.join(",")})`;
}

/**
 * RAR numerator (appendix C: "unnecessary actions that repeat a previously attempted action"):
 * an action is redundant when the same action on the same arguments was attempted earlier in
 * the episode and it was not necessary. Necessity is decided by the remaining optimal plan
 * length: an attempt that shortened it (measured on the state its own effect produced, before
 * any intervention fired) was on an optimal path, so the optimal oracle's return walks and
 * re-placements after an intervention are necessary. An injected failure (I1) suppressed an
 * executable action and is never redundant. Logs without plan lengths (the search gave up)
 * fall back to the ordered action distance: necessary when it dropped.
 */
export function countRedundant(steps: readonly StepLog[]): number {
  const seen = new Set<string>();
  let redundant = 0;
  for (const step of steps) {
    if (step.action === "stop") continue;
    const sig = signature(step);
    if (seen.has(sig) && !step.injected && !shortened(step)) redundant++;
    seen.add(sig);
  }
  return redundant;
}

function shortened(step: StepLog): boolean {
  const { planBefore, planAfter } = step;
  if (planBefore != null && planAfter != null) return planAfter < planBefore;
  return step.distanceAfter < step.distanceBefore;
}

/**
 * ADR: the mean, over non-stop steps taken while the goal was still unmet, of the relative
 * reduction of the remaining ordered action distance, max(0, D_t - D_{t+1}) / D_t.
 */
export function actionDistanceReduction(steps: readonly StepLog[]): number | null {
  let sum = 0;
  let n = 0;
  for (const step of steps) {
    if (step.action === "stop" || step.distanceBefore === 0) continue;
    sum += Math.max(0, step.distanceBefore - step.distanceAfter) / step.distanceBefore;
    n++;
  }
  return n > 0 ? (100 * sum) / n : null;
}

function sameNodes(action: string, expected: StepLog, given: readonly string[]): boolean {
  const matches = (i: number, id: string) =>
    expected.nodeIds[i] === id || expected.nodeNames[i] === id;
  if (given.length !== expected.nodeIds.length) return false;
  if (action === "attach") {
    // Order is ignored for attach (appendix B, output schema).
    const used = new Set<number>();
    return given.every((id) => {
      const i = expected.nodeIds.findIndex((_, k) => !used.has(k) && matches(k, id));
      if (i < 0) return false;
      used.add(i);
      return true;
    });
  }
  return given.every((id, i) => matches(i, id));
}

/**
 * Recovery detection and grounding counts. The label of a decision is whether the previous
 * task action failed (precondition, invalid or injected failure); the prediction is the
 * reply's recovery.required. Grounding is judged on detected failures: failed_action must
 * name the previous action and failed_node_ids its nodes (ids or names).
 *
 * Trace steps are joined to environment steps by the environment's step counter when each
 * decision was made (`observation.step`, counted from the results), not by position: unusable
 * replies are trace steps that never reach the environment. Only decisions the environment
 * executed are scored; the previous task action of a decision at environment step t is
 * environment step t - 1.
 */
export function recoveryCounts(outcome: OutcomeData, trace: Trace): RecoveryCounts {
  const counts: RecoveryCounts = {
    tp: 0,
    fp: 0,
    fn: 0,
    tn: 0,
    groundedCorrect: 0,
    groundedTotal: 0,
  };
  const byStep = new Map(outcome.steps.map((s) => [s.step, s]));
  let executed = 0;
  for (const traceStep of trace.steps) {
    // The environment's step counter when this decision was made: the decisions before it that
    // reached the environment (those with a result). It equals `observation.step`, which is
    // not read, so that a trace's observations stay unparsed (core/lazy-json.ts).
    const t = executed;
    if (traceStep.result !== undefined) executed++;
    if (traceStep.formatError !== undefined || !byStep.has(t)) continue;
    const previous = byStep.get(t - 1);
    const field = RecoveryField.safeParse(traceStep.extra?.recovery);
    if (!previous || !field.success) continue;
    const failed = previous.status !== "success";
    const said = field.data.required;
    if (failed && said) counts.tp++;
    else if (!failed && said) counts.fp++;
    else if (failed && !said) counts.fn++;
    else counts.tn++;
    if (failed && said) {
      counts.groundedTotal++;
      if (
        field.data.failed_action === previous.action &&
        sameNodes(previous.action, previous, field.data.failed_node_ids)
      )
        counts.groundedCorrect++;
    }
  }
  return counts;
}

/** F1 of recovery detection from pooled counts, in percent (null without any positive). */
export function f1(counts: Pick<RecoveryCounts, "tp" | "fp" | "fn">): number | null {
  const den = 2 * counts.tp + counts.fp + counts.fn;
  return percent(2 * counts.tp, den);
}

/** Per-episode metrics; rates are percentages, SSAL is in [0, 1]. */
export function episodeMetrics(
  outcome: OutcomeData,
  trace: Trace,
): { success: boolean; category?: RoboGraphCategory; metrics: EpisodeScore["metrics"] } {
  const stopped = outcome.stopStep !== null;
  const success = stopped && outcome.goalAtStop;
  const acts = outcome.steps.filter((s) => s.action !== "stop");
  const ns = acts.length;
  const executable = acts.filter((s) => s.status === "success" || s.injected).length;
  const revealed = new Set<string>();
  for (const s of acts)
    if (s.status === "success" && EXPLORATORY_ACTIONS.has(s.action))
      for (const id of s.revealed) revealed.add(id);
  const relevant = new Set(outcome.relevantHidden);
  const revealedRelevant = [...revealed].filter((id) => relevant.has(id)).length;
  const lo = outcome.oracleLength;
  const triggered = outcome.condition === "base" ? null : outcome.interventions.length > 0;
  const firstTrigger = outcome.interventions[0]?.step;
  const progressDen = outcome.goalTotal - outcome.goalInitial;
  // NGP normalizes by the predicates still unmet in G_0, so initially true facts give no credit.
  const ngp =
    progressDen > 0
      ? 100 * Math.min(1, Math.max(0, (outcome.goalFinal - outcome.goalInitial) / progressDen))
      : 100;
  const rc = recoveryCounts(outcome, trace);
  const answered = rc.tp + rc.fp + rc.fn + rc.tn > 0;
  const metrics: EpisodeScore["metrics"] = {
    sr: success ? 100 : 0,
    ssal: success ? lo / Math.max(lo, ns, 1) : 0,
    ns,
    aer: percent(executable, ns),
    rar: percent(countRedundant(outcome.steps), ns),
    seg: percent(revealedRelevant, relevant.size),
    adr: actionDistanceReduction(outcome.steps),
    ngp,
    triggered: triggered === null ? null : triggered ? 1 : 0,
    irr: triggered ? (success ? 100 : 0) : null,
    latency:
      triggered && success && firstTrigger !== undefined && outcome.stopStep !== null
        ? outcome.stopStep - firstTrigger
        : null,
    term_correct: success ? 100 : 0,
    term_premature: stopped && !success ? 100 : 0,
    term_neither: stopped ? 0 : 100,
    f1_rd: answered ? f1(rc) : null,
    acc_rg: percent(rc.groundedCorrect, rc.groundedTotal),
    rd_tp: answered ? rc.tp : null,
    rd_fp: answered ? rc.fp : null,
    rd_fn: answered ? rc.fn : null,
    rg_correct: answered ? rc.groundedCorrect : null,
    rg_total: answered ? rc.groundedTotal : null,
    oracle_length: lo,
    goal_predicates: outcome.goalTotal,
  };
  const category: RoboGraphCategory | undefined = success
    ? undefined
    : stopped
      ? "PREMATURE"
      : "TIME";
  return category ? { success, category, metrics } : { success, metrics };
}
