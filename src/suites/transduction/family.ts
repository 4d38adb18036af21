/** What a task family supplies to the document builder. */
import type { Rng } from "../../core/index.ts";
import type { DocumentParams } from "./params.ts";

/** One generated record: its input text and the cells of its required output. */
export interface GeneratedRecord {
  /** Line tasks: the record after its `[N]` prefix; tables: the whole input row. */
  input: string;
  /** The required output cells (see ExpectedRow). */
  cells: string[];
  /** Table row label, e.g. `[R3]`. */
  label?: string;
}

/** A table's output order and the text shown after the input (reordering instructions). */
export interface TableFinish {
  /** Output position -> index of the generated row. */
  order: number[];
  /** Shown after the table; empty when none. */
  trailer: string;
}

/** A family's generator bound to one document: fixed text plus a stream of records. */
export interface FamilyDocument {
  /** The task description (the system prompt). */
  instructions: string;
  /** Block shown before the input (definitions, lookup tables); empty when none. */
  context: string;
  /** Tables: input header line and output column labels. */
  table?: { inputHeader: string; outputHeader: string[] };
  /** The next record; deterministic given the stream the family was created with. */
  next(): GeneratedRecord;
  /** Prompt text record `index` (0-based) adds outside its own line, for sizing; none if absent. */
  extra?(index: number): string;
  /** The part of the trailer that does not grow with the rows, for sizing; none if absent. */
  trailerBase?: string;
  /** Tables: the output row order and the trailer, once the row count is known. */
  finish?(rows: number): TableFinish;
}

/** What a family's generator may use: its stream, the parameters, and the token counter. */
export interface FamilyContext {
  rng: Rng;
  params: DocumentParams;
  count: (text: string) => number;
  /** Tokens of prompt + required output the document aims at. */
  target: number;
}

/** A task family: makes the generator of one document. */
export interface Family {
  create(context: FamilyContext): FamilyDocument;
}

/** 2, 4, 8 or 16: the per-record item count (or most operands) of difficulty 1..4 (appendix A). */
export function itemsPerRecord(difficulty: number): number {
  return 2 ** difficulty;
}

/** `count` distinct strings from `make`, drawn until none repeat. */
export function distinctStrings(count: number, make: () => string): string[] {
  const seen = new Set<string>();
  while (seen.size < count) seen.add(make());
  return [...seen];
}

/** The closing rules every prompt ends with. */
export const CLOSING_RULES =
  "Process every record: do not stop until the output is complete. Do not add extra whitespace, do not change the format, and write only the output: no explanations, no other text.";

/** The sentence about ids and order of a line-task prompt, by format. */
export function formatSentence(format: string, example: { input: string; output: string }) {
  switch (format) {
    case "ordered":
      return `Each input line starts with its index in brackets, e.g. [3]${example.input}. For every line, in the given order, write one output line: the same index in brackets, then the result, e.g. [3]${example.output}.`;
    case "shuffled":
      return `Each input line starts with its index in brackets, e.g. [3]${example.input}; the lines appear in shuffled order. Write one output line per input line in ascending order of index, starting at [1]: the index in brackets, then the result, e.g. [3]${example.output}.`;
    default:
      return `Each input line is one record, e.g. ${example.input}. For every line, in the given order, write one output line holding only the result, e.g. ${example.output}.`;
  }
}
