/**
 * EpisodeSession: one episode, played by any driver. Open it, read its card and first
 * observation, submit one decision at a time, finish it for the record and trace. The CLI
 * runner's agent loop, a server whose client decides each step, and a queue worker all drive
 * episodes through this object; none of them needs an Agent. Budgets, the format-error policy
 * and recording are the layers of ./layers.ts, scoring is ./scoring.ts.
 *
 * Imports only src/core, so a browser can play an episode too.
 */
import {
  type AccessProfile,
  type Budgets,
  copyJson,
  DEFAULT_ACCESS,
  type Decision,
  type EndReason,
  type Environment,
  type EpisodeOutcome,
  type EpisodeRecord,
  emptyUsage,
  GOAL_STATE_GRANT,
  type GoalState,
  type Json,
  LonghaulError,
  type Observation,
  type StepResult,
  type StreamPosition,
  type Suite,
  type TaskCard,
  type TaskSpec,
  type Trace,
  type TraceStep,
} from "../core/index.ts";
import {
  type EpisodeEnd,
  type EpisodeLayer,
  type Recorder,
  turnOf,
  wrapEnvironment,
} from "./layers.ts";
import { invalidRecord, mergeBudgets, type RecordBase, scoreEpisode } from "./scoring.ts";

/** Everything that identifies and limits one episode. */
export interface SessionOptions<P = unknown> {
  suite: Suite<P>;
  spec: TaskSpec<P>;
  /** Who plays, as the record names it: an agent id, or a driver's name for an outside client. */
  agent: string;
  /** Default 0. */
  epoch?: number;
  /** Default `<task-id>@<epoch>`. */
  episodeId?: string;
  /** Default DEFAULT_ACCESS (observation only). */
  access?: AccessProfile;
  /** Overrides merged over the suite's and the task card's budgets. */
  budgets?: Budgets;
  /** The run seed, recorded in the trace. Default "0". */
  seed?: string;
  /** Unusable outputs in a row that end the episode (FORMAT). Default 3. */
  maxConsecutiveFormatErrors?: number;
  /** Aborting it makes `signal` abort too (the driver then closes or finishes the session). */
  signal?: AbortSignal;
  /** Recorded on the record when the episode belongs to a stream. */
  stream?: StreamPosition;
}

/** What one submitted decision did. */
export interface SubmitResult {
  /** The decision as logged. */
  step: TraceStep;
  /** The environment's result; absent when the decision did not run (unusable, or over budget). */
  result?: StepResult;
  /** What the agent sees next: after unusable output, the same observation with a format-error event. */
  observation: Observation;
  /** Set once the episode has ended (then call finish()). */
  ended?: EpisodeEnd;
}

/** How a driver ends an episode early in finish(). */
export type EarlyEnd = { endedBy: "abandoned" } | { endedBy: "error"; error: string };

/** A finished episode: its record, and its trace unless the environment could not be made. */
export interface FinishedEpisode {
  record: EpisodeRecord;
  trace?: Trace;
}

/** Thrown into the session's signal when the wall-clock budget runs out. */
export class WallBudgetExceeded extends Error {
  constructor() {
    super("wall-clock budget exhausted");
    this.name = "WallBudgetExceeded";
  }
}

/** One episode of one task, driven one decision at a time. */
export class EpisodeSession<P = unknown> {
  readonly episodeId: string;
  readonly epoch: number;
  readonly access: AccessProfile;
  /** Aborts when the wall-clock budget runs out or the driver's signal aborts. */
  readonly signal: AbortSignal;
  private readonly abort = new AbortController();
  private readonly startedAt = performance.now();
  private env: Environment | undefined;
  private layer: EpisodeLayer | undefined;
  private recorder: Recorder | undefined;
  private cardValue: TaskCard | undefined;
  private current: Observation | undefined;
  private ending: EpisodeEnd | undefined;
  private startError: string | undefined;
  private busy = false;
  private finished: Promise<FinishedEpisode> | undefined;
  private closed: Promise<void> | undefined;
  private readonly forwardAbort: () => void;

  private constructor(private readonly options: SessionOptions<P>) {
    this.epoch = options.epoch ?? 0;
    this.episodeId = options.episodeId ?? `${options.spec.id}@${this.epoch}`;
    this.access = options.access ?? DEFAULT_ACCESS;
    this.signal = this.abort.signal;
    this.forwardAbort = () => this.abort.abort(options.signal?.reason);
    if (options.signal?.aborted) this.forwardAbort();
    options.signal?.addEventListener("abort", this.forwardAbort, { once: true });
  }

  /**
   * Make the environment, read its card and reset it. Never throws for a faulty environment:
   * the session then starts ended (`ended.endedBy === "error"`) and finish() records why.
   */
  static async open<P>(options: SessionOptions<P>): Promise<EpisodeSession<P>> {
    const limit = options.maxConsecutiveFormatErrors ?? 3;
    if (!Number.isInteger(limit) || limit < 1) {
      throw new LonghaulError(
        "USAGE",
        `maxConsecutiveFormatErrors must be a positive integer, got ${limit}`,
      );
    }
    const session = new EpisodeSession(options);
    await session.start(limit);
    return session;
  }

  private async start(maxConsecutiveFormatErrors: number): Promise<void> {
    const { suite, spec } = this.options;
    try {
      this.env = await suite.make(spec, {
        access: this.access,
        budgets: mergeBudgets(suite.budgets, this.options.budgets),
      });
      const described = this.env.describe();
      const budgets = mergeBudgets(suite.budgets, described.budgets, this.options.budgets);
      this.cardValue = { ...described, budgets, access: this.access };
      const { layer, recorder } = wrapEnvironment(this.env, {
        budgets,
        maxConsecutiveFormatErrors,
        elapsedMs: () => this.wallMs(),
        onWallExpired: () => this.end({ endedBy: "maxWallMs", truncated: false }),
      });
      this.layer = layer;
      this.recorder = recorder;
      const first = await layer.reset();
      this.current = first.observation;
      if (first.end) this.end(first.end);
    } catch (e) {
      this.startError = describeError(e);
      this.end({ endedBy: "error", truncated: false });
    }
  }

  /** The task card as the agent is told it (merged budgets, granted access). */
  get card(): TaskCard {
    if (!this.cardValue) throw this.notStarted();
    return this.cardValue;
  }

  /** The observation the agent decides on next. */
  get observation(): Observation {
    if (!this.current) throw this.notStarted();
    return this.current;
  }

  /** The JSON of `observation`, as the trace keeps it (a server answers with these bytes). */
  get observationJson(): Uint8Array {
    const json = this.recorder?.presentedJson;
    if (!json) throw this.notStarted();
    return json;
  }

  /** The compiled task. */
  get spec(): TaskSpec<P> {
    return this.options.spec;
  }

  /** Set once the episode has ended, with how. */
  get ended(): EpisodeEnd | undefined {
    return this.ending;
  }

  /** Decisions submitted so far. */
  get steps(): number {
    return this.recorder?.recording.steps.length ?? 0;
  }

  /** Milliseconds since the session was opened. */
  wallMs(): number {
    return performance.now() - this.startedAt;
  }

  /**
   * A deep JSON copy of the privileged latent state (each call a fresh one), or undefined when
   * the environment exposes none. Only for sessions opened with privileged access.
   */
  latent(): Json | undefined {
    if (!this.access.privileged) {
      throw new LonghaulError("USAGE", `access "${this.access.level}" may not read latent state`);
    }
    const value = this.env?.latent?.();
    return value === undefined ? undefined : copyJson(value);
  }

  /** True when the access grants `goal-state` and the suite defines Suite.goalState. */
  get grantsGoalState(): boolean {
    return (
      this.access.grants.includes(GOAL_STATE_GRANT) && this.options.suite.goalState !== undefined
    );
  }

  /**
   * The goals revealed so far, remaining and completed (Suite.goalState over the latent state),
   * or undefined when the environment exposes no latent state. Only for sessions whose access
   * grants `goal-state`.
   */
  goalState(): GoalState | undefined {
    if (!this.grantsGoalState) {
      throw new LonghaulError("USAGE", `access "${this.access.level}" may not read the goal state`);
    }
    const latent = this.env?.latent?.();
    if (latent === undefined) return undefined;
    const { suite, spec } = this.options;
    return copyJson(
      (suite.goalState as NonNullable<Suite<P>["goalState"]>)(copyJson(latent), spec),
    );
  }

  /**
   * Apply one decision (its action is validated here: malformed output is a format error, never
   * an exception). Throws only when the session is not accepting decisions: not started, already
   * ended, or another decision still being applied.
   */
  async submit(decision: Decision): Promise<SubmitResult> {
    if (this.ending) {
      throw new LonghaulError(
        "CONFLICT",
        `episode ${this.episodeId} has ended (${this.ending.endedBy})`,
      );
    }
    if (this.busy) {
      throw new LonghaulError("CONFLICT", `episode ${this.episodeId} is still applying a decision`);
    }
    const layer = this.layer as EpisodeLayer;
    this.busy = true;
    try {
      const out = await layer.step(turnOf(decision));
      this.current = out.observation;
      if (out.end) this.end(out.end);
      const steps = (this.recorder as Recorder).recording.steps;
      return {
        step: steps.at(-1) as TraceStep,
        ...(out.result ? { result: out.result } : {}),
        observation: out.observation,
        ...(this.ending ? { ended: this.ending } : {}),
      };
    } finally {
      this.busy = false;
    }
  }

  /**
   * End the episode (early with `reason`, when it has not ended yet), close the environment and
   * score it. Scorer and outcome faults make the record invalid (ERR); calling finish() again
   * returns the same result.
   */
  finish(reason?: EarlyEnd): Promise<FinishedEpisode> {
    this.finished ??= this.score(reason);
    return this.finished;
  }

  /**
   * Close the environment without a record (the driver discards the episode). Idempotent;
   * rejects when the environment's close() throws.
   */
  close(): Promise<void> {
    this.closed ??= this.release();
    return this.closed;
  }

  private end(ending: EpisodeEnd): void {
    if (this.ending) return;
    this.ending = ending;
    if (ending.endedBy === "maxWallMs") this.abort.abort(new WallBudgetExceeded());
  }

  private async release(): Promise<void> {
    this.options.signal?.removeEventListener("abort", this.forwardAbort);
    this.end({ endedBy: "abandoned", truncated: false });
    await (this.layer ? this.layer.close() : this.env?.close?.());
  }

  private async score(reason: EarlyEnd | undefined): Promise<FinishedEpisode> {
    let error = this.startError;
    if (!this.ending) {
      this.end({ endedBy: reason?.endedBy ?? "abandoned", truncated: false });
      if (reason?.endedBy === "error") error = reason.error;
    }
    // The outcome is read before the environment is closed; either one failing makes it ERR.
    let outcome: EpisodeOutcome | undefined;
    if (this.env && error === undefined) {
      try {
        outcome = await this.env.outcome();
      } catch (e) {
        error = describeError(e);
      }
    }
    try {
      await this.close();
    } catch (e) {
      error ??= `closing the environment failed: ${describeError(e)}`;
    }
    const { suite, spec } = this.options;
    const rec = this.recorder?.recording;
    const base: RecordBase = {
      episodeId: this.episodeId,
      taskId: spec.id,
      suite: suite.id,
      family: spec.family,
      tags: spec.tags,
      epoch: this.epoch,
      agent: this.options.agent,
      endedBy: (this.ending as EpisodeEnd).endedBy as EndReason,
      steps: rec?.steps.length ?? 0,
      invalidActions: rec?.invalidActions ?? 0,
      formatErrors: rec?.formatErrors ?? 0,
      ...(rec?.final?.simTime !== undefined ? { simTime: rec.final.simTime } : {}),
      usage: rec?.usage ?? emptyUsage(),
      ...(this.options.stream ? { stream: this.options.stream } : {}),
    };
    const trace = this.cardValue && {
      episodeId: this.episodeId,
      taskId: spec.id,
      suite: suite.id,
      seed: this.options.seed ?? "0",
      card: this.cardValue,
      steps: rec?.steps ?? [],
      ...(rec?.final ? { final: rec.final } : {}),
    };
    // An invalid episode's trace keeps the outcome it has, so `longhaul rescore` can score it
    // once a failing scorer is fixed.
    const invalid = (message: string): FinishedEpisode => {
      const record = invalidRecord(base, this.wallMs(), message);
      const kept = trace && { ...trace, ...(outcome ? { outcome } : {}), record };
      return { record, ...(kept ? { trace: kept } : {}) };
    };
    if (error !== undefined || !trace || !outcome) return invalid(error ?? "episode did not start");
    try {
      return await scoreEpisode(suite, spec, { trace, outcome, base, wallMs: this.wallMs() });
    } catch (e) {
      return invalid(describeError(e));
    }
  }

  private notStarted(): LonghaulError {
    return new LonghaulError(
      "RUNTIME",
      `episode ${this.episodeId} did not start: ${this.startError ?? "unknown error"}`,
    );
  }
}

/** A one-line description of a thrown value for the record. */
export function describeError(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
