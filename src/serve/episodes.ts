/**
 * The episode hub: every episode a server holds open, whoever drives it (a WebSocket, HTTP
 * requests, an MCP client). It opens EpisodeSessions within a capacity, applies decisions,
 * finishes and records episodes in the served run directories, keeps recent results, closes
 * abandoned episodes after an idle TTL, and on shutdown finishes what is open.
 */
import {
  type AccessProfile,
  type Budgets,
  DEFAULT_ACCESS,
  type Decision,
  formatZodError,
  holdJson,
  type Json,
  jsonBytes,
  LonghaulError,
  PRIVILEGED_ACCESS,
  parseAction,
  type TaskSpec,
} from "../core/index.ts";
import {
  describeError,
  type EarlyEnd,
  EpisodeSession,
  type FinishedEpisode,
  type SubmitResult,
} from "../run/index.ts";
import type { ServedRun, ServedRuns } from "./served-runs.ts";
import type { ServedSuite, ServedSuites } from "./served-suites.ts";
import {
  ActionMetadata,
  type EpisodeResult,
  type EpisodeState,
  type ObservationData,
  ServeError,
  type ToolOutcome,
} from "./wire.ts";

/** How an episode is asked for, whichever transport asks. */
export interface OpenRequest {
  suite?: string;
  taskId?: string;
  subset?: string;
  seed?: string | number;
  episodeId?: string;
  access?: string | AccessProfile;
  agent?: string;
}

/** Settings of the hub. */
export interface HubOptions {
  suites: ServedSuites;
  runs: ServedRuns;
  /** Open episodes at once; one more is CAPACITY_REACHED. */
  capacity: number;
  /** Idle milliseconds after which an open episode is finished as abandoned (0: never). */
  ttlMs: number;
  /** Grant privileged access (latent state) to clients that ask for it. */
  allowPrivileged: boolean;
  /** Budget overrides for every episode. */
  budgets?: Budgets;
  /** The trace seed when a client gives none. */
  seed: string;
  maxConsecutiveFormatErrors: number;
  /** Finished episodes whose results stay available (default 10,000). */
  keepFinished?: number;
  /** Told about faults no client is waiting for (a record that could not be written). */
  onError?: (message: string) => void;
}

/** An open episode and what the hub tracks about it. */
export class LiveEpisode {
  /** Sum of the environment's step rewards so far. */
  return = 0;
  lastActivity = performance.now();
  /** Called once when the episode finishes (an EpisodeHold lets the episode go then). */
  readonly onFinish = new Set<() => void>();
  finishing: Promise<FinishedEpisode> | undefined;

  constructor(
    readonly id: string,
    readonly served: ServedSuite,
    readonly session: EpisodeSession,
    readonly run: ServedRun,
  ) {}

  get spec(): TaskSpec {
    return this.session.spec;
  }

  /** The public state: ids, step count and simulated time, never hidden state. */
  state(): EpisodeState {
    const simTime = this.session.observation.simTime;
    return {
      episode_id: this.id,
      step_count: this.session.steps,
      ...(simTime !== undefined ? { sim_time: simTime } : {}),
      done: this.session.ended !== undefined,
      suite: this.spec.suite,
      task_id: this.spec.id,
    };
  }
}

/**
 * A transport's hold on an episode: the live episode until it finishes, then only what
 * `snapshot` kept of it. A WebSocket or an MCP session can outlive its episode by minutes; it
 * must not keep the session, world and trace alive that long.
 */
export class EpisodeHold<T> {
  readonly id: string;
  private current: LiveEpisode | undefined;
  private kept: T | undefined;
  /** Called by the hub when the episode finishes; it holds nothing but `this`. */
  private readonly release = () => {
    this.kept = this.snapshot(this.current as LiveEpisode);
    this.current = undefined;
  };

  constructor(
    episode: LiveEpisode,
    private readonly snapshot: (finished: LiveEpisode) => T,
  ) {
    this.id = episode.id;
    this.current = episode;
    episode.onFinish.add(this.release);
  }

  /** The episode while it runs. */
  get live(): LiveEpisode | undefined {
    return this.current;
  }

  /** What was kept of it once it finished. */
  get final(): T | undefined {
    return this.kept;
  }

  /** Let go of a running episode (its holder closed first). */
  drop(): void {
    this.current?.onFinish.delete(this.release);
    this.current = undefined;
  }
}

/**
 * What the hub keeps of a finished episode for result(), close() and state(): the record and the
 * final public state, never the session (its environment, world and trace are ~35 KB an
 * episode; this is ~1 KB).
 */
export interface FinishedEntry {
  readonly record: FinishedEpisode["record"];
  readonly state: EpisodeState;
  /** The return: the sum of the environment's step rewards. */
  readonly return: number;
}

/** What one step did, for the transports to answer with. */
export interface StepOutcome {
  episode: LiveEpisode;
  submit: SubmitResult;
  /** Set when the step ended the episode. */
  finished?: FinishedEpisode;
}

/**
 * A step's action as a client sent it (an Action with optional `metadata`) as a decision. A
 * malformed action is a format error (logged and counted, never thrown); only a value that is
 * not an object or bad metadata is a VALIDATION_ERROR.
 */
export function decisionOf(value: unknown, path = "action"): Decision {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new ServeError("VALIDATION_ERROR", "the action must be a JSON object", path);
  }
  const { metadata, ...rest } = value as Record<string, unknown>;
  let extras: Pick<Decision, "note" | "extra"> = {};
  if (metadata !== undefined) {
    const meta = ActionMetadata.safeParse(metadata);
    if (!meta.success) {
      throw new ServeError(
        "VALIDATION_ERROR",
        `invalid action metadata: ${formatZodError(meta.error)}`,
        `${path}.metadata`,
      );
    }
    extras = {
      ...(meta.data.note !== undefined ? { note: meta.data.note } : {}),
      ...(meta.data.extra !== undefined ? { extra: meta.data.extra } : {}),
    };
  }
  const action = parseAction(rest);
  if (action.success) return { action: action.data, ...extras };
  return {
    formatError: `malformed action: ${formatZodError(action.error)}`,
    raw: JSON.stringify(rest),
    ...extras,
  };
}

/** The access profile a request names: a level ("observe", "privileged", or a suite's) or in full. */
export function accessOf(access: string | AccessProfile | undefined): AccessProfile {
  if (access === undefined || access === DEFAULT_ACCESS.level) return DEFAULT_ACCESS;
  if (access === PRIVILEGED_ACCESS.level) return PRIVILEGED_ACCESS;
  if (typeof access === "string") return { level: access, privileged: false, grants: [] };
  return access;
}

/** The open episodes of one server. */
export class EpisodeHub {
  private readonly live = new Map<string, LiveEpisode>();
  private readonly finished = new Map<string, FinishedEntry>();
  private opening = 0;
  /** Records being written. */
  private readonly recording = new Set<Promise<unknown>>();
  private closing = false;
  private readonly reaper: NodeJS.Timeout | undefined;

  constructor(private readonly options: HubOptions) {
    if (options.ttlMs > 0) {
      const every = Math.min(Math.max(options.ttlMs / 4, 25), 30_000);
      this.reaper = setInterval(() => this.reap(), every).unref();
    }
  }

  /** Open episodes right now. */
  get openCount(): number {
    return this.live.size;
  }

  /** The served suites' ids. */
  get suiteIds(): string[] {
    return this.options.suites.ids;
  }

  get capacity(): number {
    return this.options.capacity;
  }

  /**
   * Open an episode. Errors: CAPACITY_REACHED, SHUTTING_DOWN, FORBIDDEN (privileged access
   * without --allow-privileged), NOT_FOUND (suite, subset or task), CONFLICT (episode id taken),
   * FACTORY_ERROR (the environment could not be made: the episode is recorded as invalid).
   */
  async open(request: OpenRequest): Promise<LiveEpisode> {
    if (this.closing) throw new ServeError("SHUTTING_DOWN", "the server is shutting down");
    if (this.live.size + this.opening >= this.options.capacity) {
      throw new ServeError(
        "CAPACITY_REACHED",
        `${this.options.capacity} episodes are open, the server's capacity; finish or close one`,
      );
    }
    const access = accessOf(request.access);
    if (access.privileged && !this.options.allowPrivileged) {
      throw new ServeError(
        "FORBIDDEN",
        "privileged access needs a server started with --allow-privileged",
        "access",
      );
    }
    const { suites, runs } = this.options;
    const served = suites.get(request.suite);
    const seed = request.seed !== undefined ? String(request.seed) : undefined;
    const spec = suites.task(served, {
      ...(request.taskId !== undefined ? { taskId: request.taskId } : {}),
      ...(request.subset !== undefined ? { subset: request.subset } : {}),
      ...(seed !== undefined ? { seed } : {}),
    });
    this.opening++;
    try {
      const run = await runs.runFor(served.suite, served.specs, access);
      const wanted = request.episodeId;
      const taken = wanted !== undefined && (this.live.has(wanted) || this.finished.has(wanted));
      const reserved = taken ? undefined : run.reserve(spec.id, wanted);
      if (!reserved) {
        throw new ServeError("CONFLICT", `episode id "${wanted}" is already used`, "episode_id");
      }
      const session = await EpisodeSession.open({
        suite: served.suite,
        spec,
        agent: request.agent ?? "client",
        epoch: reserved.epoch,
        episodeId: reserved.episodeId,
        access,
        ...(this.options.budgets ? { budgets: this.options.budgets } : {}),
        seed: seed ?? this.options.seed,
        maxConsecutiveFormatErrors: this.options.maxConsecutiveFormatErrors,
      });
      const episode = new LiveEpisode(reserved.episodeId, served, session, run);
      this.live.set(episode.id, episode);
      if (session.ended) {
        const done = await this.finish(episode);
        throw new ServeError(
          "FACTORY_ERROR",
          `the environment of ${spec.id} could not start: ${done.record.error ?? "unknown error"}`,
        );
      }
      // The wall-clock budget can end an episode while its client thinks.
      session.signal.addEventListener("abort", () => void this.finish(episode), { once: true });
      return episode;
    } finally {
      this.opening--;
    }
  }

  /** The open episode `id`; a finished one is a CONFLICT, an unknown one NOT_FOUND. */
  get(id: string): LiveEpisode {
    const episode = this.live.get(id);
    if (episode) return episode;
    if (this.finished.has(id)) throw new ServeError("CONFLICT", `episode ${id} has ended`);
    throw new ServeError("NOT_FOUND", `no episode ${id} is open on this server`);
  }

  /** The public state of episode `id`, open or recently finished; NOT_FOUND otherwise. */
  state(id: string): EpisodeState {
    const episode = this.live.get(id) ?? this.finished.get(id);
    if (!episode) throw new ServeError("NOT_FOUND", `no episode ${id} on this server`);
    return episode instanceof LiveEpisode ? episode.state() : episode.state;
  }

  /** What the hub keeps of the finished episode `id` (undefined when open or unknown). */
  kept(id: string): FinishedEntry | undefined {
    return this.finished.get(id);
  }

  /** Apply one decision; an episode that ends is finished and recorded before this returns. */
  async step(episode: LiveEpisode, decision: Decision): Promise<StepOutcome> {
    episode.lastActivity = performance.now();
    let submit: SubmitResult;
    try {
      submit = await episode.session.submit(decision);
    } catch (e) {
      if (e instanceof LonghaulError && e.code === "CONFLICT") {
        throw new ServeError("CONFLICT", e.message);
      }
      // The environment itself failed: the episode ends invalid (ERR) and is recorded.
      await this.finish(episode, { endedBy: "error", error: describeError(e) });
      throw new ServeError("EXECUTION_ERROR", `the environment failed: ${describeError(e)}`);
    }
    episode.return += submit.result?.reward ?? 0;
    if (!submit.ended) return { episode, submit };
    return { episode, submit, finished: await this.finish(episode) };
  }

  /**
   * Finish an episode (early, when it has not ended: abandoned by default) and keep its result;
   * its record and trace are written in the background (shutdown() waits for them). Idempotent.
   */
  finish(
    episode: LiveEpisode,
    early: EarlyEnd = { endedBy: "abandoned" },
  ): Promise<FinishedEpisode> {
    episode.finishing ??= (async () => {
      const done = await episode.session.finish(early);
      // The client gets its answer without waiting for the disk; shutdown() waits for it.
      const recording = episode.run
        .record(done)
        .catch((e) => this.options.onError?.(`could not record ${episode.id}: ${describeError(e)}`))
        .finally(() => this.recording.delete(recording));
      this.recording.add(recording);
      this.live.delete(episode.id);
      this.finished.set(episode.id, keptEntry(done.record, episode.state(), episode.return));
      const keep = this.options.keepFinished ?? 10_000;
      for (const id of this.finished.keys()) {
        if (this.finished.size <= keep) break;
        this.finished.delete(id);
      }
      for (const release of episode.onFinish) release();
      return done;
    })();
    return episode.finishing;
  }

  /** Finish the open episode `id` now (DELETE /episodes/{id}); a finished one's record as is. */
  async close(id: string): Promise<FinishedEpisode["record"]> {
    const kept = this.finished.get(id);
    if (kept) return kept.record;
    return (await this.finish(this.get(id))).record;
  }

  /** The return so far, and once done the verdict and the record. */
  result(id: string): EpisodeResult {
    const kept = this.finished.get(id);
    const episode = kept ?? this.live.get(id);
    if (!episode) throw new ServeError("NOT_FOUND", `no episode ${id} on this server`);
    const environment = episode.return;
    if (!kept)
      return { episode_id: id, done: false, reward: environment, components: { environment } };
    const { record } = kept;
    return {
      episode_id: id,
      done: true,
      reward: environment,
      components: { environment, success: record.status === "success" ? 1 : 0 },
      metrics: record.metrics,
      record,
    };
  }

  /** The latent state of a privileged episode (FORBIDDEN otherwise). */
  latent(episode: LiveEpisode): Json | null {
    if (!episode.session.access.privileged) {
      throw new ServeError("FORBIDDEN", `episode ${episode.id} was not granted privileged access`);
    }
    return episode.session.latent() ?? null;
  }

  /** The answer to a reset or a step in OpenEnv's shape. */
  observationData(episode: LiveEpisode, outcome?: StepOutcome): ObservationData {
    const { session } = episode;
    const result = outcome?.submit.result;
    const ended = session.ended;
    const invalid = result?.info.invalid;
    const formatError = outcome?.submit.step.formatError;
    const verdict = outcome?.finished?.record;
    return {
      observation: outcome?.submit.observation ?? session.observation,
      reward: result ? result.reward : null,
      done: ended !== undefined,
      metadata: {
        episode_id: episode.id,
        step_count: session.steps,
        terminated: result?.terminated ?? false,
        truncated: result?.truncated ?? false,
        ...(ended ? { ended_by: ended.endedBy } : {}),
        ...(invalid ? { invalid } : {}),
        ...(formatError !== undefined ? { format_error: formatError } : {}),
        ...(outcome ? {} : { card: session.card }),
        ...(verdict ? { result: verdictOf(verdict) } : {}),
      },
    };
  }

  /**
   * observationData as JSON bytes, the observation's bytes (the ones its trace keeps) spliced in
   * rather than serialised again; as a whole WebSocket message `{type: "observation", data}`
   * when `message` is set.
   */
  observationJson(episode: LiveEpisode, outcome?: StepOutcome, message = false): Buffer {
    const { observation: _, ...rest } = this.observationData(episode, outcome);
    return Buffer.concat([
      message ? OBSERVATION_MESSAGE_HEAD : OBSERVATION_DATA_HEAD,
      episode.session.observationJson,
      Buffer.from(`,${JSON.stringify(rest).slice(1)}${message ? "}" : ""}`),
    ]);
  }

  /** The structured content of an MCP tool result. */
  toolOutcome(episode: LiveEpisode, outcome?: StepOutcome): ToolOutcome {
    const data = this.observationData(episode, outcome);
    const { ended_by, invalid, format_error, result, step_count } = data.metadata;
    return {
      episode_id: episode.id,
      step_count,
      observation: data.observation,
      reward: data.reward,
      done: data.done,
      ...(ended_by !== undefined ? { ended_by } : {}),
      ...(invalid ? { invalid } : {}),
      ...(format_error !== undefined ? { format_error } : {}),
      ...(result ? { result } : {}),
    };
  }

  /** Stop taking episodes, finish every open one as abandoned and close the run directories. */
  async shutdown(): Promise<void> {
    this.closing = true;
    clearInterval(this.reaper);
    await Promise.all([...this.live.values()].map((e) => this.finish(e)));
    while (this.recording.size > 0) await Promise.all(this.recording);
    await this.options.runs.close();
  }

  /** Finish episodes idle for longer than the TTL. */
  private reap(): void {
    const cutoff = performance.now() - this.options.ttlMs;
    for (const episode of this.live.values()) {
      if (episode.lastActivity < cutoff && !episode.session.ended) void this.finish(episode);
    }
  }
}

/**
 * What the hub keeps of a finished episode: its record and state as JSON bytes, parsed when read
 * (see core/lazy-json.ts). Up to `keepFinished` of them stay for hours; as objects (~30 each)
 * every full GC of the server would mark them.
 */
function keptEntry(
  record: FinishedEpisode["record"],
  state: EpisodeState,
  episodeReturn: number,
): FinishedEntry {
  const entry = { return: episodeReturn } as FinishedEntry;
  holdJson(entry, "record", jsonBytes(record));
  holdJson(entry, "state", jsonBytes(state));
  return entry;
}

/** How observation data starts, bare and as a WebSocket message; the observation follows. */
const OBSERVATION_DATA_HEAD = Buffer.from('{"observation":');
const OBSERVATION_MESSAGE_HEAD = Buffer.from('{"type":"observation","data":{"observation":');

/** The public verdict of a finished episode's record. */
function verdictOf(record: FinishedEpisode["record"]) {
  return {
    status: record.status,
    ...(record.category !== undefined ? { category: record.category } : {}),
    metrics: record.metrics,
  };
}
