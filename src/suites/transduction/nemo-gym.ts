/**
 * Interop with the authors' reference harness (NVIDIA NeMo Gym, resources_servers/
 * long_transduction): documents as the JSONL rows it consumes, and rollouts in that row
 * shape scored with this suite's verifier. A row carries the request
 * (`responses_create_params`, `question`), the task `type` its verifier dispatches on, and
 * the fields that verifier reads for that type (`expressions`, `uuid_lines`,
 * `expected_output`, `n_rows`, `n_cols`), plus the difficulty knob and `target_tokens` its
 * metrics group by. Rows made here also carry `longhaul` provenance, which it ignores.
 */
import { z } from "zod";
import { LonghaulError, parseOrThrow } from "../../core/index.ts";
import type { TransductionDocument } from "./document.ts";
import { type ExpectedOutput, type ExpectedRow, outputLines } from "./expected.ts";
import { itemsPerRecord } from "./family.ts";
import { POOL_SIZES } from "./family-lookup.ts";
import { KV_VOCABULARY, PERM_FRACTIONS } from "./family-table.ts";
import { GENERATOR_VERSION, inputBudget, type ScoringMode, type TaskName } from "./params.ts";
import { type DocumentScore, scoreOutput } from "./verify.ts";

/** The reference's task type of each task and format (tables: variant). */
const ROW_TYPES: Record<TaskName, Record<string, string>> = {
  arith: {
    ordered: "streaming_sum",
    shuffled: "shuffled_streaming_sum",
    unnumbered: "unnumbered_streaming_sum",
  },
  uuid: {
    ordered: "streaming_uuid_sort",
    shuffled: "shuffled_streaming_uuid_sort",
    unnumbered: "unnumbered_uuid_sort",
  },
  lookup: {
    ordered: "streaming_var_expand",
    shuffled: "shuffled_streaming_var_expand",
    unnumbered: "unnumbered_var_expand",
  },
  table: {
    "permute-int": "csv_permutation_homogeneous",
    "permute-hex": "csv_permutation_heterogeneous",
    kv: "csv_kv_lookup",
  },
};

/** The task each reference type belongs to, and whether its lines are numbered. */
function taskOfType(type: string): { task: TaskName; numbered: boolean } | undefined {
  for (const [task, types] of Object.entries(ROW_TYPES) as [TaskName, Record<string, string>][]) {
    for (const [layout, name] of Object.entries(types)) {
      if (name === type) return { task, numbered: layout === "ordered" || layout === "shuffled" };
    }
  }
  return undefined;
}

/** Every type the reference verifier knows. */
export const ROW_TYPE_NAMES = Object.values(ROW_TYPES).flatMap((t) => Object.values(t));

/** The task fields of a row, as the reference verifier reads them for the document's type. */
function verifierFields(doc: TransductionDocument): Record<string, unknown> {
  const { params, expected, records } = doc;
  const d = params.difficulty - 1;
  switch (params.task) {
    case "arith":
      return {
        expressions: expected.rows.map((r) => ({ expr: r.cells[0], answer: Number(r.cells[1]) })),
        n_expressions: expected.rows.length,
        max_operands: itemsPerRecord(params.difficulty),
      };
    case "uuid": {
      const lines = records.map((r) => r.split(","));
      return {
        uuid_lines: lines,
        expressions: lines.map((ids) => ({ expr: ids, answer: ids.slice().sort() })),
        n_lines: lines.length,
        uuids_per_line: itemsPerRecord(params.difficulty),
      };
    }
    case "lookup":
      return {
        expressions: expected.rows.map((r, i) => ({ expr: records[i], answer: r.cells[0] })),
        n_expressions: expected.rows.length,
        n_variables: POOL_SIZES[d],
      };
    case "table": {
      const shape = { n_rows: expected.rows.length, n_cols: expected.header.length };
      if (params.format !== "kv") return { ...shape, perm_fraction: PERM_FRACTIONS[d] };
      // The reference's knob is a fraction of its vocabulary; ours of the largest one (32).
      const n = KV_VOCABULARY[d]!;
      return { ...shape, n_vocab: n, vocab_fraction: n / KV_VOCABULARY.at(-1)! };
    }
  }
}

/** One document as a row of the reference harness's dataset JSONL. */
export function nemoGymRow(doc: TransductionDocument): Record<string, unknown> {
  const question = `${doc.instructions}\n\n${doc.input}`;
  return {
    responses_create_params: {
      input: [{ role: "user", content: question, type: "message" }],
      max_output_tokens: doc.tokens.allowance,
      temperature: 0,
    },
    type: ROW_TYPES[doc.params.task][doc.params.format],
    question,
    expected_output: outputLines(doc.expected).join("\n"),
    ...verifierFields(doc),
    // The reference's budget is the input's: half this suite's input + output horizon.
    target_tokens: inputBudget(doc.params.horizonK),
    approx_prompt_tokens: doc.tokens.prompt,
    longhaul: {
      id: doc.id,
      version: GENERATOR_VERSION,
      params: doc.params,
      required_output_tokens: doc.tokens.output,
    },
  };
}

const Expression = z.looseObject({
  expr: z.union([z.string(), z.array(z.string())]),
  answer: z.union([z.number(), z.string(), z.array(z.string())]),
});

/** A rollout row: the reference's row fields the verifier reads, and the model's response. */
const RolloutRow = z.looseObject({
  type: z.string().nullish(),
  expressions: z.array(Expression).nullish(),
  uuid_lines: z.array(z.array(z.string())).nullish(),
  expected_output: z.string().nullish(),
  n_rows: z.number().int().nonnegative().nullish(),
  n_cols: z.number().int().nonnegative().nullish(),
  target_tokens: z.number().nullish(),
  reward: z.number().nullish(),
  longhaul: z.looseObject({ id: z.string() }).nullish(),
  response: z.union([
    z.string(),
    z.looseObject({
      output: z.array(
        z.looseObject({
          type: z.string(),
          content: z
            .array(z.looseObject({ type: z.string(), text: z.string().optional() }))
            .nullish(),
        }),
      ),
    }),
  ]),
});
type RolloutRow = z.infer<typeof RolloutRow>;

/** The generated text of a response: its messages' output text, joined as the reference does. */
function responseText(response: RolloutRow["response"]): string {
  if (typeof response === "string") return response;
  return response.output
    .filter((item) => item.type === "message")
    .flatMap((item) => item.content ?? [])
    .filter((part) => part.type === "output_text")
    .map((part) => part.text ?? "")
    .join("");
}

function need<T>(value: T | null | undefined, field: string, type: string): T {
  if (value === null || value === undefined) {
    throw new LonghaulError("INVALID_INPUT", `${field}: required for type ${type}`);
  }
  return value;
}

/**
 * Cells of a CSV grid as the reference reads it: a first line opening with a comma is the
 * header; each row's first cell is its label; missing cells are empty.
 */
function csvRows(text: string, nRows: number, nCols: number): ExpectedRow[] {
  const lines = text.split("\n").filter((line) => line.trim().length > 0);
  const start = lines[0]?.startsWith(",") ? 1 : 0;
  return Array.from({ length: nRows }, (_, i) => {
    const parts = (lines[start + i] ?? "").split(",");
    const cells = Array.from({ length: nCols }, (_, j) => parts[j + 1]?.trim() ?? "");
    return { id: i + 1, label: parts[0]?.trim() ?? "", cells };
  });
}

/** The required output a row's verifier fields describe. */
export function expectedOfRow(row: RolloutRow): ExpectedOutput {
  // Rows without a type are the reference's default, unnumbered arithmetic.
  const type = row.type ?? "unnumbered_streaming_sum";
  const kind = taskOfType(type);
  if (!kind) {
    throw new LonghaulError(
      "INVALID_INPUT",
      `type: "${type}" is not a long_transduction type (${ROW_TYPE_NAMES.join(", ")})`,
    );
  }
  const base = { task: kind.task, numbered: kind.numbered };
  const text = (v: unknown) => (Array.isArray(v) ? v.join(",") : String(v));
  if (kind.task !== "table") {
    // Arithmetic keeps its expression beside the value; identifiers are compared sorted.
    const cells: string[][] =
      kind.task === "uuid"
        ? need(row.uuid_lines, "uuid_lines", type).map((ids) =>
            ids.map((id) => id.toLowerCase()).sort(),
          )
        : need(row.expressions, "expressions", type).map((e) =>
            kind.task === "arith" ? [text(e.expr), text(e.answer)] : [text(e.answer)],
          );
    return { ...base, header: [], rows: cells.map((c, k) => ({ id: k + 1, cells: c })) };
  }
  const nCols = need(row.n_cols, "n_cols", type);
  return {
    ...base,
    header: Array.from({ length: nCols }, (_, j) => `[C${j}]`),
    rows: csvRows(
      need(row.expected_output, "expected_output", type),
      need(row.n_rows, "n_rows", type),
      nCols,
    ),
  };
}

/** The verdict on one rollout row. */
export interface RolloutScore {
  /** 1-based line of the row in its file. */
  line: number;
  type: string;
  id: string | null;
  targetTokens: number | null;
  score: DocumentScore;
  /** The reference's reward: answers right / records (arithmetic: the value alone). */
  reward: number;
  /** The reward the row recorded, when it has one. */
  recordedReward: number | null;
}

/** Score every row of a rollouts JSONL text; a malformed row is an error naming its line. */
export function scoreRollouts(text: string, file: string, mode: ScoringMode): RolloutScore[] {
  const out: RolloutScore[] = [];
  text.split("\n").forEach((raw, index) => {
    if (raw.trim().length === 0) return;
    const where = `${file} line ${index + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      throw new LonghaulError("INVALID_INPUT", `${where}: not JSON: ${(error as Error).message}`);
    }
    const row = parseOrThrow(RolloutRow, json, where);
    let expected: ExpectedOutput;
    try {
      expected = expectedOfRow(row);
    } catch (error) {
      if (error instanceof LonghaulError) {
        throw new LonghaulError("INVALID_INPUT", `${where}: ${error.message}`);
      }
      throw error;
    }
    const score = scoreOutput(expected, responseText(row.response), mode);
    out.push({
      line: index + 1,
      type: row.type ?? "unnumbered_streaming_sum",
      id: row.longhaul?.id ?? null,
      targetTokens: row.target_tokens ?? null,
      score,
      reward: score.records > 0 ? score.answers / score.records : 0,
      recordedReward: row.reward ?? null,
    });
  });
  if (out.length === 0) throw new LonghaulError("INVALID_INPUT", `${file} holds no rollout rows`);
  return out;
}
