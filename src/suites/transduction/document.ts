/**
 * Document generation: a pure function of the generator parameters. Records are added until
 * prompt + required output tokens reach the nominal horizon; tokens are counted per line as
 * records are added (never by re-encoding the document), which is what keeps the full grid
 * fast. The record count is the one whose total lands closest to the target.
 */
import { Rng } from "../../core/index.ts";
import { type ExpectedOutput, type ExpectedRow, headerLine, recordLine } from "./expected.ts";
import { FAMILIES } from "./families.ts";
import type { FamilyDocument } from "./family.ts";
import {
  type DocumentParams,
  type FormatName,
  horizonTokens,
  outputAllowance,
  taskId,
} from "./params.ts";
import { documentTokenCounter } from "./tokens.ts";

/** Token accounting of a document, measured with its params' tokenizer. */
export interface DocumentTokens {
  /** Nominal horizon: the target of prompt + output. */
  target: number;
  /** Instructions plus input text. */
  prompt: number;
  /** The required output (the oracle's answer). */
  output: number;
  /** Output allowance for a model (1.5x the input budget). */
  allowance: number;
}

/** Most records counted in one call while the target is far. */
const MAX_CHUNK = 64;

/** A generated record not yet accepted into the document. */
interface PendingRecord {
  row: ExpectedRow;
  inputLine: string;
  outputLine: string;
}

function joinLines(lines: string[]): string {
  return `${lines.join("\n")}\n`;
}

/** One generated document: what the model reads, and what it must write. */
export interface TransductionDocument {
  id: string;
  params: DocumentParams;
  /** Table sub-variant, when the family has several. */
  variant?: string;
  /** The task description (sent as the system prompt). */
  instructions: string;
  /** Definitions or vocabulary, then the records (sent as the user message). */
  input: string;
  expected: ExpectedOutput;
  tokens: DocumentTokens;
}

const FORMAT_TEXT: Record<FormatName, { lines: string; table: string }> = {
  ordered: {
    lines:
      "Each input line is a record: its number, a colon, then {noun}. For every record, in the given order, write one output line: the record's number, a colon, a space, then the result (for example `7: {example}`).",
    table:
      "The input is a CSV table with a header line; its first column, id, numbers the rows. Write the resulting table as CSV: the header line first, then one line per row in the given order, keeping the id column first.",
  },
  shuffled: {
    lines:
      "Each input line is a record: its number, a colon, then {noun}. The records appear in shuffled order. Write one output line per record in ascending order of record number: the number, a colon, a space, then the result (for example `7: {example}`).",
    table:
      "The input is a CSV table with a header line; its first column, id, numbers the rows, which appear in shuffled order. Write the resulting table as CSV: the header line first, then one line per row in ascending order of id, keeping the id column first.",
  },
  unnumbered: {
    lines:
      "Each input line is a record holding {noun}. For every record, in the given order, write one output line holding only the result (for example `{example}`).",
    table:
      "The input is a CSV table with a header line. Write the resulting table as CSV: the header line first, then one line per row in the given order.",
  },
};

function instructionsFor(family: FamilyDocument, format: FormatName): string {
  const layout = family.layout;
  const formatText =
    layout.kind === "lines"
      ? FORMAT_TEXT[format].lines
          .replace("{noun}", layout.recordNoun)
          .replace("{example}", layout.example)
      : FORMAT_TEXT[format].table;
  const scope = layout.kind === "lines" ? "each record" : "the table";
  return [
    `Apply this operation to ${scope}: ${family.operation}.`,
    formatText,
    "Process every record. Write only the output lines: no explanations, no other text.",
  ].join("\n");
}

/** Generate a document: deterministic, byte-identical for the same parameters. */
export function generateDocument(params: DocumentParams): TransductionDocument {
  const id = taskId(params);
  const rng = new Rng(params.seed, `transduction/${id}`);
  const family = FAMILIES[params.task].create(rng.derive("family"), params);
  const count = documentTokenCounter(params.tokenizer);
  const layout = {
    numbered: params.format !== "unnumbered",
    table: family.layout.kind === "table",
  };
  const header = family.layout.kind === "table" ? family.layout.outputHeader : [];
  const expectedBase = { task: params.task, ...layout, header };

  const instructions = instructionsFor(family, params.format);
  const opening = `${family.context ? `${family.context}\n\n` : ""}Input:\n`;
  const inputHeader =
    family.layout.kind === "table" ? `${headerLine(layout, family.layout.inputHeader)}\n` : "";
  let prompt = count(instructions) + count(opening) + count(inputHeader);
  let output = header.length > 0 ? count(`${headerLine(layout, header)}\n`) : 0;
  const fixed = prompt + output;

  const target = horizonTokens(params.horizonK);
  const rows: ExpectedRow[] = [];
  const inputLines: string[] = [];
  const take = (record: PendingRecord) => {
    rows.push(record.row);
    inputLines.push(record.inputLine);
  };
  for (let done = false; !done; ) {
    // Chunks shrink as the target nears (half the records that still fit, by the mean cost
    // so far), so few records are generated and counted only to be dropped.
    const spent = prompt + output - fixed;
    const perRecord = rows.length > 0 ? spent / rows.length : target;
    const size = Math.max(
      1,
      Math.min(MAX_CHUNK, Math.floor((target - prompt - output) / perRecord / 2)),
    );
    const chunk: PendingRecord[] = [];
    for (let k = 0; k < size; k++) {
      const id = rows.length + 1 + k;
      const record = family.next();
      chunk.push({
        row: { id, cells: record.cells },
        inputLine: recordLine(layout, id, record.input),
        outputLine: recordLine(layout, id, record.cells.join(",")),
      });
    }
    // One count per chunk while far from the target (a third of the per-line cost);
    // line by line once the target is within the chunk.
    const inCost = count(joinLines(chunk.map((r) => r.inputLine)));
    const outCost = count(joinLines(chunk.map((r) => r.outputLine)));
    if (prompt + output + inCost + outCost < target) {
      chunk.forEach(take);
      prompt += inCost;
      output += outCost;
      continue;
    }
    for (const record of chunk) {
      const recordIn = count(`${record.inputLine}\n`);
      const recordOut = count(`${record.outputLine}\n`);
      const before = prompt + output;
      const after = before + recordIn + recordOut;
      // Stop before a record that would overshoot further than stopping undershoots.
      if (rows.length > 0 && after > target && after - target > target - before) {
        done = true;
        break;
      }
      take(record);
      prompt += recordIn;
      output += recordOut;
      if (after >= target) {
        done = true;
        break;
      }
    }
  }

  const presented =
    params.format === "shuffled" ? rng.derive("order").shuffle(inputLines) : inputLines;
  const input = `${opening}${inputHeader}${presented.join("\n")}\n`;
  const document: TransductionDocument = {
    id,
    params,
    instructions,
    input,
    expected: { ...expectedBase, rows },
    tokens: { target, prompt, output, allowance: outputAllowance(params.horizonK) },
  };
  if (family.variant) document.variant = family.variant;
  return document;
}
