/**
 * Re-scoring: the suite's current scorer applied again to every logged episode whose play
 * completed (its trace holds the environment's outcome), through the same function the session
 * scores with, so an unchanged scorer gives identical records. A rescored run is written as a
 * new run directory; the source is never modified.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import {
  canonicalJson,
  type EpisodeRecord,
  LonghaulError,
  type Suite,
  suiteHash,
  type TaskSpec,
  type Trace,
} from "../core/index.ts";
import {
  copyCheckpoints,
  loadRun,
  readHeaderIfAny,
  readTrace,
  tracePath,
  writeEpisodes,
  writeHeader,
  writeTrace,
} from "../log/index.ts";
import { addToTotals, emptyTotals, type Progress } from "./progress.ts";
import { baseOf, composeRecord, scoreEpisode } from "./scoring.ts";

/** One episode whose record the current scorer changed. */
export interface RescoreChange {
  episodeId: string;
  before: Pick<EpisodeRecord, "status" | "category">;
  after: Pick<EpisodeRecord, "status" | "category">;
}

/** What a rescore did. */
export interface RescoreSummary {
  from: string;
  out: string;
  episodes: number;
  /** Episodes scored again. */
  rescored: number;
  /** Episodes copied as they were: play failed (endedBy error) or no trace with an outcome. */
  kept: number;
  /** Rescored episodes whose status or category changed. */
  changes: RescoreChange[];
  /** Rescored episodes whose record changed in any field (metrics included). */
  changed: number;
}

/**
 * Score a logged episode again with `suite`'s scorer: the record and trace it gives, or
 * undefined when the episode cannot be rescored (play failed, or no outcome was logged).
 * A scorer that throws or returns a malformed score throws here.
 */
export async function rescoreTrace<P>(
  suite: Suite<P>,
  spec: TaskSpec<P>,
  trace: Trace,
): Promise<{ record: EpisodeRecord; trace: Trace } | undefined> {
  const { outcome, score: _score, record, ...unscored } = trace;
  if (!outcome || record.endedBy === "error") return undefined;
  return scoreEpisode(suite, spec, {
    trace: unscored,
    outcome,
    base: baseOf(record),
    wallMs: record.wallMs,
  });
}

/**
 * Re-score every episode of the run in `from` with the suite's current scorer, writing a
 * complete run directory to `out` (header, records, traces, stream checkpoints). The suite's
 * compiled tasks must be the run's; `out` must not be `from`, nor hold another run.
 */
export async function rescoreRun<P>(
  suite: Suite<P>,
  from: string,
  out: string,
  onProgress?: (p: Progress) => void,
): Promise<RescoreSummary> {
  const source = resolve(from);
  const target = resolve(out);
  if (source === target) {
    throw new LonghaulError(
      "USAGE",
      "rescore never overwrites its source run; choose another --out",
    );
  }
  const { header, records } = loadRun(source);
  if (header.suite.id !== suite.id) {
    throw new LonghaulError(
      "USAGE",
      `the run is of suite ${header.suite.id}, not ${suite.id}`,
      source,
    );
  }
  const existing = await readHeaderIfAny(target);
  if (existing && existing.rescore?.from !== source) {
    throw new LonghaulError("USAGE", "holds another run; choose an empty --out", target);
  }
  const specs = suite.compile(header.config.compile);
  // The run's hash names its suite version; the same tasks under that version hash the same.
  if (suiteHash({ id: suite.id, version: header.suite.version }, specs) !== header.suite.hash) {
    throw new LonghaulError(
      "USAGE",
      `suite ${suite.id} no longer compiles the run's tasks (hash ${header.suite.hash} under version ${header.suite.version}); rescoring would score its traces against other tasks`,
      source,
    );
  }
  const byId = new Map(specs.map((spec) => [spec.id, spec]));
  await writeHeader(target, {
    ...header,
    rescore: {
      from: source,
      suiteVersion: suite.version,
      suiteHash: suiteHash(suite, specs),
      at: new Date().toISOString(),
    },
  });
  const summary: RescoreSummary = {
    from: source,
    out: target,
    episodes: records.length,
    rescored: 0,
    kept: 0,
    changes: [],
    changed: 0,
  };
  const written: EpisodeRecord[] = [];
  const started = performance.now();
  const totals = emptyTotals();
  for (const before of records) {
    const trace = existsSync(tracePath(source, before.episodeId))
      ? readTrace(source, before.episodeId)
      : undefined;
    const spec = byId.get(before.taskId);
    const again = trace && spec ? await rescoreTrace(suite, spec, trace) : undefined;
    if (again) {
      summary.rescored++;
      if (canonicalJson(again.record) !== canonicalJson(before)) {
        summary.changed++;
        if (again.record.status !== before.status || again.record.category !== before.category) {
          summary.changes.push({
            episodeId: before.episodeId,
            before: pickVerdict(before),
            after: pickVerdict(again.record),
          });
        }
      }
    } else summary.kept++;
    // Kept records are re-laid in the writer's field order (parsing reorders them).
    const record = again?.record ?? composeRecord(baseOf(before), before);
    const kept = again?.trace ?? trace;
    if (kept) await writeTrace(target, kept);
    written.push(record);
    addToTotals(totals, record);
    const elapsedMs = performance.now() - started;
    onProgress?.({
      done: written.length,
      total: records.length,
      ...totals,
      elapsedMs,
      etaMs: (elapsedMs / written.length) * (records.length - written.length),
    });
  }
  await writeEpisodes(target, written);
  await copyCheckpoints(source, target);
  return summary;
}

function pickVerdict(r: EpisodeRecord): Pick<EpisodeRecord, "status" | "category"> {
  return { status: r.status, ...(r.category !== undefined ? { category: r.category } : {}) };
}
