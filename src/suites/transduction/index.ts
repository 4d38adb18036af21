/** Long-Transduction (Willette et al.): long read-mutate-write documents with exact scoring. */
import { parseOrThrow, type Suite } from "../../core/index.ts";
import { TRANSDUCTION_AGENTS } from "./agents.ts";
import { aggregateTransduction, positionMetric } from "./aggregate.ts";
import { exportCommand, exportNemoGymCommand, scoreCommand } from "./commands.ts";
import { generateDocument } from "./document.ts";
import {
  TRANSDUCTION_BUDGETS,
  TransductionEnvironment,
  TransductionLatent,
  TransductionOutcomeData,
} from "./environment.ts";
import { inspectTransduction } from "./inspect.ts";
import { GENERATOR_VERSION, TaskPayload } from "./params.ts";
import { referenceOutput } from "./reference.ts";
import { transductionRenderer } from "./renderer.ts";
import { compileGrid, SUBSETS } from "./specs.ts";
import { transductionStats } from "./stats.ts";

export { referenceAgent, TRANSDUCTION_AGENTS } from "./agents.ts";
export { aggregateTransduction } from "./aggregate.ts";
export { exportCommand, exportNemoGymCommand, scoreCommand } from "./commands.ts";
export { type DocumentTokens, generateDocument, type TransductionDocument } from "./document.ts";
export { ExpectedOutput, outputLines } from "./expected.ts";
export {
  DEFAULT_SEED,
  DEFAULT_TOKENIZER,
  DocumentParams,
  GENERATOR_VERSION,
  gridParams,
  outputAllowance,
  parseTaskId,
  type ScoringMode,
  TaskPayload,
  taskId,
} from "./params.ts";
export { REFERENCE_KINDS, type ReferenceKind, referenceOutput } from "./reference.ts";
export { transductionRenderer } from "./renderer.ts";
export { compileGrid, SUBSETS, specOf, type TransductionSpec } from "./specs.ts";
export { transductionStats } from "./stats.ts";
export { type DocumentScore, scoreOutput, stripReasoning } from "./verify.ts";

/** The Long-Transduction suite: the frozen 1,440-document grid. */
export const transductionSuite: Suite<TaskPayload> = {
  id: "transduction",
  version: GENERATOR_VERSION,
  title: "Long-Transduction: staying on task over long read-mutate-write documents",
  dimensions: ["horizonK", "task", "format", "variant", "difficulty"],
  compile: compileGrid,
  compileOptions: {
    seed: "root seed of the documents",
    tokenizer: "the tokenizer the budgets are measured with",
    strict: "strict scoring (true|false)",
  },
  subsets: SUBSETS,
  budgets: TRANSDUCTION_BUDGETS,
  make(spec, options) {
    const payload = parseOrThrow(TaskPayload, spec.payload, `payload of ${spec.id}`);
    return new TransductionEnvironment(
      generateDocument(payload.document),
      options,
      payload.scoring,
    );
  },
  score(_spec, outcome) {
    const data = parseOrThrow(TransductionOutcomeData, outcome.data, "transduction outcome");
    const { score, tokens } = data;
    const metrics: Record<string, number | null> = {
      accuracy: score.accuracy,
      answerAccuracy: score.records > 0 ? score.answers / score.records : 0,
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
  commands: [scoreCommand, exportCommand, exportNemoGymCommand],
  inspect: (spec, trace) =>
    inspectTransduction(
      { ...spec, payload: parseOrThrow(TaskPayload, spec.payload, `payload of ${spec.id}`) },
      trace,
    ),
  // One goal, revealed by the card: the whole output, written in the episode's one decision
  // (the episode ends with it, so no decision ever sees it completed). Never the output itself.
  goalState: (latent) => {
    const { expected } = parseOrThrow(TransductionLatent, latent, "latent");
    const what = expected.task === "table" ? "table rows" : "records";
    return {
      remaining: [`write the required output: all ${expected.rows.length} ${what}, in order`],
      completed: [],
    };
  },
  // `longhaul check`: the required output, whole, never appears in what the agent sees.
  hidden: (latent) => [
    referenceOutput("oracle", parseOrThrow(TransductionLatent, latent, "latent").expected),
  ],
};
