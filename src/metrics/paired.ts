/** Paired outcome tables: how two runs' successes on the same episodes relate. */

/** Counts over the keys both maps share. */
export interface PairedOutcomes {
  /** Solved in both. */
  retained: number;
  /** Solved in a, not in b. */
  lost: number;
  /** Solved in b, not in a. */
  gained: number;
  /** Solved in neither. */
  unsolved: number;
  /** Keys present in both maps. */
  pairs: number;
}

/** Retained / lost / gained / unsolved over the keys present in both `a` and `b`. */
export function pairedOutcomes(
  a: ReadonlyMap<string, boolean>,
  b: ReadonlyMap<string, boolean>,
): PairedOutcomes {
  const out: PairedOutcomes = { retained: 0, lost: 0, gained: 0, unsolved: 0, pairs: 0 };
  for (const [key, solvedA] of a) {
    const solvedB = b.get(key);
    if (solvedB === undefined) continue;
    out.pairs++;
    if (solvedA && solvedB) out.retained++;
    else if (solvedA) out.lost++;
    else if (solvedB) out.gained++;
    else out.unsolved++;
  }
  return out;
}

/**
 * Two-sided exact McNemar test on the discordant pairs: the probability, if neither run were
 * better, of a lost/gained split at least this uneven (binomial, p = 1/2). Summed in log space
 * so thousands of discordant pairs neither underflow nor overflow.
 */
export function mcnemarExact(lost: number, gained: number): number {
  if (![lost, gained].every((x) => Number.isInteger(x) && x >= 0)) {
    throw new RangeError(`mcnemarExact needs non-negative integer counts, got ${lost}, ${gained}`);
  }
  const n = lost + gained;
  const k = Math.min(lost, gained);
  if (2 * k === n) return 1;
  // log C(n, i) / 2^n for i = 0..k, accumulated as a log-sum-exp.
  let logTerm = -n * Math.LN2;
  const logs = [logTerm];
  for (let i = 0; i < k; i++) {
    logTerm += Math.log((n - i) / (i + 1));
    logs.push(logTerm);
  }
  const top = logs[logs.length - 1] as number;
  const tail = Math.exp(top) * logs.reduce((s, l) => s + Math.exp(l - top), 0);
  return Math.min(1, 2 * tail);
}
