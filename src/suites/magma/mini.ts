/**
 * The frozen mini subset (§5, "MAGMA-Bench-mini"): 215 episodes, one semantic realization,
 * Figure 2b's counts per horizon bucket (31/44/47/37/56), condition and track margins close to
 * the full set's (the paper: within 0.3, 2.6 and 2.2 points). Every mini episode is the full
 * build's episode itself (a tag on it), so it is byte-identical to its counterpart.
 */
import type { Rng, TaskSpec } from "../../core/index.ts";
import { MINI_PER_BUCKET } from "./table2.ts";
import { BUCKETS, CONDITIONS, type MagmaPayload } from "./types.ts";

/** The ids of the mini subset's episodes (realization 0 of the chosen spec-conditions). */
export function selectMini(specs: TaskSpec<MagmaPayload>[], rng: Rng): Set<string> {
  const units = specs.filter((s) => s.payload.realization === 0);
  const total = MINI_PER_BUCKET.reduce((a, b) => a + b, 0);
  // Quotas per (bucket, condition) with row sums = Figure 2b and column sums = the full set's
  // condition shares times 215 (controlled rounding).
  const byBucket = BUCKETS.map((b) => units.filter((s) => s.payload.bucket === b.id));
  const fullByCond = CONDITIONS.map((c) => units.filter((s) => s.payload.condition === c).length);
  const colTarget = roundTo(
    fullByCond.map((n) => (n * total) / units.length),
    total,
  );
  const rowTarget = BUCKETS.map((_, b) =>
    Math.min(MINI_PER_BUCKET[b] as number, byBucket[b]?.length ?? 0),
  );
  const quota = controlledRounding(
    byBucket.map((group, b) =>
      CONDITIONS.map((c) => {
        const n = group.filter((s) => s.payload.condition === c).length;
        return group.length ? (n * (rowTarget[b] as number)) / group.length : 0;
      }),
    ),
    rowTarget,
    colTarget,
    byBucket.map((group) =>
      CONDITIONS.map((c) => group.filter((s) => s.payload.condition === c).length),
    ),
  );
  const out = new Set<string>();
  byBucket.forEach((group, b) => {
    CONDITIONS.forEach((c, k) => {
      const cell = rng.shuffle(group.filter((s) => s.payload.condition === c));
      // Tracks in proportion to the cell's (systematic sampling): the i-th of a track's n
      // episodes ranks at (i + 0.5) / n, so any prefix holds each track at its share.
      const rank = new Map<string, number>();
      for (const t of ["ID", "CG", "HO"]) {
        const of = cell.filter((s) => s.payload.track === t);
        of.forEach((s, i) => {
          rank.set(s.id, (i + 0.5) / of.length);
        });
      }
      const spread = [...cell].sort((x, y) => (rank.get(x.id) ?? 0) - (rank.get(y.id) ?? 0));
      for (const s of spread.slice(0, quota[b]?.[k] ?? 0)) out.add(s.id);
    });
  });
  return out;
}

/** Round values to integers summing to `total` (largest remainders). */
function roundTo(values: number[], total: number): number[] {
  const floors = values.map(Math.floor);
  let left = total - floors.reduce((a, b) => a + b, 0);
  const order = values
    .map((v, i) => ({ i, r: v - Math.floor(v) }))
    .sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i] = (floors[i] as number) + 1;
    left--;
  }
  return floors;
}

/**
 * Integer cells close to `x` with the given row and column sums, never above `cap`: start from
 * the floors, then add units where the remainders are largest while rows and columns lack them.
 */
function controlledRounding(
  x: number[][],
  rows: number[],
  cols: number[],
  cap: number[][],
): number[][] {
  const out = x.map((row, i) => row.map((v, j) => Math.min(Math.floor(v), cap[i]?.[j] ?? 0)));
  const rowSum = (i: number) => (out[i] as number[]).reduce((a, b) => a + b, 0);
  const colSum = (j: number) => out.reduce((a, row) => a + (row[j] as number), 0);
  for (let guard = 0; guard < 10000; guard++) {
    let best: [number, number] | undefined;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < out.length; i++) {
      if (rowSum(i) >= (rows[i] as number)) continue;
      for (let j = 0; j < cols.length; j++) {
        if (colSum(j) >= (cols[j] as number) || (out[i]?.[j] as number) >= (cap[i]?.[j] as number))
          continue;
        const score = (x[i]?.[j] as number) - (out[i]?.[j] as number);
        if (score > bestScore) {
          bestScore = score;
          best = [i, j];
        }
      }
    }
    if (!best) break;
    const [i, j] = best;
    (out[i] as number[])[j] = (out[i]?.[j] as number) + 1;
  }
  return out;
}
