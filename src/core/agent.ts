/** The agent side of the protocol: agents, their sessions, decisions and prompt renderers. */
import type { CallGate } from "./limiter.ts";
import type {
  AccessProfile,
  Action,
  Budgets,
  GoalState,
  Json,
  ModelCall,
  Observation,
  StreamPosition,
  TaskCard,
  TaskSpec,
  TraceStep,
  Usage,
} from "./protocol.ts";
import type { Rng } from "./rng.ts";
import type { MaybePromise } from "./suite.ts";

/** One decision: an action (or an unusable output), its cost and the raw model output. */
export interface Decision {
  /** Absent when the agent's output was unusable; then `formatError` says why. */
  action?: Action;
  formatError?: string;
  raw?: string;
  /** A short free-text note for the log (e.g. the model's stated reason). */
  note?: string;
  usage?: Usage;
  calls?: ModelCall[];
  /** Suite-defined structured fields the scorer reads (e.g. RoboGraph's recovery block). */
  extra?: Record<string, unknown>;
}

/** What the runner tells an agent when an episode starts. */
export interface AgentContext {
  episodeId: string;
  epoch: number;
  /** A stream derived from the run seed, the episode and the agent. */
  rng: Rng;
  signal: AbortSignal;
  budgets: Budgets;
  access: AccessProfile;
  /** Model calls go through this gate so concurrency adapts to rate limits. */
  gate: CallGate;
  /**
   * Present only when access.privileged: the compiled spec and a snapshot of the latent state
   * (a fresh JSON copy per call; undefined when the environment exposes none).
   */
  privileged?: { spec: TaskSpec; latent: () => Json | undefined };
  /**
   * Present only when access grants `goal-state` and the suite defines Suite.goalState: the
   * goals revealed so far, remaining and completed, read fresh at each call.
   */
  goalState?: () => GoalState | undefined;
  /** Set when the episode is part of an ordered stream. */
  stream?: StreamPosition;
  /** In a stream: the memory the stream's previous episode ended with (see AgentSession.snapshot). */
  memory?: Json;
}

/** One agent's handle on one episode. */
export interface AgentSession {
  act(observation: Observation): Promise<Decision>;
  end?(summary: { success: boolean; steps: number }): Promise<void>;
  /**
   * In a stream: the agent's memory after this episode, as JSON, handed to the stream's next
   * episode as `context.memory` and checkpointed in the run directory for resume.
   */
  snapshot?(): MaybePromise<Json>;
}

/** An agent: starts one session per episode. */
export interface Agent {
  id: string;
  /** Concurrency group for model calls (e.g. "openai:gpt-4o"); scripted agents leave it out. */
  provider?: string;
  /** True for oracles: the runner grants privileged access and records it in the log. */
  privileged?: boolean;
  /** Finer permissions the agent needs (e.g. `goal-state`); the runner grants and logs them. */
  grants?: string[];
  start(card: TaskCard, context: AgentContext): AgentSession | Promise<AgentSession>;
}

/** Agent options as JSON, before an agent's schema validates them (see AgentFactory). */
export interface AgentOptions {
  [key: string]: unknown;
}

/** A parsed model reply: an action plus suite-defined extra fields, or why it is unusable. */
export type ParsedReply =
  | { ok: true; action: Action; note?: string; extra?: Record<string, unknown> }
  | { ok: false; error: string };

/** A suite's prompt format for the generic llm agent (the paper's harness). */
export interface Renderer {
  /** "tools": native tool calls over card.tools; "json"/"text": the reply text goes to parse(). */
  output: "tools" | "json" | "text";
  /** "stateless": each decision is one fresh prompt; "chat": messages accumulate. */
  context: "stateless" | "chat";
  system(card: TaskCard): string;
  user(observation: Observation, state: { card: TaskCard; history: TraceStep[] }): string;
  /** Parse a reply for "json" and "text" outputs. */
  parse?(text: string, card: TaskCard): ParsedReply;
  /**
   * For "json" and "text" outputs: the reply text a model should write to make the logged
   * decision `step` after the steps `before` it (training targets, `longhaul export sft`).
   * parse() of it gives back step.action.
   */
  reply?(step: TraceStep, before: readonly TraceStep[], card: TaskCard): string;
  /** The paper's decoding settings (e.g. greedy), used where the user sets none. */
  sampling?: { temperature?: number };
  /** Max output tokens for one decision, if the suite sets it (e.g. a document's allowance). */
  maxOutputTokens?(card: TaskCard): number | undefined;
}
