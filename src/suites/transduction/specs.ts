/** The compiled grid: one TaskSpec per document, its tags, the compile options and subsets. */
import { z } from "zod";
import { parseOrThrow, type TaskSpec } from "../../core/index.ts";
import {
  DEFAULT_SEED,
  DEFAULT_TOKENIZER,
  type DocumentParams,
  FORMATS,
  gridParams,
  HORIZONS_K,
  type ScoringMode,
  TABLE_VARIANTS,
  TASKS,
  type TaskPayload,
  TOKENIZERS,
  taskId,
} from "./params.ts";

/**
 * Compile options: the root seed, the tokenizer the budgets are measured with (named in every
 * task card and tag, and in run.json's config when given), and strict scoring. Values may be
 * strings, as `--compile k=v` passes them.
 */
const TransductionCompileOptions = z.looseObject({
  seed: z.string().min(1).optional(),
  tokenizer: z.enum(TOKENIZERS).optional(),
  strict: z
    .union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")])
    .optional(),
});

/** A compiled transduction task. */
export type TransductionSpec = TaskSpec<TaskPayload>;

/** The compiled spec of one document. */
export function specOf(document: DocumentParams, scoring: ScoringMode): TransductionSpec {
  const tags: Record<string, string | number> = { task: document.task };
  // Tables have variants where the line tasks have formats: only formats are compared.
  if (document.task === "table") tags.variant = document.format;
  else tags.format = document.format;
  Object.assign(tags, {
    difficulty: document.difficulty,
    horizon: `${document.horizonK}k`,
    horizonK: document.horizonK,
    sample: document.sample,
    tokenizer: document.tokenizer,
  });
  if (scoring === "strict") tags.scoring = scoring;
  return {
    suite: "transduction",
    id: taskId(document),
    family: document.task,
    tags,
    seed: document.seed,
    payload: { document, scoring },
  };
}

/** The frozen grid under the given compile options. */
export function compileGrid(options: Record<string, unknown> = {}): TransductionSpec[] {
  const parsed = parseOrThrow(TransductionCompileOptions, options, "transduction compile options");
  const scoring: ScoringMode = parsed.strict ? "strict" : "reference";
  return gridParams(parsed.seed ?? DEFAULT_SEED, parsed.tokenizer ?? DEFAULT_TOKENIZER).map(
    (document) => specOf(document, scoring),
  );
}

/** Named subsets: `smoke` (4K, sample 1), each horizon, task, format and table variant. */
export const SUBSETS: Record<string, (spec: TransductionSpec) => boolean> = {
  smoke: (spec) => spec.payload.document.horizonK === 4 && spec.payload.document.sample === 1,
};
for (const h of HORIZONS_K) SUBSETS[`${h}k`] = (spec) => spec.payload.document.horizonK === h;
for (const task of TASKS) SUBSETS[task] = (spec) => spec.payload.document.task === task;
for (const layout of [...FORMATS, ...TABLE_VARIANTS]) {
  SUBSETS[layout] = (spec) => spec.payload.document.format === layout;
}
