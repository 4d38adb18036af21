/**
 * `longhaul export sft`: the successful episodes of any run as next-decision training rows,
 * prompted with the suite's harness (its renderer, or the llm agent's generic one).
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { defaultRenderer } from "../agents/llm/index.ts";
import {
  type EpisodeRecord,
  type EpisodeStatus,
  LonghaulError,
  type Suite,
} from "../core/index.ts";
import { loadRun, readTrace, tracePath } from "../log/index.ts";
import { suiteEntries } from "../suites/index.ts";
import type { WorkerAnswer, WorkerJob, WorkerSetup } from "./export-worker.ts";
import { samplesOfTrace } from "./sample.ts";
import { startModuleWorker } from "./worker-thread.ts";
import {
  type RenderedSample,
  type RowFormat,
  SftWriter,
  type WriterSummary,
  writeManifest,
} from "./writer.ts";

/** How `export sft` picks episodes and splits rows. */
export interface ExportSftOptions {
  runDir: string;
  /** The run's suite (the CLI loads it from the registry by the run's suite id). */
  suite: Suite;
  /** The OpenAI training file; the others are named after it (see rowFilePath). */
  out: string;
  /** Episodes of this status (default success); "any" keeps every scored episode. */
  status?: EpisodeStatus | "any";
  /** Keep episodes whose metric is at least this value (a metric missing or null fails). */
  minScore?: { metric: string; value: number };
  /** What groups rows for the split: task, family, episode or a tag (default: the suite's splitKey, else task). */
  splitKey?: string;
  /** Share of groups held out for validation (default 0). */
  valFraction?: number;
  /** Seed of the split (default "0"). */
  seed?: string;
  formats?: readonly RowFormat[];
  /**
   * Worker threads rendering rows (the files are identical whatever the number); default 1,
   * rendering in this thread. Only for registered suites (a worker loads the suite by id).
   */
  workers?: number;
}

/** Episodes per batch handed to a worker. */
const BATCH = 8;

/** What was exported, as the manifest records it. */
export interface ExportSftResult extends WriterSummary {
  manifest: string;
  episodes: { run: number; exported: number; skipped: Record<string, number> };
}

/** Read `key=value` of `--min-score`, e.g. `ssal=0.8`. */
export function parseMinScore(text: string): { metric: string; value: number } {
  const match = /^([^=\s]+)=(-?\d+(?:\.\d+)?)$/.exec(text);
  if (!match)
    throw new LonghaulError(
      "USAGE",
      `--min-score expects METRIC=VALUE (e.g. ssal=0.8), got "${text}"`,
    );
  return { metric: match[1] as string, value: Number(match[2]) };
}

/** Export the chosen episodes of a run; writes the rows and the manifest. */
export async function exportSft(options: ExportSftOptions): Promise<ExportSftResult> {
  const { suite, runDir } = options;
  const { header, records } = loadRun(runDir);
  if (header.suite.id !== suite.id) {
    throw new LonghaulError("USAGE", `${runDir} is a ${header.suite.id} run, not ${suite.id}`);
  }
  const status = options.status ?? "success";
  const valFraction = options.valFraction ?? 0;
  if (!(valFraction >= 0 && valFraction < 1)) {
    throw new LonghaulError("USAGE", `--val-fraction must be in [0, 1), got ${valFraction}`);
  }
  const splitKey = options.splitKey ?? suite.splitKey ?? "task";
  const groupOf = grouper(splitKey, records);
  const renderer = suite.renderer ?? defaultRenderer;
  const skipped: Record<string, number> = {};
  const skip = (why: string) => {
    skipped[why] = (skipped[why] ?? 0) + 1;
  };
  // Episode id order, not finishing order: the same run always gives the same files.
  const chosen = [...records].sort((a, b) =>
    a.episodeId < b.episodeId ? -1 : a.episodeId > b.episodeId ? 1 : 0,
  );
  const formats = options.formats ?? ["openai", "authors"];
  const seed = options.seed ?? "0";
  const writer = new SftWriter({ out: options.out, formats, valFraction, seed });
  const jobs: { episodeId: string; group: string }[] = [];
  for (const record of chosen) {
    if (status !== "any" && record.status !== status) {
      skip(`status ${record.status}`);
      continue;
    }
    if (options.minScore) {
      const value = record.metrics[options.minScore.metric];
      if (typeof value !== "number" || value < options.minScore.value) {
        skip(`${options.minScore.metric} below ${options.minScore.value}`);
        continue;
      }
    }
    if (!existsSync(tracePath(runDir, record.episodeId))) {
      skip("no trace");
      continue;
    }
    jobs.push({ episodeId: record.episodeId, group: groupOf(record) });
  }
  const workers = Math.min(options.workers ?? 1, availableParallelism());
  if (workers > 1) {
    if (!suiteEntries().some((e) => e.id === suite.id)) {
      throw new LonghaulError(
        "USAGE",
        `worker threads load the suite by id: ${suite.id} is not registered`,
      );
    }
    await renderInWorkers(
      jobs,
      workers,
      { runDir, suite: suite.id, formats, valFraction, seed },
      (r) => writer.write(r),
    );
  } else {
    for (const { episodeId, group } of jobs) {
      for (const sample of samplesOfTrace(readTrace(runDir, episodeId), renderer, group)) {
        writer.add(sample);
      }
    }
  }
  const summary = writer.close();
  const episodes = { run: records.length, exported: jobs.length, skipped };
  const manifest = writeManifest(options.out, {
    generator: "longhaul export sft",
    run: {
      dir: runDir,
      runId: header.runId,
      suite: header.suite,
      agent: header.agent,
      access: header.access,
      versions: header.versions,
    },
    filters: { status, ...(options.minScore ? { minScore: options.minScore } : {}) },
    split: { key: splitKey, valFraction, seed },
    formats,
    episodes,
    rows: summary.rows,
    groups: summary.groups,
    families: summary.families,
    files: summary.files,
  });
  return { ...summary, manifest, episodes };
}

/** The split group of a record under `key`: task, family, episode, or a tag every record has. */
function grouper(key: string, records: readonly EpisodeRecord[]): (r: EpisodeRecord) => string {
  if (key === "task") return (r) => `task=${r.taskId}`;
  if (key === "family") return (r) => `family=${r.family}`;
  if (key === "episode") return (r) => `episode=${r.episodeId}`;
  const missing = records.find((r) => r.tags[key] === undefined);
  if (missing) {
    const tags = Object.keys(missing.tags);
    throw new LonghaulError(
      "USAGE",
      `--split-key "${key}": episode ${missing.episodeId} has no such tag; use task, family, episode${tags.length ? ` or one of its tags: ${tags.join(", ")}` : ""}`,
    );
  }
  return (r) => `${key}=${r.tags[key]}`;
}

/**
 * Render `jobs` in batches on `count` worker threads and hand each rendered decision to
 * `write` in job order (answers that arrive early wait in a reorder buffer).
 */
async function renderInWorkers(
  jobs: readonly { episodeId: string; group: string }[],
  count: number,
  setup: WorkerSetup,
  write: (rendered: RenderedSample) => void,
): Promise<void> {
  const batches: WorkerJob[] = [];
  for (let i = 0; i < jobs.length; i += BATCH) {
    batches.push({ index: batches.length, episodes: jobs.slice(i, i + BATCH) });
  }
  const pool = Array.from({ length: Math.min(count, batches.length) }, () =>
    startModuleWorker(import.meta.url, "export-worker", setup),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      const waiting = new Map<number, RenderedSample[]>();
      let next = 0;
      let sent = 0;
      const give = (worker: Worker) => {
        if (sent < batches.length) worker.postMessage(batches[sent++]);
      };
      for (const worker of pool) {
        worker.on("message", (answer: WorkerAnswer) => {
          waiting.set(answer.index, answer.rendered);
          give(worker);
          try {
            for (let ready = waiting.get(next); ready; ready = waiting.get(next)) {
              waiting.delete(next++);
              for (const r of ready) write(r);
            }
          } catch (error) {
            reject(error);
            return;
          }
          if (next === batches.length) resolve();
        });
        worker.on("error", reject);
        worker.on("exit", (code) => {
          if (next < batches.length)
            reject(new Error(`an export worker exited (code ${code}) before the end`));
        });
        give(worker);
      }
      if (batches.length === 0) resolve();
    });
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}
