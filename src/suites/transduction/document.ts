/**
 * Document generation: a pure function of the generator parameters. Records are added until
 * prompt + required output tokens reach the nominal horizon; tokens are counted per line as
 * records are added (never by re-encoding the document), which is what keeps the full grid
 * fast. The record count is the one whose total lands closest to the target.
 */
import { Rng } from "../../core/index.ts";
import {
  type ExpectedOutput,
  type ExpectedRow,
  numberedLine,
  outputRowLine,
  recordText,
  tableHeaderLine,
} from "./expected.ts";
import { FAMILIES } from "./families.ts";
import { type DocumentParams, horizonTokens, outputAllowance, taskId } from "./params.ts";
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

/** One generated document: what the model reads, and what it must write. */
export interface TransductionDocument {
  id: string;
  params: DocumentParams;
  /** The task description (sent as the system prompt). */
  instructions: string;
  /** Definitions or lookup tables, then the records (sent as the user message). */
  input: string;
  /** Input records in generation order (tables: rows), without `[N]` prefixes. */
  records: string[];
  expected: ExpectedOutput;
  tokens: DocumentTokens;
}

/** Most records counted in one call while the target is far. */
const MAX_CHUNK = 64;

/** A generated record not yet accepted into the document. */
interface PendingRecord {
  row: ExpectedRow;
  record: string;
  inputLine: string;
  outputLine: string;
  extra: string;
}

const joinLines = (lines: string[]) => `${lines.join("\n")}\n`;

/** Generate a document: deterministic, byte-identical for the same parameters. */
export function generateDocument(params: DocumentParams): TransductionDocument {
  const id = taskId(params);
  const rng = new Rng(params.seed, `transduction/${id}`);
  const count = documentTokenCounter(params.tokenizer);
  const target = horizonTokens(params.horizonK);
  const family = FAMILIES[params.task].create({
    rng: rng.derive("family"),
    params,
    count,
    target,
  });
  const numbered = params.format === "ordered" || params.format === "shuffled";
  const base = { task: params.task, numbered, header: family.table?.outputHeader ?? [] };

  const opening = `${family.context ? `${family.context}\n\n` : ""}Input:\n`;
  const inputHeader = family.table ? `${family.table.inputHeader}\n` : "";
  let prompt = count(family.instructions) + count(opening) + count(inputHeader);
  let output = family.table ? count(`${tableHeaderLine(base.header)}\n`) : 0;
  let extras = family.trailerBase ? count(`\n${family.trailerBase}\n`) : 0;
  const fixed = prompt + output;

  const accepted: PendingRecord[] = [];
  const take = (record: PendingRecord, inCost: number, outCost: number, extraCost: number) => {
    accepted.push(record);
    prompt += inCost;
    output += outCost;
    extras += extraCost;
  };
  const pending = (k: number): PendingRecord => {
    const id = accepted.length + 1 + k;
    const record = family.next();
    const row: ExpectedRow = record.label
      ? { id, label: record.label, cells: record.cells }
      : { id, cells: record.cells };
    return {
      row,
      record: record.input,
      inputLine: family.table ? record.input : numberedLine(numbered, id, record.input),
      outputLine: family.table
        ? outputRowLine({ ...base, rows: [] }, row)
        : numberedLine(numbered, id, recordText(params.task, record.cells)),
      extra: family.extra?.(accepted.length + k) ?? "",
    };
  };
  for (let done = false; !done; ) {
    // Chunks shrink as the target nears (half the records that still fit, by the mean cost
    // so far), so few records are generated and counted only to be dropped.
    const total = prompt + output + extras;
    const perRecord = accepted.length > 0 ? (total - fixed) / accepted.length : target;
    const size = Math.max(1, Math.min(MAX_CHUNK, Math.floor((target - total) / perRecord / 2)));
    const chunk = Array.from({ length: size }, (_, k) => pending(k));
    // One count per chunk while far from the target; line by line once it is within reach.
    const inCost = count(joinLines(chunk.map((r) => r.inputLine)));
    const outCost = count(joinLines(chunk.map((r) => r.outputLine)));
    const extraCost = family.extra ? count(chunk.map((r) => r.extra).join("")) : 0;
    if (total + inCost + outCost + extraCost < target) {
      for (const [k, record] of chunk.entries()) {
        // Costs are booked once for the whole chunk, on its first record.
        take(record, k === 0 ? inCost : 0, k === 0 ? outCost : 0, k === 0 ? extraCost : 0);
      }
      continue;
    }
    for (const record of chunk) {
      const recordIn = count(`${record.inputLine}\n`);
      const recordOut = count(`${record.outputLine}\n`);
      const recordExtra = record.extra ? count(record.extra) : 0;
      const before = prompt + output + extras;
      const after = before + recordIn + recordOut + recordExtra;
      // Stop before a record that would overshoot further than stopping undershoots.
      if (accepted.length > 0 && after > target && after - target > target - before) {
        done = true;
        break;
      }
      take(record, recordIn, recordOut, recordExtra);
      if (after >= target) {
        done = true;
        break;
      }
    }
  }

  // Tables learn their output order (and the text it needs) once the row count is known.
  const finish = family.finish?.(accepted.length);
  const rows = finish
    ? finish.order.map((i, position) => ({ ...accepted[i]!.row, id: position + 1 }))
    : accepted.map((r) => r.row);
  const inputLines = accepted.map((r) => r.inputLine);
  const presented =
    params.format === "shuffled" ? rng.derive("order").shuffle(inputLines) : inputLines;
  const trailer = finish?.trailer ? `\n${finish.trailer}\n` : "";
  if (trailer) prompt += count(trailer);
  const input = `${opening}${inputHeader}${joinLines(presented)}${trailer}`;
  return {
    id,
    params,
    instructions: family.instructions,
    input,
    records: accepted.map((r) => r.record),
    expected: { ...base, rows },
    tokens: { target, prompt, output, allowance: outputAllowance(params.horizonK) },
  };
}
