/** What a task family supplies to the document builder. */
import type { Rng } from "../../core/index.ts";
import type { DocumentParams } from "./params.ts";

/** Line families: one record per line, one answer per output line. */
export interface LineLayout {
  kind: "lines";
  /** What one record holds, for the instructions ("an arithmetic expression"). */
  recordNoun: string;
  /** A result in the family's output syntax, for the instructions. */
  example: string;
}

/** CSV tables: rows of cells under a header; the output header may differ (permutations). */
export interface TableLayout {
  kind: "table";
  inputHeader: string[];
  outputHeader: string[];
}

/** One generated record: its input text and the cells of its required output. */
export interface GeneratedRecord {
  input: string;
  cells: string[];
}

/** A family's generator bound to one document: fixed context plus a stream of records. */
export interface FamilyDocument {
  /** Imperative sentence: what to do with each record (or the table). */
  operation: string;
  /** Block shown before the input (definitions, vocabulary); empty when none. */
  context: string;
  /** How records are laid out: one line each, or rows of a CSV table with a header. */
  layout: LineLayout | TableLayout;
  /** Sub-variant name, when the family has several (the table family). */
  variant?: string;
  /** The next record; deterministic given the stream the family was created with. */
  next(): GeneratedRecord;
}

/** A task family: makes the generator of one document from its parameters and stream. */
export interface Family {
  create(rng: Rng, params: DocumentParams): FamilyDocument;
}

/** 2, 4, 8 or 16: the per-record item count of difficulty 1..4 (appendix A). */
export function itemsPerRecord(difficulty: number): number {
  return 2 ** difficulty;
}

/** `count` distinct strings from `make`, drawn until none repeat. */
export function distinctStrings(count: number, make: () => string): string[] {
  const seen = new Set<string>();
  while (seen.size < count) seen.add(make());
  return [...seen];
}
