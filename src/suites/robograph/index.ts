/** RoboGraphBench (RoboGraph, task-state horizons) as a longhaul suite. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  DEFAULT_ACCESS,
  defineAgent,
  LonghaulError,
  NO_OPTIONS,
  type Suite,
  type SuiteCommand,
  suiteHash,
  type TaskSpec,
} from "../../core/index.ts";
import { aggregateRecords } from "./aggregate.ts";
import {
  compileFamilies,
  compileSuite,
  DEFAULT_SEED,
  type RoboGraphCompileOptions,
  type RoboGraphPayload,
} from "./compiler.ts";
import { MAX_STEPS, RoboGraphEnvironment } from "./environment.ts";
import { explorerAgent } from "./explorer-agent.ts";
import { exportPddlCommand } from "./export-command.ts";
import { loadFamilyFile } from "./family-spec.ts";
import { robographGoalState } from "./goal-state.ts";
import { hiddenNodeIds } from "./hidden.ts";
import { inspectRoboGraph } from "./inspect.ts";
import { episodeMetrics } from "./metrics.ts";
import { oracleAgent } from "./oracle-agent.ts";
import { OutcomeData } from "./outcome.ts";
import { robographRenderer } from "./renderer.ts";
import { suiteStats } from "./stats.ts";

export type { RoboGraphCompileOptions, RoboGraphPayload } from "./compiler.ts";
export { RoboGraphEnvironment } from "./environment.ts";
export { explorerAgent } from "./explorer-agent.ts";
export { BUILTIN_FAMILY_FILES, builtinFamilies } from "./families.ts";
export { FamilySpec, loadFamilyFile, parseFamily } from "./family-spec.ts";
export { atomText, robographGoalState } from "./goal-state.ts";
export { OutcomeData } from "./outcome.ts";

const compileCommand: SuiteCommand = {
  name: "compile",
  description: "Compile a task-family file (YAML or JSON) into RoboGraph task specs",
  options: [
    { flag: "--out <dir>", description: "write <dir>/tasks.json (default: print a summary only)" },
    { flag: "--seed <seed>", description: `root seed (default ${DEFAULT_SEED})` },
  ],
  async run(options, args) {
    const file = args[0];
    if (!file) throw new LonghaulError("USAGE", "compile needs a family file");
    const family = loadFamilyFile(file);
    const seed = typeof options.seed === "string" ? options.seed : DEFAULT_SEED;
    const specs = compileFamilies([family], seed);
    const hash = suiteHash(robographSuite, specs);
    if (typeof options.out === "string") {
      mkdirSync(options.out, { recursive: true });
      writeFileSync(join(options.out, "tasks.json"), `${JSON.stringify(specs, null, 2)}\n`);
    }
    const scenes = specs.filter((s) => s.payload.condition === "base");
    const text = [
      `${family.id} (${family.domain}): ${scenes.length} scenes, ${specs.length} episodes, hash ${hash}`,
      ...scenes.map(
        (s) =>
          `  ${s.payload.scene}: ${s.payload.stats.nodes} nodes, ${s.payload.stats.goalPredicates} goal predicates, L_o ${s.payload.oracle.length}`,
      ),
      ...(typeof options.out === "string" ? [`wrote ${join(options.out, "tasks.json")}`] : []),
      `run it with: longhaul run robograph --compile familyFile=${file}`,
    ].join("\n");
    return { text, json: { family: family.id, hash, episodes: specs.map((s) => s.id) } };
  },
};

/** The RoboGraphBench suite: 84 scenes x {baseline, I1..I6} = 588 episodes. */
export const robographSuite: Suite<RoboGraphPayload> = {
  id: "robograph",
  version: "2.0.0",
  title: "RoboGraphBench: task-state horizons for embodied agents",
  dimensions: ["domain", "condition", "scene"],
  compile: (options = {}) => compileSuite(options as RoboGraphCompileOptions),
  compileOptions: {
    seed: "root seed of the source scenes",
    familyFile: "a YAML/JSON family file compiled instead of the built-in families",
  },
  subsets: {
    tabletop: (s) => s.tags.domain === "tabletop",
    indoor: (s) => s.tags.domain === "indoor",
    baseline: (s) => s.tags.condition === "base",
    interventions: (s) => s.tags.condition !== "base",
  },
  budgets: { maxSteps: MAX_STEPS },
  make: (spec: TaskSpec<RoboGraphPayload>, options) =>
    new RoboGraphEnvironment(
      spec,
      options.access ?? DEFAULT_ACCESS,
      options.budgets ?? { maxSteps: MAX_STEPS },
    ),
  score(_spec, outcome, trace) {
    const data = OutcomeData.safeParse(outcome.data);
    if (!data.success)
      throw new LonghaulError("INVALID_INPUT", "robograph outcome data is malformed");
    return episodeMetrics(data.data, trace);
  },
  aggregate: aggregateRecords,
  renderer: robographRenderer,
  agents: [
    defineAgent({
      name: "oracle",
      description: "privileged: plans optimally on the latent world, replans after surprises",
      privileged: true,
      options: NO_OPTIONS,
      create: () => oracleAgent(),
    }),
    defineAgent({
      name: "explorer",
      description: "honest baseline: a belief graph of what it has seen and a greedy planner",
      options: NO_OPTIONS,
      create: () => explorerAgent(),
    }),
    defineAgent({
      name: "explorer-window",
      description:
        "the explorer's policy on the appendix B payload alone: current view and 16-step history, no memory beyond",
      options: NO_OPTIONS,
      create: () => explorerAgent({ window: true }),
    }),
  ],
  stats: (specs) => suiteStats(specs),
  commands: [compileCommand, exportPddlCommand],
  // A scene's baseline and its interventions I1-I6 share one graph: one split group.
  splitKey: "scene",
  hidden: hiddenNodeIds,
  goalState: robographGoalState,
  inspect: inspectRoboGraph,
};
