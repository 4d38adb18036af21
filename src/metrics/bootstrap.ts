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
 * The sample array handed to `statistic` is reused between calls: it must not be kept.
 */
export function bootstrapCi<T>(
  items: readonly T[],
  statistic: (sample: T[]) => number,
  opts: BootstrapOptions = {},
): Estimate {
  const buffer = items.slice();
  const stats = resampleStatistics(items.length, opts, (indices) => {
    for (let i = 0; i < indices.length; i++) buffer[i] = items[indices[i] as number] as T;
    return statistic(buffer);
  });
  return { value: statistic(items.slice()), ...percentileInterval(stats, opts.level) };
}

/** Bootstrap interval of the mean; equals bootstrapCi(values, mean) but allocates nothing per resample. */
export function bootstrapMean(values: readonly number[], opts: BootstrapOptions = {}): Estimate {
  const n = values.length;
  const stats = resampleStatistics(n, opts, (indices) => {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[indices[i] as number] as number;
    return sum / n;
  });
  let sum = 0;
  for (const v of values) sum += v;
  return { value: sum / n, ...percentileInterval(stats, opts.level) };
}

/** The statistic of each resample, computed from the resample's item indices. */
function resampleStatistics(
  n: number,
  opts: BootstrapOptions,
  evaluate: (indices: Uint32Array) => number,
): Float64Array {
  const resamples = opts.resamples ?? 10_000;
  if (n === 0) throw new RangeError("bootstrap needs at least one item");
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  }
  const rng = new Rng(opts.seed ?? DEFAULT_BOOTSTRAP_SEED, "bootstrap");
  const indices = new Uint32Array(n);
  const stats = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) indices[i] = rng.int(n);
    stats[r] = evaluate(indices);
  }
  return stats;
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
