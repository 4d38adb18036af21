/** Paired comparison of two runs: per-metric differences with bootstrap intervals, outcome tables. */
import { type CellFormat, type EpisodeRecord, totalTokens } from "../core/index.ts";
import {
  bootstrapMeans,
  DEFAULT_BOOTSTRAP_SEED,
  type Estimate,
  mcnemarExact,
  mean,
  type PairedOutcomes,
  pairedOutcomes,
} from "../metrics/index.ts";
import type { RunData } from "./generic.ts";
import { groupBy, naturalCompare, pairKey } from "./group.ts";

/** One side of a comparison. */
export interface CompareSide {
  runId: string;
  suite: string;
  agent: string;
  episodes: number;
}

/** Means of one metric over the paired episodes and the mean difference b - a with its interval. */
export interface MetricDifference {
  metric: string;
  format: CellFormat;
  pairs: number;
  a: number;
  b: number;
  difference: number;
  low: number;
  high: number;
}

/** What `longhaul compare` shows. */
export interface CompareModel {
  a: CompareSide;
  b: CompareSide;
  /** Episodes (same suite, task and epoch) recorded in both runs. */
  paired: number;
  /** Of those, pairs left out because either side is invalid or missing. */
  excluded: number;
  /** Episode ids recorded in only one run. */
  onlyA: string[];
  onlyB: string[];
  /** Success on the valid pairs: retained / lost / gained / unsolved. */
  outcomes: PairedOutcomes;
  /** Exact McNemar p-value of lost vs gained: how surprising the split is if A and B were equal. */
  mcnemarP: number;
  metrics: MetricDifference[];
  resamples: number;
  seed: string;
}

/** Settings of the paired bootstrap. */
export interface CompareOptions {
  resamples?: number;
  seed?: string;
}

interface Measure {
  metric: string;
  format: CellFormat;
  of: (r: EpisodeRecord) => number | null | undefined;
}

const MEASURES: Measure[] = [
  { metric: "success", format: "rate", of: (r) => (r.status === "success" ? 1 : 0) },
  { metric: "steps", format: "number", of: (r) => r.steps },
  { metric: "invalid actions", format: "number", of: (r) => r.invalidActions },
  { metric: "format errors", format: "number", of: (r) => r.formatErrors },
  { metric: "wall time", format: "ms", of: (r) => r.wallMs },
  { metric: "sim time", format: "number", of: (r) => r.simTime },
  { metric: "tokens", format: "number", of: (r) => totalTokens(r.usage) },
  { metric: "cost", format: "usd", of: (r) => r.usage.costUsd },
];

/**
 * Compares run b against run a on the episodes both recorded. Episodes pair on (suite, task,
 * epoch) rather than the run-local episode id, so runs of different agents line up. Pairs
 * where either side is invalid or missing are left out (and counted), as in success rates.
 * Each metric both runs report on a pair gets mean(a), mean(b) and mean(b - a) with a seeded
 * percentile bootstrap over those pairs.
 */
export function compareRuns(a: RunData, b: RunData, opts: CompareOptions = {}): CompareModel {
  const resamples = opts.resamples ?? 10_000;
  const seed = opts.seed ?? DEFAULT_BOOTSTRAP_SEED;
  const byKeyB = new Map(b.records.map((r) => [pairKey(r), r]));
  const keysA = new Set(a.records.map(pairKey));
  const pairs: [EpisodeRecord, EpisodeRecord][] = [];
  for (const ra of a.records) {
    const rb = byKeyB.get(pairKey(ra));
    if (rb) pairs.push([ra, rb]);
  }
  const valid = pairs.filter(([ra, rb]) => isValid(ra) && isValid(rb));
  const solved = (side: 0 | 1) =>
    new Map(valid.map((pair) => [pairKey(pair[side]), pair[side].status === "success"]));

  const outcomes = pairedOutcomes(solved(0), solved(1));
  return {
    a: side(a),
    b: side(b),
    paired: pairs.length,
    excluded: pairs.length - valid.length,
    onlyA: a.records.filter((r) => !byKeyB.has(pairKey(r))).map((r) => r.episodeId),
    onlyB: b.records.filter((r) => !keysA.has(pairKey(r))).map((r) => r.episodeId),
    outcomes,
    mcnemarP: mcnemarExact(outcomes.lost, outcomes.gained),
    metrics: metricDifferences(valid, { resamples, seed }),
    resamples,
    seed,
  };
}

/** Per-metric paired means and bootstrap differences over the valid pairs. */
function metricDifferences(
  valid: readonly [EpisodeRecord, EpisodeRecord][],
  opts: Required<CompareOptions>,
): MetricDifference[] {
  const columns = [...MEASURES, ...suiteMeasures(valid)].flatMap((measure) => {
    const rows: number[] = [];
    const va: number[] = [];
    const vb: number[] = [];
    valid.forEach(([ra, rb], row) => {
      const x = measure.of(ra);
      const y = measure.of(rb);
      if (typeof x !== "number" || typeof y !== "number") return;
      rows.push(row);
      va.push(x);
      vb.push(y);
    });
    return rows.length > 0 ? [{ measure, coverage: rows.join(","), va, vb }] : [];
  });
  // Metrics present on the same pairs share one joint bootstrap: the same resampled pairs for
  // all of them, in one pass (one pass per metric would be ten times slower on big runs).
  const differences = new Map<(typeof columns)[number], Estimate>();
  for (const [, group] of groupBy(columns, (c) => c.coverage)) {
    const estimates = bootstrapMeans(
      group.map((c) => c.vb.map((y, i) => y - (c.va[i] as number))),
      opts,
    );
    group.forEach((c, i) => {
      differences.set(c, estimates[i] as Estimate);
    });
  }
  return columns.map((c): MetricDifference => {
    const ci = differences.get(c) as Estimate;
    return {
      metric: c.measure.metric,
      format: c.measure.format,
      pairs: c.va.length,
      a: mean(c.va),
      b: mean(c.vb),
      difference: ci.value,
      low: ci.low,
      high: ci.high,
    };
  });
}

function isValid(r: EpisodeRecord): boolean {
  return r.status === "success" || r.status === "failure";
}

/** The scorer metrics named in the paired records, in name order. */
function suiteMeasures(pairs: readonly [EpisodeRecord, EpisodeRecord][]): Measure[] {
  const names = new Set<string>();
  for (const [ra, rb] of pairs)
    for (const name of Object.keys({ ...ra.metrics, ...rb.metrics })) names.add(name);
  return [...names].sort(naturalCompare).map((name) => ({
    metric: `metric: ${name}`,
    format: "number",
    of: (r) => r.metrics[name],
  }));
}

function side(run: RunData): CompareSide {
  return { runId: run.runId, suite: run.suite, agent: run.agent, episodes: run.records.length };
}
