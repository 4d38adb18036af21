/**
 * The exact verifier (appendix B). A required record (an output row, or a CSV cell) is
 * correct only when it matches exactly. Numbered streams are matched by id; unnumbered
 * streams match non-empty lines ordinally, so an omission shifts every later match (by
 * design, appendix E). CSV cells are compared by position. Lines are trimmed of surrounding
 * whitespace before matching; nothing else is normalised.
 */
import type { ExpectedOutput } from "./expected.ts";

/** Number of position buckets: accuracy by tenths of the required output. */
export const POSITION_BUCKETS = 10;

/** The verifier's verdict on one output for one document. */
export interface DocumentScore {
  /** Required records (rows, or header and data cells for tables). */
  records: number;
  correct: number;
  /** correct / records. */
  accuracy: number;
  /** Every required record correct. */
  exact: boolean;
  /** Accuracy of the records in each tenth of the required output, in output order. */
  positions: (number | null)[];
  /** UUID sorting only: share of required rows whose emitted list is in ascending order. */
  selfConsistency: number | null;
  /** Nothing left to score once reasoning blocks are removed. */
  empty: boolean;
}

/**
 * Remove reasoning: keep the text after the last `</think>`; an unclosed `<think>` left in
 * what remains means the answer never started, which scores as empty output.
 */
export function stripReasoning(text: string): string {
  const close = text.lastIndexOf("</think>");
  const rest = close >= 0 ? text.slice(close + "</think>".length) : text;
  return rest.includes("<think>") ? "" : rest;
}

const NUMBERED_LINE = /^(\d+)\s*:\s*(.*)$/;
const TABLE_ID = /^\d+$/;

/** Header and per-row contents an output supplies, aligned with the expected rows. */
interface Alignment {
  header: string | undefined;
  rows: (string | undefined)[];
}

function align(expected: ExpectedOutput, lines: string[]): Alignment {
  if (!expected.numbered) {
    const offset = expected.table ? 1 : 0;
    return {
      header: expected.table ? lines[0] : undefined,
      rows: expected.rows.map((_, i) => lines[i + offset]),
    };
  }
  // Numbered: the first line for each id wins; a table's header is the line headed `id`.
  const byId = new Map<number, string>();
  let header: string | undefined;
  for (const line of lines) {
    let id: string | undefined;
    let content: string;
    if (expected.table) {
      const comma = line.indexOf(",");
      const first = (comma < 0 ? line : line.slice(0, comma)).trim();
      content = comma < 0 ? "" : line.slice(comma + 1);
      if (first === "id") {
        header ??= content;
        continue;
      }
      if (TABLE_ID.test(first)) id = first;
    } else {
      const m = NUMBERED_LINE.exec(line);
      id = m?.[1];
      content = m?.[2] ?? "";
    }
    if (id !== undefined && !byId.has(Number(id))) byId.set(Number(id), content);
  }
  return { header, rows: expected.rows.map((row) => byId.get(row.id)) };
}

function cellsOf(expected: ExpectedOutput, content: string | undefined): string[] {
  if (content === undefined) return [];
  return expected.table ? content.split(",").map((cell) => cell.trim()) : [content.trim()];
}

function isAscending(list: string): boolean {
  const items = list.split(/\s+/).filter((item) => item.length > 0);
  if (items.length === 0) return false;
  for (let i = 1; i < items.length; i++) if (items[i - 1]! > items[i]!) return false;
  return true;
}

/** Score an output (raw model text, reasoning included) against a document's required output. */
export function scoreOutput(expected: ExpectedOutput, rawOutput: string): DocumentScore {
  const text = stripReasoning(rawOutput);
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const aligned = align(expected, lines);

  // Correctness of every required record, in required output order.
  const marks: boolean[] = [];
  const compare = (want: string[], got: string[]) => {
    want.forEach((cell, i) => {
      marks.push(got[i] === cell);
    });
  };
  if (expected.table) compare(expected.header, cellsOf(expected, aligned.header));
  expected.rows.forEach((row, i) => {
    compare(row.cells, cellsOf(expected, aligned.rows[i]));
  });

  const correct = marks.filter(Boolean).length;
  const sums = new Array<number>(POSITION_BUCKETS).fill(0);
  const sizes = new Array<number>(POSITION_BUCKETS).fill(0);
  marks.forEach((ok, i) => {
    const bucket = Math.floor((i * POSITION_BUCKETS) / marks.length);
    sizes[bucket]! += 1;
    if (ok) sums[bucket]! += 1;
  });
  const selfConsistency =
    expected.task === "uuid" && expected.rows.length > 0
      ? aligned.rows.filter((row) => row !== undefined && isAscending(row)).length /
        expected.rows.length
      : null;
  return {
    records: marks.length,
    correct,
    accuracy: marks.length > 0 ? correct / marks.length : 0,
    exact: marks.length > 0 && correct === marks.length,
    positions: sums.map((sum, b) => (sizes[b]! > 0 ? sum / sizes[b]! : null)),
    selfConsistency,
    empty: lines.length === 0,
  };
}
