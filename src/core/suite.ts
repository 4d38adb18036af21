/** The interface every suite implements, and the environment it makes per episode. */
import type { Renderer } from "./agent.ts";
import type { AgentFactory } from "./agent-factory.ts";
import { hashValue } from "./hash.ts";
import type { EpisodeInspection } from "./inspection.ts";
import type {
  AccessProfile,
  Action,
  Budgets,
  EpisodeOutcome,
  EpisodeRecord,
  EpisodeScore,
  GoalState,
  Json,
  Observation,
  StepResult,
  TaskCard,
  TaskSpec,
  Trace,
} from "./protocol.ts";
import type { ReportModel, ReportTable } from "./report-model.ts";

/** A value or a promise of it: local engines answer synchronously, remote ones may not. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * One episode of one task. Invalid actions come back as feedback, never as exceptions. Budgets
 * are not the environment's to enforce: the episode session ends episodes on them.
 */
export interface Environment {
  /** The task card the agent is told at the start. */
  describe(): TaskCard;
  /** Start (or restart) the episode and return the first observation. */
  reset(): MaybePromise<Observation>;
  /** Apply one action. Only a bug in longhaul throws. */
  step(action: Action): MaybePromise<StepResult>;
  /** Privileged end-of-episode state for the scorer. */
  outcome(): MaybePromise<EpisodeOutcome>;
  /**
   * Privileged latent state as JSON data (no class instances, no live references), handed only
   * to agents whose access profile allows it; the session gives each reader its own deep copy.
   */
  latent?(): Json;
  /** Free what the episode holds (simulators, processes). Idempotent; the session always calls it. */
  close?(): MaybePromise<void>;
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

/**
 * An ordered stream of a suite's tasks: episodes run one after another and the agent's memory
 * is handed forward (e.g. learn on two tasks, then test on a third). Streams run in parallel.
 */
export interface StreamPlan {
  /** Unique among the suite's streams. */
  id: string;
  /** Task ids in play order, each with an optional phase the agent is told; a task is in at most one stream. */
  episodes: { task: string; phase?: string }[];
  /**
   * What the agent is expected to carry forward (the agent is told it with the position):
   * the full trajectories of the earlier episodes, or a skill note distilled from them once
   * the learning phase is over. Left out, the agent keeps its own policy.
   */
  memory?: StreamMemory;
}

/** How a stream asks agents to carry experience forward (see StreamPlan.memory). */
export type StreamMemory = "trajectories" | "skill";

/** A benchmark suite: a deterministic compiler, an environment factory, scorers and reports. */
export interface Suite<P = unknown> {
  id: string;
  version: string;
  title: string;
  /** Tag names the report groups by, in order of importance (family is always grouped). */
  dimensions: string[];
  /** Deterministic: the same options give the same specs, in the same order. */
  compile(options?: CompileOptions): TaskSpec<P>[];
  /**
   * The compile options the suite takes, name -> description. Declared, a run refuses any other
   * key (`--compile typo=1` is a usage error, not silently ignored); left out, keys pass as given.
   */
  compileOptions?: Record<string, string>;
  /**
   * The tag whose value groups tasks that are variants of one another (robograph: the scene,
   * shared by its baseline and interventions), so a train/validation split of training rows
   * (`longhaul export sft`) never separates them. Left out, each task is its own group.
   */
  splitKey?: string;
  /** Named subsets and splits: a predicate over compiled specs. */
  subsets: Record<string, (spec: TaskSpec<P>) => boolean>;
  /** Default per-episode budgets (the papers' limits). */
  budgets: Budgets;
  make(spec: TaskSpec<P>, options: MakeOptions): MaybePromise<Environment>;
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
  /**
   * Ordered streams over the selected specs (after subset, filters and limit); specs in no
   * stream run as independent episodes. Left out, every episode is independent.
   */
  streams?(specs: TaskSpec<P>[]): StreamPlan[];
  /**
   * The suite's rule for what a non-privileged agent must not see: given the latent snapshot
   * taken next to an observation, the strings that observation (and the card) must not contain,
   * e.g. ids of nodes hidden right now. `longhaul check` searches for them.
   */
  hidden?(latent: Json, spec: TaskSpec<P>): string[];
  /**
   * The goals revealed so far in this latent snapshot, remaining and completed, for agents
   * granted `goal-state` (the llm agent's `--memory oracle-state`, MAGMA-Bench 5.1). Revealed
   * goals only: `longhaul check` fails a goal state that names anything suite.hidden() hides.
   */
  goalState?(latent: Json, spec: TaskSpec<P>): GoalState;
  /**
   * What the viewer shows beside the replay of one episode (docs/viewer.md): the scene graph
   * per step with what was visible, or the output compared with the required one record by
   * record. Computed from the task and the logged trace; may replay the episode.
   */
  inspect?(spec: TaskSpec<P>, trace: Trace): MaybePromise<EpisodeInspection>;
}

/** Content hash of a compiled suite: version plus every compiled spec. */
export function suiteHash(suite: Pick<Suite, "id" | "version">, specs: TaskSpec[]): string {
  return hashValue({ suite: suite.id, version: suite.version, specs }).slice(0, 16);
}
