/** MAGMA-Bench (seed 000) as a longhaul suite on the discrete-event simulator (src/sim). */
import { DEFAULT_ACCESS, LonghaulError, type Suite, type TaskSpec } from "../../core/index.ts";
import { MAGMA_AGENTS } from "./agents.ts";
import { aggregateRecords } from "./aggregate.ts";
import { compileSuite, type MagmaCompileOptions } from "./compiler.ts";
import { MagmaEnvironment } from "./environment.ts";
import { FAMILIES } from "./families/index.ts";
import type { Family } from "./family.ts";
import { magmaGoalState } from "./goal-state.ts";
import { hiddenStrings } from "./hidden.ts";
import { magmaHttpAgent } from "./magma-http.ts";
import { scoreEpisode } from "./metrics.ts";
import { magmaRenderer } from "./renderer.ts";
import { suiteStats } from "./stats.ts";
import { CONDITIONS, type MagmaPayload } from "./types.ts";

export { compileSuite, conditionsOf, type MagmaCompileOptions, specDefs } from "./compiler.ts";
export { MagmaEnvironment, type MagmaLatent, type MagmaView } from "./environment.ts";
export { Expert } from "./expert.ts";
export { FAMILIES } from "./families/index.ts";
export type { Family, SkillDef } from "./family.ts";
export { LABELS, type MagmaOutcome } from "./outcome.ts";
export { runExpert } from "./run-expert.ts";
export { TABLE2 } from "./table2.ts";
export type { Condition, MagmaPayload, Stage } from "./types.ts";

/**
 * Decisions per episode by default: generous against the longest missions (90 skills, with
 * perturbations, text stages and multi-robot waits), so only an agent that stalls reaches it.
 */
export const MAX_DECISIONS = 400;

/** The family a spec belongs to (an unknown one is invalid input). */
function familyOf(spec: TaskSpec<MagmaPayload>): Family {
  const module = FAMILIES[spec.payload.family];
  if (!module)
    throw new LonghaulError("INVALID_INPUT", `unknown MAGMA family ${spec.payload.family}`);
  return module.family;
}

/** The MAGMA-Bench suite: 99 specs x their conditions x 3 realizations = 1,254 episodes. */
export const magmaSuite: Suite<MagmaPayload> = {
  id: "magma",
  version: "1.0.0",
  title: "MAGMA-Bench: asynchronous multi-robot missions",
  dimensions: ["bucket", "condition", "track", "multi"],
  compile: (options = {}) => compileSuite(options as MagmaCompileOptions),
  compileOptions: {
    seed: "root seed of the missions, scenes and faults",
    judge: "provider:model of a pinned LLM judge for open answers (also `run --judge`)",
    judgeBaseUrl: "the judge's endpoint, e.g. a local OpenAI-compatible server",
    judgePrices: "a price table file (YAML or JSON) with the judge's prices",
    families: "comma-separated family ids to compile (all by default)",
  },
  subsets: {
    mini: (s) => s.tags.mini === 1,
    clean: (s) => s.tags.condition === "CE",
    perturbed: (s) => s.tags.condition !== "CE",
    single: (s) => s.tags.multi === "single",
    multi: (s) => s.tags.multi === "multi",
    ...Object.fromEntries(
      CONDITIONS.map((c) => [c, (s: TaskSpec<MagmaPayload>) => s.tags.condition === c]),
    ),
  },
  budgets: { maxSteps: MAX_DECISIONS },
  async make(spec, options) {
    const family = familyOf(spec);
    const judge = spec.payload.judge
      ? (await import("./judge-llm.ts")).llmJudge(spec.payload.judge)
      : undefined;
    return new MagmaEnvironment(spec, family, options.access ?? DEFAULT_ACCESS, judge);
  },
  score: (_spec, outcome, trace) => scoreEpisode(outcome, trace),
  aggregate: aggregateRecords,
  renderer: magmaRenderer,
  agents: [...MAGMA_AGENTS, magmaHttpAgent],
  stats: (specs) => suiteStats(specs),
  hidden: (latent, spec) => hiddenStrings(latent, spec, familyOf(spec)),
  goalState: magmaGoalState,
};
