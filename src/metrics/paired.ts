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
