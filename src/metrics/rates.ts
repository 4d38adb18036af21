/** Means and binomial rates with Wilson score intervals. */

/** Arithmetic mean; NaN for an empty list, so an absent quantity never reads as zero. */
export function mean(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  let sum = 0;
  for (const x of xs) sum += x;
  return sum / xs.length;
}

/** A rate and its confidence interval, all in [0, 1]. */
export interface RateInterval {
  rate: number;
  low: number;
  high: number;
}

/**
 * Wilson score interval for `successes` out of `n` (z = 1.96 gives 95%). With n = 0 nothing
 * is known: the result is { rate: 0, low: 0, high: 1 }, the whole range, never NaN.
 */
export function wilson(successes: number, n: number, z = 1.96): RateInterval {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(successes)) {
    throw new RangeError(`wilson needs integer counts, got ${successes}/${n}`);
  }
  if (successes < 0 || successes > n) {
    throw new RangeError(`wilson needs 0 <= successes <= n, got ${successes}/${n}`);
  }
  if (n === 0) return { rate: 0, low: 0, high: 1 };
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // Clamp away rounding so the bounds stay in [0, 1] and around the rate at p = 0 or 1.
  return {
    rate: p,
    low: Math.max(0, Math.min(p, center - half)),
    high: Math.min(1, Math.max(p, center + half)),
  };
}
