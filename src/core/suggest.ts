/** "Did you mean" suggestions for unknown names (suite ids, agents, providers). */

/** Edit distance with adjacent transpositions (optimal string alignment): "magam" -> "magma" is 1. */
function distance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      }
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/**
 * The known names closest to `name`, best first: within a third of the longer name's length
 * (at least one edit), case-insensitively; a name that contains or starts the input also counts.
 */
export function closestNames(name: string, known: readonly string[]): string[] {
  const wanted = name.toLowerCase();
  return known
    .map((candidate) => {
      const c = candidate.toLowerCase();
      const d = distance(wanted, c);
      const near = d <= Math.max(1, Math.floor(Math.max(c.length, wanted.length) / 3));
      const overlapping = wanted.length >= 3 && (c.startsWith(wanted) || wanted.startsWith(c));
      return { candidate, d, keep: near || overlapping };
    })
    .filter((x) => x.keep)
    .sort((x, y) => x.d - y.d)
    .map((x) => x.candidate);
}

/** `unknown suite "robgraph"; did you mean "robograph"? known suites: a, b` (hint if any). */
export function unknownNameMessage(what: string, name: string, known: readonly string[]): string {
  const [best] = closestNames(name, known);
  const hint = best ? `; did you mean "${best}"?` : ";";
  const list = known.length > 0 ? known.join(", ") : "(none)";
  return `unknown ${what} "${name}"${hint} known ${what}s: ${list}`;
}
