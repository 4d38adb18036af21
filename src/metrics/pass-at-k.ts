/** pass@k: the unbiased estimator over n samples and EP's "first k valid attempts" rule. */

/**
 * Unbiased pass@k from n samples with c correct: 1 - C(n-c, k) / C(n, k), computed as
 * 1 - prod_{i=n-c+1..n} (1 - k/i) so large n never overflows (Chen et al. 2021, "Codex").
 */
export function passAtK(n: number, c: number, k: number): number {
  if (![n, c, k].every(Number.isInteger) || c < 0 || c > n || k < 1 || k > n) {
    throw new RangeError(
      `passAtK needs integers 0 <= c <= n and 1 <= k <= n, got n=${n} c=${c} k=${k}`,
    );
  }
  if (n - c < k) return 1;
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

/** One attempt at a condition, in chronological order. */
export interface Attempt {
  /** False for attempts that do not consume an opportunity (infrastructure incidents). */
  valid: boolean;
  success: boolean;
}

/**
 * EP's Pass@k for one condition (Embodied Playground §6.1, "Attempt eligibility": scored on
 * its first k valid attempts in chronological order, stopping at the first success; invalid
 * attempts consume no opportunity). Returns 1 when a success falls within the first k valid
 * attempts (even if fewer than k were made, since scoring stops there), 0 when k valid
 * attempts all failed, and null when fewer than k valid attempts exist and none succeeded:
 * the condition still has outstanding opportunities and is not scored.
 */
export function firstKValidPassAtK(attempts: readonly Attempt[], k: number): number | null {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
  let used = 0;
  for (const attempt of attempts) {
    if (!attempt.valid) continue;
    if (attempt.success) return 1;
    used++;
    if (used === k) return 0;
  }
  return null;
}
