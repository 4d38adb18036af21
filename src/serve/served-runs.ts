/**
 * Where served episodes are recorded: one run directory per suite and access level under the
 * server's `--out`, written exactly like `longhaul run`'s (run.json, episodes.jsonl, traces), so
 * `report`, `compare`, `rescore` and the viewer read served episodes too.
 *
 * A served run's identity: the suite (id, version, hash of its default compile), no selection
 * (any task may be played), one epoch, the agent `client` (whoever connects; each record names
 * the client's own agent label), the server's seed, the access profile, the budgets and the
 * format-error limit. `planned` counts the episodes recorded so far. A server restarted with the
 * same settings and `--out` appends to the same runs; other settings are a usage error.
 */
import { join } from "node:path";
import {
  type AccessProfile,
  type Budgets,
  DEFAULT_ACCESS,
  type EpisodeRecord,
  type Suite,
  suiteHash,
  type TaskSpec,
} from "../core/index.ts";
import {
  EpisodeLog,
  openRunDirectory,
  type RunHeader,
  safeFileName,
  writeHeader,
  writeTrace,
} from "../log/index.ts";
import { type FinishedEpisode, LONGHAUL_VERSION, mergeBudgets } from "../run/index.ts";

/** The agent every served run names: the clients, whoever they are. */
export const SERVED_AGENT = "client";

/** Settings shared by every served run of one server. */
export interface ServedRunSettings {
  outDir: string;
  seed: string;
  /** The server's budget overrides, merged over each suite's. */
  budgets?: Budgets;
  maxConsecutiveFormatErrors: number;
  /** Open episodes at once (recorded as the run's concurrency; not part of its identity). */
  capacity: number;
  /** The server's command line. */
  command: string[];
}

/** Header writes are coalesced to one per this many milliseconds. */
const HEADER_DEBOUNCE_MS = 1000;

/** One served run directory: appends finished episodes and numbers each task's episodes. */
export class ServedRun {
  private readonly recorded: Set<string>;
  /** Episode ids taken by this process (open or finished), beside the recorded ones. */
  private readonly taken = new Set<string>();
  private readonly epochs = new Map<string, number>();
  private headerTimer: NodeJS.Timeout | undefined;
  private headerWrite: Promise<void> = Promise.resolve();

  private constructor(
    readonly dir: string,
    private header: RunHeader,
    private readonly log: EpisodeLog,
    recordedIds: Iterable<string>,
    recordedTasks: Iterable<[string, number]>,
  ) {
    this.recorded = new Set(recordedIds);
    for (const [task, epoch] of recordedTasks) {
      this.epochs.set(task, Math.max(this.epochs.get(task) ?? 0, epoch + 1));
    }
  }

  /** Start or resume the run directory `dir` for `suite` under `settings`. */
  static async open(
    dir: string,
    suite: Suite,
    specs: TaskSpec[],
    access: AccessProfile,
    settings: ServedRunSettings,
  ): Promise<ServedRun> {
    const { header, kept } = await openRunDirectory(dir, {
      command: settings.command,
      config: {
        epochs: 1,
        concurrency: settings.capacity,
        retryErrors: false,
        maxConsecutiveFormatErrors: settings.maxConsecutiveFormatErrors,
      },
      versions: { longhaul: LONGHAUL_VERSION, node: process.version },
      seed: settings.seed,
      suite: { id: suite.id, version: suite.version, hash: suiteHash(suite, specs) },
      agent: { id: SERVED_AGENT, config: {} },
      access,
      budgets: mergeBudgets(suite.budgets, settings.budgets),
      planned: 0,
    });
    const records = [...kept.values()];
    const run = new ServedRun(
      dir,
      { ...header, planned: records.length },
      await EpisodeLog.open(dir),
      records.map((r) => r.episodeId),
      records.map((r) => [r.taskId, r.epoch]),
    );
    await run.writeHeaderNow();
    return run;
  }

  get runId(): string {
    return this.header.runId;
  }

  /** Episodes recorded in this run directory (this process's and earlier ones'). */
  get recordedCount(): number {
    return this.recorded.size;
  }

  /** Whether `episodeId` is recorded here or taken by an episode of this process. */
  has(episodeId: string): boolean {
    return this.recorded.has(episodeId) || this.taken.has(episodeId);
  }

  /**
   * Reserve an episode of `taskId`: its epoch (the task's next number in this run) and its id
   * (`wanted`, or `<task-id>@<epoch>`). Undefined when `wanted` is taken.
   */
  reserve(taskId: string, wanted?: string): { episodeId: string; epoch: number } | undefined {
    if (wanted !== undefined && this.has(wanted)) return undefined;
    let epoch = this.epochs.get(taskId) ?? 0;
    let episodeId = wanted ?? `${taskId}@${epoch}`;
    while (wanted === undefined && this.has(episodeId)) episodeId = `${taskId}@${++epoch}`;
    this.epochs.set(taskId, epoch + 1);
    this.taken.add(episodeId);
    return { episodeId, epoch };
  }

  /**
   * Record a finished episode: its trace, then its line in episodes.jsonl. The trace is handed to
   * the writer at once, so waiting for the disk keeps only the record.
   */
  record(finished: FinishedEpisode): Promise<void> {
    const trace = finished.trace ? writeTrace(this.dir, finished.trace) : undefined;
    return this.logAfter(trace, finished.record);
  }

  private async logAfter(trace: Promise<void> | undefined, record: EpisodeRecord): Promise<void> {
    await trace;
    await this.log.append(record);
    this.recorded.add(record.episodeId);
    this.header = { ...this.header, planned: this.recorded.size };
    this.headerTimer ??= setTimeout(() => {
      this.headerTimer = undefined;
      void this.writeHeaderNow();
    }, HEADER_DEBOUNCE_MS).unref();
  }

  /** Write the final header and close the episode log. */
  async close(): Promise<void> {
    clearTimeout(this.headerTimer);
    this.headerTimer = undefined;
    this.header = { ...this.header, status: "finished" };
    await this.writeHeaderNow();
    await this.log.close();
  }

  private writeHeaderNow(): Promise<void> {
    const header = { ...this.header, updatedAt: new Date().toISOString() };
    this.headerWrite = this.headerWrite.then(() => writeHeader(this.dir, header));
    return this.headerWrite;
  }
}

/** The served runs of one server, by suite and access level. */
export class ServedRuns {
  private readonly runs = new Map<string, Promise<ServedRun>>();

  constructor(private readonly settings: ServedRunSettings) {}

  /** The directory of a suite's served run: `<out>/<suite>`, or `<out>/<suite>-<level>`. */
  dirOf(suiteId: string, access: AccessProfile): string {
    const name = access.level === DEFAULT_ACCESS.level ? suiteId : `${suiteId}-${access.level}`;
    return join(this.settings.outDir, safeFileName(name));
  }

  /** The run of `suite` under `access`, opened on first use. */
  runFor(suite: Suite, specs: TaskSpec[], access: AccessProfile): Promise<ServedRun> {
    const dir = this.dirOf(suite.id, access);
    let run = this.runs.get(dir);
    if (!run) {
      run = ServedRun.open(dir, suite, specs, access, this.settings);
      // A failed open is not cached: the next request tries again and reports the same error.
      run.catch(() => this.runs.delete(dir));
      this.runs.set(dir, run);
    }
    return run;
  }

  /** Close every run (final headers written). */
  async close(): Promise<void> {
    const runs = await Promise.allSettled(this.runs.values());
    this.runs.clear();
    for (const r of runs) if (r.status === "fulfilled") await r.value.close();
  }
}
