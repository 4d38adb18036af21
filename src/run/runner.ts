/**
 * runSuite: plan, resume, run units (a stream's episodes in order, or one independent episode)
 * with bounded concurrency, log each episode as it finishes and checkpoint stream memory.
 */
import { setMaxListeners } from "node:events";
import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import {
  type AccessProfile,
  AdaptiveLimiter,
  type Agent,
  type Budgets,
  type CompileOptions,
  type EpisodeRecord,
  GOAL_STATE_GRANT,
  type Json,
  LonghaulError,
  Redactor,
  type Suite,
  suiteHash,
} from "../core/index.ts";
import {
  checkRunDirectory,
  EpisodeLog,
  openRunDirectory,
  type Redact,
  type RepairResult,
  type RunFields,
  readCheckpoint,
  writeCheckpoint,
  writeHeader,
  writeTrace,
} from "../log/index.ts";
import { accessFor, type EpisodeResult, type EpisodeSetup, runEpisode } from "./episode.ts";
import { type PlannedEpisode, type PlannedUnit, planFromSpecs, planUnits } from "./plan.ts";
import { addToTotals, emptyTotals, type Progress } from "./progress.ts";
import { mergeBudgets } from "./scoring.ts";

/** Everything a run needs; `agentConfig` identifies the agent in the run id (never secrets). */
export interface RunOptions<P = unknown> {
  suite: Suite<P>;
  agent: Agent;
  agentConfig: Record<string, unknown>;
  outDir: string;
  seed: string;
  epochs: number;
  concurrency: number;
  subset?: string;
  filters?: Record<string, string>;
  taskIds?: string[];
  limit?: number;
  /** Options for suite.compile (e.g. robograph's familyFile). */
  compile?: CompileOptions;
  /** Default DEFAULT_ACCESS, or PRIVILEGED_ACCESS when the agent is privileged. */
  access?: AccessProfile;
  /** Merged over the suite's and each task card's budgets. */
  budgets?: Budgets;
  /** Rerun episodes an earlier attempt recorded as invalid. */
  retryErrors?: boolean;
  /** Consecutive unusable outputs that end an episode (FORMAT); default 3. */
  maxConsecutiveFormatErrors?: number;
  /** The command line as run.json keeps it (the caller redacts secret options first). */
  command?: string[];
  /**
   * Plays one episode (default runEpisode, in this process); a queue coordinator passes one that
   * hands the episode to a worker and returns its result (it may write the trace into `outDir`
   * itself and return none).
   */
  execute?: (
    setup: EpisodeSetup<P>,
    run: { runId: string; outDir: string },
  ) => Promise<EpisodeResult>;
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
  /** Stop the run (status interrupted) once this call has recorded this many invalid episodes. */
  maxErrors?: number;
  /**
   * Applied to everything written (run.json, records, traces, checkpoints) to keep secrets out;
   * credentials inside URLs are always replaced.
   */
  redact?: Redact;
  /** Drop unreadable lines of an existing episodes.jsonl (after a backup) before resuming. */
  repair?: boolean;
}

/** What a run did; `records` holds every planned episode that has a record, in plan order. */
export interface RunSummary {
  runId: string;
  outDir: string;
  status: "finished" | "interrupted";
  planned: number;
  /** Episodes run (and recorded) by this call. */
  ran: number;
  /** Episodes kept from an earlier attempt. */
  skipped: number;
  /** Invalid episodes recorded by this call. */
  errors: number;
  /** Why an interrupted run stopped: the caller's signal, or maxErrors invalid episodes. */
  stoppedBy?: "signal" | "max-errors";
  /** Temporary files of a killed earlier attempt removed on resume. */
  leftovers: number;
  /** What `repair` dropped, when it dropped anything. */
  repaired?: RepairResult;
  records: EpisodeRecord[];
}

/** The package version, recorded in every run header. */
export const LONGHAUL_VERSION: string = JSON.parse(
  readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
).version;

/** Check a positive integer option. */
function positiveInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new LonghaulError("USAGE", `${name} must be a positive integer, got ${value}`);
  }
  return value;
}

/**
 * Errors of the run's own setup (compiling the suite with the given options, a family file, a
 * selection) are the user's to fix: INVALID_INPUT and NOT_FOUND become USAGE.
 */
function asSetupError(error: unknown): unknown {
  if (
    error instanceof LonghaulError &&
    (error.code === "INVALID_INPUT" || error.code === "NOT_FOUND")
  )
    return new LonghaulError("USAGE", error.message);
  return error;
}

/** Refuse compile options the suite does not declare (when it declares its options). */
function checkCompileOptions(suite: Suite<unknown>, compile: CompileOptions | undefined): void {
  const known = suite.compileOptions;
  if (!known || !compile) return;
  const unknown = Object.keys(compile).filter((key) => !(key in known));
  if (unknown.length > 0) {
    const list = Object.keys(known).join(", ") || "(none)";
    throw new LonghaulError(
      "USAGE",
      `unknown compile option(s) for suite ${suite.id}: ${unknown.join(", ")}; it takes: ${list}`,
    );
  }
}

/**
 * Run (or resume) a suite against an agent into `outDir`. Everything that applies to the whole
 * run (the directory, compile options, the selection, the run's identity) is checked before
 * anything is written; a run refused or failing before it recorded an episode leaves no
 * directory behind. Episodes already recorded there by the same run id are kept; an agent or
 * environment fault makes one episode invalid, never the run fail; the signal (or `maxErrors`
 * invalid episodes) stops the run, abandoning the episodes in flight.
 */
export async function runSuite<P>(opts: RunOptions<P>): Promise<RunSummary> {
  const { suite, agent } = opts;
  const redactor = new Redactor();
  const redact: Redact = opts.redact
    ? (text) => redactor.text(opts.redact?.(text) ?? text)
    : (text) => redactor.text(text);
  const concurrency = positiveInt("concurrency", opts.concurrency);
  const maxConsecutiveFormatErrors = positiveInt(
    "maxConsecutiveFormatErrors",
    opts.maxConsecutiveFormatErrors ?? 3,
  );
  if (opts.maxErrors !== undefined) positiveInt("maxErrors", opts.maxErrors);
  // Before compiling: a refused --out fails fast and creates nothing.
  checkRunDirectory(opts.outDir);
  let specs: ReturnType<Suite<P>["compile"]>;
  let plan: PlannedEpisode<P>[];
  try {
    checkCompileOptions(suite as Suite<unknown>, opts.compile);
    specs = suite.compile(opts.compile);
    plan = planFromSpecs(suite, specs, opts);
  } catch (error) {
    throw asSetupError(error);
  }
  const access = opts.access ?? accessFor(agent);
  if (access.grants.includes(GOAL_STATE_GRANT) && !suite.goalState) {
    throw new LonghaulError(
      "USAGE",
      `the ${suite.id} suite states no goal state (Suite.goalState), so the goal-state access (--memory oracle-state) cannot be granted`,
    );
  }
  const fields: RunFields = {
    command: opts.command ?? [],
    config: {
      ...(opts.compile && Object.keys(opts.compile).length > 0 ? { compile: opts.compile } : {}),
      ...(opts.subset !== undefined ? { subset: opts.subset } : {}),
      // No filters and an empty filter set are the same run.
      ...(opts.filters && Object.keys(opts.filters).length > 0 ? { filters: opts.filters } : {}),
      ...(opts.taskIds !== undefined ? { taskIds: opts.taskIds } : {}),
      ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
      epochs: opts.epochs,
      concurrency,
      retryErrors: opts.retryErrors ?? false,
      maxConsecutiveFormatErrors,
    },
    versions: { longhaul: LONGHAUL_VERSION, node: process.version },
    seed: opts.seed,
    suite: { id: suite.id, version: suite.version, hash: suiteHash(suite, specs) },
    agent: { id: agent.id, config: opts.agentConfig },
    access,
    budgets: mergeBudgets(suite.budgets, opts.budgets),
    planned: plan.length,
  };
  const { header, kept, leftovers, repaired, created } = await openRunDirectory(
    opts.outDir,
    fields,
    { redact, repair: opts.repair },
  );
  const runId = header.runId;

  const needsRun = (p: PlannedEpisode<P>) => {
    const record = kept.get(p.episodeId);
    return !record || (opts.retryErrors === true && record.status === "invalid");
  };
  const work = await resumePoints(opts.outDir, planUnits(plan), needsRun);
  const todo = work.flatMap((w) => w.unit.episodes.slice(w.from));
  // Episodes counted as done: kept ones, except invalid ones about to be retried.
  const retried = new Set(todo.map((p) => p.episodeId));
  const done = new Map([...kept].filter(([id]) => !retried.has(id)));
  // One stop signal for the user's abort and for a fatal error in any worker.
  const stop = new AbortController();
  const forwardAbort = () => stop.abort(opts.signal?.reason);
  if (opts.signal?.aborted) forwardAbort();
  opts.signal?.addEventListener("abort", forwardAbort, { once: true });
  const signal = stop.signal;
  // Every episode in flight listens to this signal: that many listeners is by design.
  setMaxListeners(0, signal);
  let fatal: unknown;
  let stoppedBy: RunSummary["stoppedBy"];
  let errors = 0;
  const gate = new AdaptiveLimiter(concurrency);
  const log = await EpisodeLog.open(opts.outDir, redact);
  const started = performance.now();
  const totals = emptyTotals();
  const count = (r: EpisodeRecord) => addToTotals(totals, r);
  for (const r of done.values()) count(r);
  let ran = 0;
  const report = () => {
    const elapsedMs = performance.now() - started;
    opts.onProgress?.({
      done: done.size,
      total: plan.length,
      ...totals,
      elapsedMs,
      etaMs: ran === 0 ? null : (elapsedMs / ran) * (plan.length - done.size),
    });
  };

  let next = 0;
  const worker = async () => {
    try {
      while (!signal.aborted && next < work.length) await play(work[next++]!);
    } catch (e) {
      fatal ??= e;
      stop.abort(e);
    }
  };
  /** Play a unit's episodes in order from its resume point, handing memory forward. */
  const play = async ({ unit, from, memory: restored }: UnitWork<P>) => {
    let memory = restored;
    for (const planned of unit.episodes.slice(from)) {
      if (signal.aborted) return;
      const setup: EpisodeSetup<P> = {
        suite,
        agent,
        planned,
        seed: opts.seed,
        access,
        ...(opts.budgets ? { budgets: opts.budgets } : {}),
        gate,
        signal,
        maxConsecutiveFormatErrors,
        ...(memory !== undefined ? { memory } : {}),
      };
      const result = await (opts.execute
        ? opts.execute(setup, { runId, outDir: opts.outDir })
        : runEpisode(setup));
      if (result.kind === "abandoned") return;
      if (result.trace) await writeTrace(opts.outDir, result.trace, redact);
      if (planned.stream) {
        memory = result.memory;
        // Before the record: a recorded stream episode always has the checkpoint resume needs.
        await writeCheckpoint(
          opts.outDir,
          {
            stream: planned.stream.id,
            index: planned.stream.index,
            episodeId: planned.episodeId,
            ...(memory !== undefined ? { memory } : {}),
          },
          redact,
        );
      }
      await log.append(result.record);
      done.set(planned.episodeId, result.record);
      count(result.record);
      ran++;
      report();
      if (result.record.status === "invalid" && ++errors === opts.maxErrors) {
        stoppedBy ??= "max-errors";
        stop.abort(new Error(`${errors} invalid episodes (maxErrors)`));
      }
    }
  };
  report();
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, work.length) }, worker));
  } finally {
    opts.signal?.removeEventListener("abort", forwardAbort);
    await log.close();
  }
  if (fatal !== undefined && created && ran === 0) {
    await rm(opts.outDir, { recursive: true, force: true });
    throw fatal;
  }
  const status = signal.aborted ? "interrupted" : "finished";
  if (status === "interrupted" && fatal === undefined) stoppedBy ??= "signal";
  await writeHeader(
    opts.outDir,
    { ...header, status, updatedAt: new Date().toISOString() },
    redact,
  );
  if (fatal !== undefined) throw fatal;
  const records = plan.flatMap((p) => done.get(p.episodeId) ?? kept.get(p.episodeId) ?? []);
  return {
    runId,
    outDir: opts.outDir,
    status,
    planned: plan.length,
    ran,
    skipped: plan.length - todo.length,
    errors,
    ...(stoppedBy !== undefined ? { stoppedBy } : {}),
    leftovers,
    ...(repaired && repaired.dropped.length > 0 ? { repaired } : {}),
    records,
  };
}

/** A unit with something left to play: from which episode, with which restored memory. */
interface UnitWork<P> {
  unit: PlannedUnit<P>;
  from: number;
  memory?: Json;
}

/**
 * Where each unit resumes. A stream resumes at its first episode that needs a run; every later
 * episode reruns too (its memory came from that one), and the memory comes from the checkpoint
 * of the episode before. An independent episode runs when it needs to.
 */
async function resumePoints<P>(
  dir: string,
  units: PlannedUnit<P>[],
  needsRun: (p: PlannedEpisode<P>) => boolean,
): Promise<UnitWork<P>[]> {
  const out: UnitWork<P>[] = [];
  for (const unit of units) {
    const from = unit.episodes.findIndex(needsRun);
    if (from < 0) continue;
    if (unit.stream === undefined || from === 0) {
      out.push({ unit, from });
      continue;
    }
    const before = unit.episodes[from - 1] as PlannedEpisode<P>;
    const checkpoint = await readCheckpoint(dir, unit.stream, from - 1);
    if (!checkpoint || checkpoint.episodeId !== before.episodeId) {
      throw new LonghaulError(
        "INVALID_INPUT",
        `stream ${unit.stream}: no checkpoint after ${before.episodeId}, so its memory cannot be restored; run into another --out`,
        dir,
      );
    }
    out.push({
      unit,
      from,
      ...(checkpoint.memory !== undefined ? { memory: checkpoint.memory as Json } : {}),
    });
  }
  return out;
}
