/**
 * The exact verifier (appendix B). Every required record, an output row of a line task or a
 * data cell of a table, is scored right or wrong. Numbered streams are matched by `[N]` id
 * (the first line for an id wins); unnumbered streams and tables match lines ordinally, so
 * an omission shifts every later match (by design, appendix E).
 *
 * Two modes. `reference` (the default) has the tolerances of the authors' reference verifier,
 * which its README makes part of the task: arithmetic lines parse as `expression=number`
 * (whitespace ignored, the value compared as a number), identifier tokens are found with any
 * separator and compared case-insensitively, lookups ignore case and collapse whitespace,
 * and unnumbered arithmetic and identifier streams skip lines that hold no record. `strict`
 * compares each record's text exactly (lines trimmed), with no line skipped. Tables score the
 * same in both: header and row labels are never scored, cells compare after trimming.
 */
import type { ExpectedOutput, ExpectedRow } from "./expected.ts";
import type { ScoringMode } from "./params.ts";

/** Number of position buckets: accuracy by tenths of the required output. */
export const POSITION_BUCKETS = 10;

/** The verifier's verdict on one output for one document. */
export interface DocumentScore {
  /** Required records (rows of line tasks, data cells of tables). */
  records: number;
  correct: number;
  /** correct / records. */
  accuracy: number;
  /** Records whose answer is right whatever the copy (arithmetic: the value alone). */
  answers: number;
  /** Every required record correct. */
  exact: boolean;
  /** Accuracy of the records in each tenth of the required output, in output order. */
  positions: (number | null)[];
  /**
   * Arithmetic and UUID sorting: share of required rows whose emitted record is consistent
   * with itself (the value of the written expression; identifiers in ascending order),
   * whatever it was asked. Null for the other tasks.
   */
  selfConsistency: number | null;
  /** Nothing left to score once reasoning is removed. */
  empty: boolean;
}

const THINK_CLOSE = "</think>";
const HARMONY_FINAL = "<|channel|>final<|message|>";
const HARMONY_ANALYSIS = "<|channel|>analysis<|message|>";

/**
 * Remove reasoning, as the reference does: keep the text after the last `</think>` (a later
 * `<think>` stays in the answer); an unclosed `<think>` means the answer never started. For
 * Harmony-format output keep the final channel; analysis alone means no answer.
 */
export function stripReasoning(text: string): string {
  const after = (marker: string) =>
    text.slice(text.lastIndexOf(marker) + marker.length).replace(/^\n+/, "");
  if (text.includes(THINK_CLOSE)) return after(THINK_CLOSE);
  if (text.includes("<think>")) return "";
  if (text.includes(HARMONY_FINAL)) return after(HARMONY_FINAL);
  if (text.includes(HARMONY_ANALYSIS)) return "";
  return text;
}

/** One record as the output states it, read once: its text and what a task parses from it. */
interface Stated {
  text: string;
  /** Arithmetic: the written expression (whitespace removed) and value. */
  arith?: { expr: string; value: number };
  /** UUID sorting: the identifier tokens, lowercased. */
  tokens?: string[];
}

/** How a task reads and judges one record line in one mode. */
interface RecordRule {
  /** The record a line states (without its `[N]` prefix), or undefined when it holds none. */
  read(line: string): Stated | undefined;
  /** Whether the stated record answers the expected row: [whole record, answer alone]. */
  judge(found: Stated, row: ExpectedRow): [boolean, boolean];
  /** Whether the stated record agrees with itself (self-consistency), when the task has it. */
  consistent?(found: Stated): boolean;
}

const ARITH_LINE = /^([\d\s+-]+)=\s*(-?[\d.]+)\s*$/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)$/;
const TERM = /^[+-]?\d+$/;
const UUID_TOKEN = /\b[0-9a-fA-F]{8}\b/g;

const squash = (s: string) => s.replace(/\s+/g, "");
const collapse = (s: string) => s.trim().split(/\s+/).join(" ").toLowerCase();

/** `expression=value` split as the reference reads it; undefined when the line is not one. */
function arithParts(line: string): Stated["arith"] {
  const m = ARITH_LINE.exec(line.trim());
  if (!m || !NUMBER.test(m[2]!)) return undefined;
  return { expr: squash(m[1]!), value: Number(m[2]) };
}

/**
 * The value of a whitespace-free `a+b-c` chain as the reference sums it (split before each
 * sign, every piece an integer), undefined when a piece is not one (`5+-3`, `+`).
 */
function evaluate(expr: string): number | undefined {
  let sum = 0;
  let start = 0;
  for (let i = 1; i <= expr.length; i++) {
    if (i < expr.length && expr[i] !== "+" && expr[i] !== "-") continue;
    const term = expr.slice(start, i);
    if (!TERM.test(term)) return undefined;
    sum += Number(term);
    start = i;
  }
  return sum;
}

function uuidTokens(text: string): string[] {
  return (text.match(UUID_TOKEN) ?? []).map((t) => t.toLowerCase());
}

const ascending = (items: string[] | undefined) =>
  items !== undefined &&
  items.length > 0 &&
  items.every((item, i) => i === 0 || items[i - 1]! <= item);

const arithConsistent = ({ arith }: Stated) =>
  arith !== undefined && evaluate(arith.expr) === arith.value;

const withArith = (text: string): Stated => ({ text, arith: arithParts(text) });
const withTokens = (text: string): Stated => ({ text, tokens: uuidTokens(text) });

const RULES: Record<Exclude<ExpectedOutput["task"], "table">, Record<ScoringMode, RecordRule>> = {
  arith: {
    reference: {
      read(line) {
        const found = withArith(line);
        return found.arith ? found : undefined;
      },
      judge({ arith }, row) {
        const answer = Math.abs(arith!.value - Number(row.cells[1])) < 1e-9;
        const want = row.cells[0]!;
        return [answer && (arith!.expr === want || arith!.expr === squash(want)), answer];
      },
      consistent: arithConsistent,
    },
    strict: {
      read: withArith,
      judge({ text }, row) {
        const exact = text === `${row.cells[0]}=${row.cells[1]}`;
        const at = text.lastIndexOf("=");
        return [exact, at >= 0 && text.slice(at + 1) === row.cells[1]];
      },
      consistent: arithConsistent,
    },
  },
  uuid: {
    reference: {
      read(line) {
        const found = withTokens(line);
        return found.tokens!.length > 0 ? found : undefined;
      },
      judge({ tokens }, row) {
        const ok =
          tokens!.length === row.cells.length && tokens!.every((t, i) => t === row.cells[i]);
        return [ok, ok];
      },
      consistent: ({ tokens }) => ascending(tokens),
    },
    strict: {
      read: withTokens,
      judge({ text }, row) {
        const ok = text === row.cells.join(",");
        return [ok, ok];
      },
      consistent: ({ tokens }) => ascending(tokens),
    },
  },
  lookup: {
    reference: {
      read: (text) => ({ text }),
      judge({ text }, row) {
        const want = row.cells[0]!;
        const ok = text === want || collapse(text) === collapse(want);
        return [ok, ok];
      },
    },
    strict: {
      read: (text) => ({ text }),
      judge({ text }, row) {
        const ok = text === row.cells[0];
        return [ok, ok];
      },
    },
  },
};

const NUMBERED_REFERENCE = /^\[(\d+)\]\s*(.*)$/;
const NUMBERED_STRICT = /^\[(\d+)\](.*)$/;

/** The record stated for every expected row of a line task, matched by id or by position. */
function alignLines(
  expected: ExpectedOutput,
  lines: string[],
  rule: RecordRule,
  mode: ScoringMode,
): (Stated | undefined)[] {
  if (!expected.numbered) {
    const records = lines.map(rule.read).filter((r): r is Stated => r !== undefined);
    return expected.rows.map((_, i) => records[i]);
  }
  const prefix = mode === "strict" ? NUMBERED_STRICT : NUMBERED_REFERENCE;
  const byId = new Map<number, Stated>();
  for (const line of lines) {
    const m = prefix.exec(line);
    if (!m) continue;
    const id = Number(m[1]);
    // The first line of an id wins: later ones are not even read.
    if (byId.has(id)) continue;
    const record = rule.read(m[2]!);
    if (record !== undefined) byId.set(id, record);
  }
  return expected.rows.map((row) => byId.get(row.id));
}

/**
 * Cells of every expected table row, by position: a first line opening with a comma is the
 * header and skipped; each row's first cell is its label, not scored.
 */
function alignTable(expected: ExpectedOutput, lines: string[]): (string[] | undefined)[] {
  const start = lines[0]?.startsWith(",") ? 1 : 0;
  return expected.rows.map((_, i) => {
    const line = lines[start + i];
    return line === undefined
      ? undefined
      : line
          .split(",")
          .slice(1)
          .map((c) => c.trim());
  });
}

/** The verifier's verdict on one required row: what the output stated for it, record by record. */
export interface RowVerdict {
  /** What the output stated for the row: the record text (line tasks) or the cells (tables). */
  stated: string | null;
  /** Each scored record of the row right or wrong: one per line-task row, one per table cell. */
  marks: boolean[];
  /** Line tasks: the answer right whatever the copy (arithmetic: the value alone). */
  answer: boolean;
  /** Line tasks with the measure: the stated record consistent with itself. */
  consistent: boolean;
}

/**
 * Every required row of a document judged against an output (raw model text, reasoning
 * included), in required output order: the per-item results `scoreOutput` sums up and the
 * viewer marks.
 */
export function verifyRows(
  expected: ExpectedOutput,
  rawOutput: string,
  mode: ScoringMode = "reference",
): RowVerdict[] {
  const raw = answerLines(rawOutput);
  if (expected.task === "table") {
    return alignTable(expected, raw).map((cells, i) => {
      const marks = expected.rows[i]!.cells.map((cell, j) => cells?.[j] === cell);
      return { stated: cells?.join(",") ?? null, marks, answer: false, consistent: false };
    });
  }
  const rule = RULES[expected.task][mode];
  return alignLines(
    expected,
    raw.map((line) => line.trim()),
    rule,
    mode,
  ).map((found, i) => {
    const [whole, answer] =
      found === undefined ? [false, false] : rule.judge(found, expected.rows[i]!);
    const consistent = found !== undefined && rule.consistent?.(found) === true;
    return { stated: found?.text ?? null, marks: [whole], answer, consistent };
  });
}

/** Non-empty lines of the answer once reasoning is stripped, untrimmed (tables need that). */
function answerLines(rawOutput: string): string[] {
  // Tables keep their lines untrimmed, as the reference reads them: a header must open with
  // the comma to be recognised.
  return stripReasoning(rawOutput)
    .split("\n")
    .filter((line) => line.trim().length > 0);
}

/** Score an output (raw model text, reasoning included) against a document's required output. */
export function scoreOutput(
  expected: ExpectedOutput,
  rawOutput: string,
  mode: ScoringMode = "reference",
): DocumentScore {
  const rows = verifyRows(expected, rawOutput, mode);
  // Correctness of every required record, in required output order.
  const marks = rows.flatMap((row) => row.marks);
  const table = expected.task === "table";
  const answers = table ? marks.filter(Boolean).length : rows.filter((row) => row.answer).length;
  const measured = expected.task !== "table" && RULES[expected.task][mode].consistent !== undefined;
  const selfConsistency =
    measured && rows.length > 0 ? rows.filter((row) => row.consistent).length / rows.length : null;

  const correct = marks.filter(Boolean).length;
  const sums = new Array<number>(POSITION_BUCKETS).fill(0);
  const sizes = new Array<number>(POSITION_BUCKETS).fill(0);
  marks.forEach((ok, i) => {
    const bucket = Math.floor((i * POSITION_BUCKETS) / marks.length);
    sizes[bucket]! += 1;
    if (ok) sums[bucket]! += 1;
  });
  return {
    records: marks.length,
    correct,
    accuracy: marks.length > 0 ? correct / marks.length : 0,
    answers,
    exact: marks.length > 0 && correct === marks.length,
    positions: sums.map((sum, b) => (sizes[b]! > 0 ? sum / sizes[b]! : null)),
    selfConsistency,
    empty: answerLines(rawOutput).length === 0,
  };
}
