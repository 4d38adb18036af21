/** Seeded percentile bootstrap intervals, reproducible byte for byte from a seed. */
import { Rng } from "../core/index.ts";

/** The seed used when none is given, so reports are reproducible by default. */
export const DEFAULT_BOOTSTRAP_SEED = "longhaul-bootstrap";

/** Resampling settings: 10,000 resamples, 95% level and the default seed unless given. */
export interface BootstrapOptions {
  resamples?: number;
  seed?: string;
  level?: number;
}

/** A point estimate on the full sample with its percentile interval. */
export interface Estimate {
  value: number;
  low: number;
  high: number;
}

/**
 * Percentile bootstrap of `statistic` over `items`: `value` is the statistic on the full
 * sample; low/high are the (1-level)/2 and (1+level)/2 quantiles (linear interpolation) of
 * the statistic over resamples drawn with replacement from the "bootstrap" stream of `seed`.
 * The sample array handed to `statistic` is reused between calls: it must not be kept, and
 * the statistic should be finite on every resample (NaN would sort into the upper bound).
 */
export function bootstrapCi<T>(
  items: readonly T[],
  statistic: (sample: T[]) => number,
  opts: BootstrapOptions = {},
): Estimate {
  const buffer = items.slice();
  const stats = new Float64Array(resampleCount(opts));
  drawResamples(items.length, opts, (indices, r) => {
    for (let i = 0; i < indices.length; i++) buffer[i] = items[indices[i] as number] as T;
    stats[r] = statistic(buffer);
  });
  return { value: statistic(items.slice()), ...percentileInterval(stats, opts.level) };
}

/**
 * Joint bootstrap of the means of equal-length columns: every resample draws one set of row
 * indices for all columns (so paired metrics stay paired), one pass for any number of them.
 * Column c's result equals bootstrapCi over its values with the mean statistic.
 */
export function bootstrapMeans(
  columns: readonly (readonly number[])[],
  opts: BootstrapOptions = {},
): Estimate[] {
  const n = columns[0]?.length ?? 0;
  if (columns.some((column) => column.length !== n)) {
    throw new RangeError("bootstrapMeans needs columns of equal length");
  }
  const resamples = resampleCount(opts);
  const k = columns.length;
  const stats = columns.map(() => new Float64Array(resamples));
  // Row-major copy: one resampled row's values sit together, so a draw touches one cache line.
  const matrix = new Float64Array(n * k);
  columns.forEach((column, c) => {
    for (let i = 0; i < n; i++) matrix[i * k + c] = column[i] as number;
  });
  const sums = new Float64Array(k);
  drawResamples(n, opts, (indices, r) => {
    sums.fill(0);
    for (let i = 0; i < n; i++) {
      const row = (indices[i] as number) * k;
      for (let c = 0; c < k; c++) sums[c] = (sums[c] as number) + (matrix[row + c] as number);
    }
    for (let c = 0; c < k; c++) (stats[c] as Float64Array)[r] = (sums[c] as number) / n;
  });
  return columns.map((column, c) => {
    let sum = 0;
    for (const v of column) sum += v;
    return { value: sum / n, ...percentileInterval(stats[c] as Float64Array, opts.level) };
  });
}

/** Bootstrap interval of the mean; equals bootstrapCi(values, mean) without per-resample arrays. */
export function bootstrapMean(values: readonly number[], opts: BootstrapOptions = {}): Estimate {
  return bootstrapMeans([values], opts)[0] as Estimate;
}

function resampleCount(opts: BootstrapOptions): number {
  const resamples = opts.resamples ?? 10_000;
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  }
  return resamples;
}

/** Calls `visit` with the row indices of each resample, drawn uniformly with replacement. */
function drawResamples(
  n: number,
  opts: BootstrapOptions,
  visit: (indices: Uint32Array, resample: number) => void,
): void {
  if (n === 0) throw new RangeError("bootstrap needs at least one item");
  const resamples = resampleCount(opts);
  const rng = new Rng(opts.seed ?? DEFAULT_BOOTSTRAP_SEED, "bootstrap");
  // One 32-bit draw per index, rejecting the top partial block so every index is equally likely.
  const limit = 2 ** 32 - (2 ** 32 % n);
  const indices = new Uint32Array(n);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) {
      let x = rng.nextUint32();
      while (x >= limit) x = rng.nextUint32();
      indices[i] = x % n;
    }
    visit(indices, r);
  }
}

/** Central `level` interval of the resampled statistics. */
function percentileInterval(stats: Float64Array, level = 0.95): { low: number; high: number } {
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  stats.sort();
  return { low: quantile(stats, (1 - level) / 2), high: quantile(stats, (1 + level) / 2) };
}

/** Quantile q of sorted values by linear interpolation between order statistics (R type 7). */
function quantile(sorted: Float64Array, q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  const lo = sorted[below] as number;
  const hi = sorted[above] as number;
  // Equal neighbours return exactly, so constant data gives a zero-width interval.
  return lo === hi ? lo : lo + (hi - lo) * (position - below);
}
