/** The interface every suite implements, and the environment it makes per episode. */
import type { Renderer } from "./agent.ts";
import type { AgentFactory } from "./agent-factory.ts";
import { hashValue } from "./hash.ts";
import type {
  AccessProfile,
  Action,
  Budgets,
  EpisodeOutcome,
  EpisodeRecord,
  EpisodeScore,
  Observation,
  StepResult,
  TaskCard,
  TaskSpec,
  Trace,
} from "./protocol.ts";
import type { ReportModel, ReportTable } from "./report-model.ts";

/** A value or a promise of it: local engines answer synchronously, remote ones may not. */
export type MaybePromise<T> = T | Promise<T>;

/** One episode of one task. Invalid actions come back as feedback, never as exceptions. */
export interface Environment {
  /** The task card the agent is told at the start. */
  describe(): TaskCard;
  /** Start (or restart) the episode and return the first observation. */
  reset(): MaybePromise<Observation>;
  /** Apply one action. Only a bug in longhaul throws. */
  step(action: Action): MaybePromise<StepResult>;
  /** Privileged end-of-episode state for the scorer. */
  outcome(): EpisodeOutcome;
  /** Privileged live latent state, handed only to agents whose access profile allows it. */
  latent?(): unknown;
}

/** Options the runner passes when making an environment. */
export interface MakeOptions {
  access: AccessProfile;
  budgets?: Budgets;
}

/** Options a suite's compiler takes; suites define their own keys beside the seed. */
export interface CompileOptions {
  seed?: string;
  [key: string]: unknown;
}

/** A named table set for `longhaul stats <suite>`. */
export interface StatsModel {
  suite: string;
  tables: ReportTable[];
  summary: Record<string, number>;
}

/** A suite-specific command (e.g. `score`, `compile`, `export`), wired generically by the CLI. */
export interface SuiteCommand {
  name: string;
  description: string;
  options: { flag: string; description: string; required?: boolean }[];
  /** Runs with the parsed option values and positional arguments; returns a printable result. */
  run(
    options: Record<string, string | boolean | undefined>,
    args: string[],
  ): Promise<{ text: string; json: unknown }>;
}

/** A benchmark suite: a deterministic compiler, an environment factory, scorers and reports. */
export interface Suite<P = unknown> {
  id: string;
  version: string;
  title: string;
  /** Tag names the report groups by, in order of importance (family is always grouped). */
  dimensions: string[];
  /** Deterministic: the same options give the same specs, in the same order. */
  compile(options?: CompileOptions): TaskSpec<P>[];
  /** Named subsets and splits: a predicate over compiled specs. */
  subsets: Record<string, (spec: TaskSpec<P>) => boolean>;
  /** Default per-episode budgets (the papers' limits). */
  budgets: Budgets;
  make(spec: TaskSpec<P>, options: MakeOptions): Environment;
  /** Score one episode from the environment's privileged outcome and the trace. */
  score(spec: TaskSpec<P>, outcome: EpisodeOutcome, trace: Trace): EpisodeScore;
  /** The paper's aggregate tables over a set of records. */
  aggregate(records: EpisodeRecord[]): ReportModel;
  /** Renders prompts and parses replies for the generic llm agent. */
  renderer?: Renderer;
  /** Suite-specific agents (oracle, baselines, reference agents); see AgentFactory. */
  agents?: AgentFactory[];
  /** Per-task statistics for `longhaul stats`. */
  stats?(specs: TaskSpec<P>[]): StatsModel;
  /** Extra commands, e.g. `longhaul score transduction`. */
  commands?: SuiteCommand[];
}

/** Content hash of a compiled suite: version plus every compiled spec. */
export function suiteHash(suite: Pick<Suite, "id" | "version">, specs: TaskSpec[]): string {
  return hashValue({ suite: suite.id, version: suite.version, specs }).slice(0, 16);
}
