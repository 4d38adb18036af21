/**
 * Per-episode scores (§4.5) and the aggregate statistics of §5: SR (Eq. 7), GC (Eq. 8: the
 * fraction of the episode's subgoals completed; every stage is a subgoal, an interrupted
 * request counting as X1 and X2 around Y), CR (Eq. 9, on clean/variant pairs), the
 * horizon-balanced single- vs multi-robot difference (Table 4a) and the trace-audit rates
 * (Table 4b).
 */
import {
  type EpisodeOutcome,
  type EpisodeRecord,
  type EpisodeScore,
  LonghaulError,
  type Trace,
} from "../../core/index.ts";
import { mean } from "../../metrics/index.ts";
import type { Label, MagmaOutcome } from "./outcome.ts";
import { BUCKETS, type Condition } from "./types.ts";

/** The scorer: the environment's verdict and label, GC and the audit counts as metrics. */
export function scoreEpisode(outcome: EpisodeOutcome, trace: Trace): EpisodeScore {
  const d = outcome.data as MagmaOutcome | undefined;
  if (!d || typeof d.stages !== "number" || !d.audit)
    throw new LonghaulError("INVALID_INPUT", "magma outcome data is malformed");
  const success = d.success && outcome.success;
  const label: Label | undefined = success
    ? undefined
    : (d.label ?? (trace.record.endedBy === "format" ? "invalid-format" : "no-progress"));
  const mu = d.interventions.find((i) => i.type === "mission_update");
  const score: EpisodeScore = {
    success,
    metrics: {
      success: success ? 1 : 0,
      gc: goalCompletion(d.stagesDone, d.stages, success),
      stages: d.stages,
      stagesDone: d.stagesDone,
      horizon: d.horizon,
      toolCalls: d.toolCalls,
      badCalls: d.badCalls,
      skills: d.skillsSucceeded,
      faults: d.faultsFired,
      auditCalls: d.audit.calls,
      auditAssignmentErrors: d.audit.assignmentErrors,
      auditInterruptionDecisions: d.audit.interruptionDecisions,
      auditInterruptionErrors: d.audit.interruptionErrors,
      auditResumeObligations: d.audit.resumeObligations,
      auditResumeSuccesses: d.audit.resumeSuccesses,
      muLag: mu?.lag ?? null,
      muReached: mu ? (mu.reached ? 1 : 0) : null,
      muRetained: mu?.reached ? (mu.done ? 1 : 0) : null,
      judgeCalls: d.judgeCalls,
      judgeCostUsd: d.judgeCostUsd,
    },
  };
  if (label) score.category = label;
  return score;
}

/** Eq. 8 for one episode: completed subgoals over required subgoals (1 on success). */
export function goalCompletion(done: number, total: number, success: boolean): number {
  if (success) return 1;
  return total > 0 ? Math.min(done, total) / total : 0;
}

/** Success of a record (scored records only). */
export function solved(r: EpisodeRecord): boolean {
  return r.status === "success";
}

/** The pairing key of an episode: its spec and realization (CE and variants share it). */
export function pairKey(r: EpisodeRecord): string {
  return `${r.tags.spec}#${r.tags.realization}#${r.epoch}`;
}

/** Paired outcomes of CE against condition `p` (Figure 3) and CR_p (Eq. 9). */
export function pairedPanel(records: readonly EpisodeRecord[], p: Condition) {
  const clean = new Map<string, boolean>();
  const variant = new Map<string, boolean>();
  for (const r of records) {
    if (r.status === "invalid" || r.status === "missing") continue;
    if (r.tags.condition === "CE") clean.set(pairKey(r), solved(r));
    else if (r.tags.condition === p) variant.set(pairKey(r), solved(r));
  }
  let retained = 0;
  let lost = 0;
  let gained = 0;
  let unsolved = 0;
  for (const [key, v] of variant) {
    const c = clean.get(key);
    if (c === undefined) continue;
    if (c && v) retained++;
    else if (c) lost++;
    else if (v) gained++;
    else unsolved++;
  }
  const pairs = retained + lost + gained + unsolved;
  return {
    pairs,
    retained,
    lost,
    gained,
    unsolved,
    sr: pairs ? (retained + gained) / pairs : Number.NaN,
    cr: retained + lost ? retained / (retained + lost) : Number.NaN,
  };
}

/**
 * Table 4a's Δ_bal: the mean over horizon buckets (where both exist) of multi-robot SR minus
 * single-robot SR, on clean episodes; each bucket weighs the same.
 */
export function balancedMultiSingle(records: readonly EpisodeRecord[]): {
  single: number;
  multi: number;
  delta: number;
  buckets: number;
} {
  const clean = records.filter((r) => r.tags.condition === "CE" && r.status !== "invalid");
  const sr = (rs: EpisodeRecord[]) => mean(rs.map((r) => (solved(r) ? 1 : 0)));
  const single = clean.filter((r) => r.tags.multi === "single");
  const multi = clean.filter((r) => r.tags.multi === "multi");
  const diffs: number[] = [];
  for (const b of BUCKETS) {
    const s = single.filter((r) => r.tags.bucket === b.id);
    const m = multi.filter((r) => r.tags.bucket === b.id);
    if (s.length && m.length) diffs.push(sr(m) - sr(s));
  }
  return { single: sr(single), multi: sr(multi), delta: mean(diffs), buckets: diffs.length };
}

/** Table 4b's rates over multi-robot episodes (variants included). */
export function auditRates(records: readonly EpisodeRecord[]) {
  let calls = 0;
  let assign = 0;
  let decisions = 0;
  let interr = 0;
  let obligations = 0;
  let resumed = 0;
  for (const r of records) {
    if (r.tags.multi !== "multi" || r.status === "invalid") continue;
    const m = r.metrics;
    calls += m.auditCalls ?? 0;
    assign += m.auditAssignmentErrors ?? 0;
    decisions += m.auditInterruptionDecisions ?? 0;
    interr += m.auditInterruptionErrors ?? 0;
    obligations += m.auditResumeObligations ?? 0;
    resumed += m.auditResumeSuccesses ?? 0;
  }
  const rate = (a: number, b: number) => (b ? a / b : Number.NaN);
  return {
    calls,
    assignmentErrorRate: rate(assign, calls),
    interruptionDecisions: decisions,
    interruptionErrorRate: rate(interr, decisions),
    resumeObligations: obligations,
    resumeSuccessRate: rate(resumed, obligations),
  };
}
