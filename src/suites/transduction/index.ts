/** Long-Transduction (Willette et al.): long read-mutate-write documents with exact scoring. */
import { z } from "zod";
import { parseOrThrow, type Suite, type TaskSpec } from "../../core/index.ts";
import { TRANSDUCTION_AGENTS } from "./agents.ts";
import { aggregateTransduction, positionMetric } from "./aggregate.ts";
import { exportCommand, scoreCommand } from "./commands.ts";
import { generateDocument } from "./document.ts";
import {
  TRANSDUCTION_BUDGETS,
  TransductionEnvironment,
  TransductionLatent,
  TransductionOutcomeData,
} from "./environment.ts";
import { tableVariant } from "./family-table.ts";
import {
  DEFAULT_SEED,
  DocumentParams,
  FORMATS,
  GENERATOR_VERSION,
  gridParams,
  HORIZONS_K,
  TASKS,
  TOKENIZERS,
  taskId,
} from "./params.ts";
import { referenceOutput } from "./reference.ts";
import { transductionRenderer } from "./renderer.ts";
import { transductionStats } from "./stats.ts";

export { referenceAgent, TRANSDUCTION_AGENTS } from "./agents.ts";
export { aggregateTransduction } from "./aggregate.ts";
export { exportCommand, scoreCommand } from "./commands.ts";
export { type DocumentTokens, generateDocument, type TransductionDocument } from "./document.ts";
export { ExpectedOutput, outputLines } from "./expected.ts";
export {
  DEFAULT_SEED,
  DocumentParams,
  GENERATOR_VERSION,
  gridParams,
  outputAllowance,
  parseTaskId,
  taskId,
} from "./params.ts";
export { REFERENCE_KINDS, type ReferenceKind, referenceOutput } from "./reference.ts";
export { transductionRenderer } from "./renderer.ts";
export { transductionStats } from "./stats.ts";
export { type DocumentScore, scoreOutput, stripReasoning } from "./verify.ts";

/** Compile options: the root seed and the tokenizer the budgets are measured with. */
const TransductionCompileOptions = z.looseObject({
  seed: z.string().min(1).optional(),
  tokenizer: z.enum(TOKENIZERS).optional(),
});

/** The compiled spec of one document. */
function specOf(params: DocumentParams): TaskSpec<DocumentParams> {
  const tags: Record<string, string | number> = {
    task: params.task,
    format: params.format,
    difficulty: params.difficulty,
    horizon: `${params.horizonK}k`,
    horizonK: params.horizonK,
    sample: params.sample,
  };
  if (params.task === "table") tags.variant = tableVariant(params);
  return {
    suite: "transduction",
    id: taskId(params),
    family: params.task,
    tags,
    seed: params.seed,
    payload: params,
  };
}

const subsets: Record<string, (spec: TaskSpec<DocumentParams>) => boolean> = {
  smoke: (spec) => spec.payload.horizonK === 4 && spec.payload.sample === 1,
};
for (const h of HORIZONS_K) subsets[`${h}k`] = (spec) => spec.payload.horizonK === h;
for (const task of TASKS) subsets[task] = (spec) => spec.payload.task === task;
for (const format of FORMATS) subsets[format] = (spec) => spec.payload.format === format;

/** The Long-Transduction suite: the frozen 1,440-document grid. */
export const transductionSuite: Suite<DocumentParams> = {
  id: "transduction",
  version: GENERATOR_VERSION,
  title: "Long-Transduction: staying on task over long read-mutate-write documents",
  dimensions: ["horizonK", "task", "format", "difficulty"],
  compile(options = {}) {
    const parsed = parseOrThrow(
      TransductionCompileOptions,
      options,
      "transduction compile options",
    );
    return gridParams(parsed.seed ?? DEFAULT_SEED, parsed.tokenizer ?? "o200k_base").map(specOf);
  },
  subsets,
  budgets: TRANSDUCTION_BUDGETS,
  make(spec, options) {
    const params = parseOrThrow(DocumentParams, spec.payload, `payload of ${spec.id}`);
    return new TransductionEnvironment(generateDocument(params), options);
  },
  score(_spec, outcome) {
    const data = parseOrThrow(TransductionOutcomeData, outcome.data, "transduction outcome");
    const { score, tokens } = data;
    const metrics: Record<string, number | null> = {
      accuracy: score.accuracy,
      exact: score.exact ? 1 : 0,
      records: score.records,
      correct: score.correct,
      selfConsistency: score.selfConsistency,
      promptTokens: tokens.prompt,
      requiredOutputTokens: tokens.output,
    };
    score.positions.forEach((value, i) => {
      metrics[positionMetric(i + 1)] = value;
    });
    return outcome.category
      ? { success: score.exact, category: outcome.category, metrics }
      : { success: score.exact, metrics };
  },
  aggregate: aggregateTransduction,
  renderer: transductionRenderer,
  agents: TRANSDUCTION_AGENTS,
  stats: transductionStats,
  commands: [scoreCommand, exportCommand],
  // `longhaul check`: the required output, whole, never appears in what the agent sees.
  hidden: (latent) => [
    referenceOutput("oracle", parseOrThrow(TransductionLatent, latent, "latent").expected),
  ],
};
