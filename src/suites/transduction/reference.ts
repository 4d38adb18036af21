/**
 * Reference outputs with hand-computable scores: the oracle's exact answer and four
 * controlled corruptions of it. With R required rows, the middle row is row floor(R/2).
 */
import { type ExpectedOutput, type ExpectedRow, outputLines } from "./expected.ts";

/** Names of the reference outputs, also the suite's scripted agents. */
export const REFERENCE_KINDS = [
  "oracle",
  "drop-one",
  "swap-two",
  "off-by-one",
  "truncate-half",
] as const;
/** A reference output kind. */
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

/**
 * A near miss of one answer: an integer plus one; otherwise its last character moved to the
 * next digit or letter (cyclically), so exactly one record (or cell) becomes wrong.
 */
export function offByOne(answer: string): string {
  if (/^-?\d+$/.test(answer)) return String(Number(answer) + 1);
  const last = answer.at(-1) ?? "";
  const bump = (from: string, size: number) =>
    String.fromCharCode(
      from.charCodeAt(0) + ((last.charCodeAt(0) - from.charCodeAt(0) + 1) % size),
    );
  const next = /\d/.test(last) ? bump("0", 10) : /[a-z]/.test(last) ? bump("a", 26) : `${last}x`;
  return answer.slice(0, -1) + next;
}

function rowsFor(kind: ReferenceKind, expected: ExpectedOutput): ExpectedRow[] {
  const rows = expected.rows;
  const mid = Math.floor(rows.length / 2);
  switch (kind) {
    case "drop-one":
      return rows.filter((_, i) => i !== mid);
    case "swap-two": {
      if (rows.length < 2) return rows;
      const out = rows.slice();
      [out[mid - 1], out[mid]] = [out[mid]!, out[mid - 1]!];
      return out;
    }
    case "off-by-one": {
      // The answer of an arithmetic row is its value; of any other row its first cell.
      const at = expected.task === "arith" ? 1 : 0;
      return rows.map((row, i) =>
        i === mid
          ? { ...row, cells: row.cells.map((cell, c) => (c === at ? offByOne(cell) : cell)) }
          : row,
      );
    }
    default:
      return rows;
  }
}

/**
 * The text a reference agent writes: `oracle` the required output; `drop-one` omits the
 * middle row; `swap-two` swaps the middle row with the one before; `off-by-one` makes the
 * middle row's answer (its value, or its first cell) a near miss; `truncate-half` stops after half the output lines.
 */
export function referenceOutput(kind: ReferenceKind, expected: ExpectedOutput): string {
  const lines = outputLines(expected, rowsFor(kind, expected));
  const kept = kind === "truncate-half" ? lines.slice(0, Math.floor(lines.length / 2)) : lines;
  return kept.length > 0 ? `${kept.join("\n")}\n` : "";
}
