/** EmbodiedCLBench (continual learning through compositional generalization) as a longhaul suite. */
import {
  DEFAULT_ACCESS,
  type Json,
  LonghaulError,
  type StatsModel,
  type Suite,
  type TaskSpec,
} from "../../core/index.ts";
import { greedyLexicalAgent, oracleAgent } from "./agents.ts";
import { aggregateRecords } from "./aggregate.ts";
import { type ContinualCompileOptions, compileContinual, streamsOf } from "./compile.ts";
import { ContinualEnvironment, type ContinualLatent } from "./environment.ts";
import { continualGoalState } from "./goal-state.ts";
import { inspectContinual } from "./inspect.ts";
import { outcomeData, scoreOutcome } from "./metrics.ts";
import { type ContinualPayload, taskIdOf } from "./payload.ts";
import { continualRenderer } from "./renderer.ts";
import { CATEGORIES } from "./task.ts";

export { greedyLexicalAgent, oracleAgent } from "./agents.ts";
export { aggregateRecords } from "./aggregate.ts";
export { CONTINUAL_ACTIONS, CONTINUAL_CATALOG } from "./catalog.ts";
export { type ContinualCompileOptions, compileContinual, DEFAULT_SEED } from "./compile.ts";
export { ContinualEnvironment, type ContinualOutcome, type ContinualView } from "./environment.ts";
export { type Grade, grade } from "./grader.ts";
export { loadSource } from "./import.ts";
export type { ContinualPayload, Setting } from "./payload.ts";
export { CATEGORIES } from "./task.ts";

/** What a non-privileged agent must never see: the hidden roles, action ids and state ids. */
function hidden(latent: Json): string[] {
  const l = latent as unknown as ContinualLatent;
  return ["success_path", "valid_detour", l.state, ...l.choices.map((c) => c.action)];
}

function stats(specs: TaskSpec<ContinualPayload>[]): StatsModel {
  // One spec per task: the zero-shot episodes, whatever their budget.
  const seen = new Set<string>();
  const zero = specs.filter((s) => {
    const id = taskIdOf(s.payload);
    if (s.payload.setting !== "zero-shot" || seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  const basic = zero.filter((s) => s.tags.level === "basic");
  const advanced = zero.filter((s) => s.tags.level === "advanced");
  const count = (xs: TaskSpec<ContinualPayload>[], key: string) => {
    const out = new Map<string, number>();
    for (const s of xs) out.set(String(s.tags[key]), (out.get(String(s.tags[key])) ?? 0) + 1);
    return [...out].sort();
  };
  return {
    suite: "continual",
    summary: {
      tasks: basic.length + advanced.length,
      basic: basic.length,
      advanced: advanced.length,
      episodes: specs.length,
      streams: streamsOf(specs).length,
    },
    tables: [
      {
        title: "Basic tasks per capability category (Table 2)",
        columns: ["Category", "Question", "Tasks"],
        rows: CATEGORIES.map((c) => [
          c.title,
          c.question,
          basic.filter((s) => s.tags.category === c.id).length,
        ]),
      },
      {
        title: "Advanced tasks per number of categories",
        columns: ["Categories", "Tasks"],
        rows: count(advanced, "ncat").map(([k, n]) => [k, n]),
      },
      {
        title: "Shortest paths",
        columns: ["Level", "Path length", "Tasks"],
        rows: [
          ...count(basic, "path_length").map(([k, n]) => ["basic", k, n]),
          ...count(advanced, "path_length").map(([k, n]) => ["advanced", k, n]),
        ],
      },
    ],
  };
}

/** The EmbodiedCLBench suite: 268 tasks (168 basic, 100 advanced) in three settings. */
export const continualSuite: Suite<ContinualPayload> = {
  id: "continual",
  version: "1.0.0",
  title: "EmbodiedCLBench: continual learning from basic to composed household tasks",
  dimensions: ["setting", "level", "phase", "height"],
  compile: (options = {}) => compileContinual(options as ContinualCompileOptions),
  subsets: {
    "zero-shot": (s) => s.payload.setting === "zero-shot",
    icl: (s) => s.payload.setting === "icl",
    skill: (s) => s.payload.setting === "skill",
    basic: (s) => s.payload.setting === "zero-shot" && s.tags.level === "basic",
    advanced: (s) => s.payload.phase === "test" && s.tags.level === "advanced",
    smoke: (s) =>
      ["L2-child-001", "L4-child-001"].includes(s.id.split("/")[1] ?? "") ||
      s.tags.target === "L4-child-001",
  },
  budgets: {},
  make: (spec, options) =>
    new ContinualEnvironment(spec, options.access ?? DEFAULT_ACCESS, options.budgets),
  score(_spec, outcome) {
    if (outcome.data === undefined)
      throw new LonghaulError("INVALID_INPUT", "continual outcome has no data");
    return scoreOutcome(outcomeData(outcome.data));
  },
  aggregate: aggregateRecords,
  renderer: continualRenderer,
  agents: [oracleAgent, greedyLexicalAgent],
  stats,
  streams: streamsOf,
  hidden,
  goalState: continualGoalState,
  inspect: inspectContinual,
};
