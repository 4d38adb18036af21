/**
 * From a played episode to its record: budgets merged layer over layer, generic failure
 * categories, and the suite's scorer applied to the outcome and trace. The session scores a
 * finished episode with `scoreEpisode`; `longhaul rescore` calls the same function on a logged
 * trace, so an unchanged scorer gives an identical record.
 */
import {
  type Budgets,
  type EndReason,
  type EpisodeOutcome,
  type EpisodeRecord,
  EpisodeScore,
  parseOrThrow,
  type Suite,
  type TaskSpec,
  type Trace,
} from "../core/index.ts";

/** Effective budgets: suite defaults, then the task card's, then the run's overrides. */
export function mergeBudgets(...layers: (Budgets | undefined)[]): Budgets {
  const out: Budgets = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {})) {
      if (value !== undefined) (out as Record<string, number>)[key] = value;
    }
  }
  return out;
}

/** The generic failure category for an unsuccessful episode the scorer did not categorise. */
export function genericCategory(endedBy: EndReason, truncated: boolean): string {
  switch (endedBy) {
    case "maxSteps":
    case "maxSimTime":
    case "maxWallMs":
      return "TIME";
    case "maxTokens":
    case "maxCostUsd":
      return "BUDGET";
    case "format":
      return "FORMAT";
    case "error":
      return "ERR";
    default:
      return truncated ? "TIME" : "QUIT";
  }
}

/**
 * Endings the session itself decided, whose generic category no scorer may replace: three
 * unusable replies in a row (FORMAT), a spent token or cost budget (BUDGET), a fault (ERR).
 * A suite sees how its environment was left (RoboGraph: never stopped, so TIME; Transduction:
 * no answer) and would otherwise hide why the episode really ended. Time budgets end in TIME,
 * where a suite's own category may be more precise, so they are not in this list.
 */
const SESSION_ENDINGS: ReadonlySet<EndReason> = new Set([
  "format",
  "maxTokens",
  "maxCostUsd",
  "error",
]);

/** The record fields fixed by play, before any verdict. */
export type RecordBase = Omit<
  EpisodeRecord,
  "status" | "category" | "wallMs" | "metrics" | "error"
>;

/** The verdict part of a record. */
type Verdict = Pick<EpisodeRecord, "status" | "category" | "wallMs" | "metrics" | "error">;

/** A record with its fields in the one order every writer uses (byte-identical logs). */
export function composeRecord(base: RecordBase, verdict: Verdict): EpisodeRecord {
  return {
    episodeId: base.episodeId,
    taskId: base.taskId,
    suite: base.suite,
    family: base.family,
    tags: base.tags,
    epoch: base.epoch,
    agent: base.agent,
    endedBy: base.endedBy,
    steps: base.steps,
    invalidActions: base.invalidActions,
    formatErrors: base.formatErrors,
    ...(base.simTime !== undefined ? { simTime: base.simTime } : {}),
    usage: base.usage,
    status: verdict.status,
    ...(verdict.category !== undefined ? { category: verdict.category } : {}),
    wallMs: verdict.wallMs,
    metrics: verdict.metrics,
    ...(verdict.error !== undefined ? { error: verdict.error } : {}),
    ...(base.stream !== undefined ? { stream: base.stream } : {}),
  };
}

/** The base fields of an existing record. */
export function baseOf(record: EpisodeRecord): RecordBase {
  const { status: _s, category: _c, wallMs: _w, metrics: _m, error: _e, ...base } = record;
  return base;
}

/**
 * An invalid (ERR) record: the episode could not be played or scored. `base.endedBy` says which:
 * "error" when play failed, how play ended when the outcome, closing or scoring failed after it.
 */
export function invalidRecord(base: RecordBase, wallMs: number, error: string): EpisodeRecord {
  return composeRecord(base, { status: "invalid", category: "ERR", wallMs, metrics: {}, error });
}

/** Did the environment truncate the episode (its last step result says so, not terminated)? */
export function truncatedByEnvironment(steps: Trace["steps"]): boolean {
  const last = steps.at(-1)?.result;
  return last?.truncated === true && !last.terminated;
}

/** A played episode's trace before scoring: everything but the score and the final record. */
export type UnscoredTrace = Omit<Trace, "outcome" | "score" | "record">;

/**
 * Score an episode: the suite's verdict on its outcome and trace, as the final record and the
 * complete trace. Throws when the scorer throws or returns a malformed score.
 */
export async function scoreEpisode<P>(
  suite: Suite<P>,
  spec: TaskSpec<P>,
  played: { trace: UnscoredTrace; outcome: EpisodeOutcome; base: RecordBase; wallMs: number },
): Promise<{ record: EpisodeRecord; trace: Trace }> {
  const { trace, outcome, base, wallMs } = played;
  const provisional = composeRecord(base, {
    status: outcome.success ? "success" : "failure",
    wallMs,
    metrics: {},
  });
  const score = parseOrThrow(
    EpisodeScore,
    await suite.score(spec, outcome, { ...trace, outcome, record: provisional }),
    `score of ${base.episodeId}`,
  );
  const generic = genericCategory(base.endedBy, truncatedByEnvironment(trace.steps));
  const category = score.success
    ? undefined
    : SESSION_ENDINGS.has(base.endedBy)
      ? generic
      : (score.category ?? generic);
  const record = composeRecord(base, {
    status: score.success ? "success" : "failure",
    ...(category !== undefined ? { category } : {}),
    wallMs,
    metrics: score.metrics,
  });
  return { record, trace: { ...trace, outcome, score, record } };
}
