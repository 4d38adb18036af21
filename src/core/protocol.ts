/**
 * The wire types every suite, agent, runner and server share, as zod schemas with their
 * inferred TypeScript types. `longhaul schema <name>` prints each one's JSON Schema.
 */
import { z } from "zod";

/** A JSON value, as carried in tool arguments, views and suite payloads. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Named limits on one episode; any left out is unlimited. */
export const Budgets = z
  .object({
    maxSteps: z.number().int().positive().optional().describe("agent decisions"),
    maxSimTime: z.number().positive().optional().describe("simulated seconds"),
    maxWallMs: z.number().int().positive().optional().describe("wall-clock milliseconds"),
    maxTokens: z.number().int().positive().optional().describe("input + output tokens"),
    maxCostUsd: z.number().positive().optional().describe("provider cost in US dollars"),
  })
  .strict();
export type Budgets = z.infer<typeof Budgets>;

/**
 * The budget that ended an episode, or how it ended otherwise: the environment terminated or
 * truncated it, the agent finished, its output stayed unusable (`format`), a fault (`error`), or
 * the driver gave up on it (`abandoned`, e.g. a client of a server went away).
 */
export const EndReason = z.enum([
  "terminated",
  "finished",
  "maxSteps",
  "maxSimTime",
  "maxWallMs",
  "maxTokens",
  "maxCostUsd",
  "format",
  "error",
  "abandoned",
]);
export type EndReason = z.infer<typeof EndReason>;

/**
 * What an agent was granted (EP's L0-L3 generalised): `privileged` agents may read the
 * latent state; `grants` names finer permissions a suite understands.
 */
export const AccessProfile = z
  .object({
    level: z.string().min(1),
    privileged: z.boolean(),
    grants: z.array(z.string()),
  })
  .strict();
export type AccessProfile = z.infer<typeof AccessProfile>;

/** The observation-only access every agent has by default. */
export const DEFAULT_ACCESS: AccessProfile = { level: "observe", privileged: false, grants: [] };
/** Full access to latent state, for oracles. */
export const PRIVILEGED_ACCESS: AccessProfile = {
  level: "privileged",
  privileged: true,
  grants: ["latent"],
};

/** The grant that lets an agent read the suite's goal state (Suite.goalState). */
export const GOAL_STATE_GRANT = "goal-state";
/**
 * Observation plus the goals revealed so far, remaining and completed (MAGMA-Bench 5.1's
 * oracle state): not the latent state, but more than an honest agent is told.
 */
export const GOAL_STATE_ACCESS: AccessProfile = {
  level: "goal-state",
  privileged: false,
  grants: [GOAL_STATE_GRANT],
};

/**
 * The goals revealed to the agent so far, as the suite states them: those still to achieve
 * and those achieved. Never a goal the agent has not been told yet.
 */
export const GoalState = z
  .object({
    remaining: z.array(z.string()),
    completed: z.array(z.string()),
  })
  .strict();
export type GoalState = z.infer<typeof GoalState>;

/** A tool the agent may call: JSON Schema parameters, optionally addressed to a robot. */
export const ToolSpec = z
  .object({
    name: z.string().min(1),
    description: z.string(),
    parameters: z.record(z.string(), z.unknown()).describe("JSON Schema of the arguments"),
    robot: z.boolean().optional().describe("calls must name the robot that executes them"),
  })
  .strict();
export type ToolSpec = z.infer<typeof ToolSpec>;

/** The kinds of Action an episode accepts. */
export const ActionMode = z.enum(["tool", "say", "wait", "finish"]);
export type ActionMode = z.infer<typeof ActionMode>;

/** One call of a tool, optionally addressed to a robot. */
export const ToolCall = z
  .object({
    tool: z.string().min(1),
    args: z.record(z.string(), z.unknown()),
    robot: z.string().optional(),
    id: z.string().optional(),
  })
  .strict();
export type ToolCall = z.infer<typeof ToolCall>;

/** One agent decision: tool calls (several = several robots), speech, waiting or finishing. */
export const Action = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("tool"), calls: z.array(ToolCall).min(1) }).strict(),
  z.object({ kind: z.literal("say"), text: z.string() }).strict(),
  z.object({ kind: z.literal("wait") }).strict(),
  z.object({ kind: z.literal("finish"), answer: z.string().optional() }).strict(),
]);
export type Action = z.infer<typeof Action>;

/** Objects the Action schema produced (see parseAction). */
const parsedActions = new WeakSet<object>();

/**
 * Action.safeParse, once per action: an object this function produced is returned as is. An
 * action crosses two checks (the server or an agent's parser on receipt, the episode stack before
 * the environment steps); the second is free. The parsed object is fresh (zod copies), so no
 * caller holds a reference it could have mutated before the first check.
 */
export function parseAction(value: unknown): z.ZodSafeParseResult<Action> {
  if (typeof value === "object" && value !== null && parsedActions.has(value)) {
    return { success: true, data: value as Action };
  }
  const parsed = Action.safeParse(value);
  if (parsed.success) parsedActions.add(parsed.data);
  return parsed;
}

/** Something that happened since the last decision: an instruction, a report, feedback. */
export const EnvEvent = z
  .object({
    type: z.string().min(1),
    text: z.string().optional(),
    robot: z.string().optional(),
    time: z.number().optional(),
    data: z.unknown().optional(),
  })
  .strict();
export type EnvEvent = z.infer<typeof EnvEvent>;

/** What the agent sees before a decision: the event batch and a suite-structured view. */
export const Observation = z
  .object({
    step: z.number().int().nonnegative(),
    simTime: z.number().optional(),
    events: z.array(EnvEvent),
    view: z.unknown(),
  })
  .strict();
export type Observation = z.infer<typeof Observation>;

/** Why an action could not be executed: typed, counted, never thrown. */
export const InvalidAction = z
  .object({
    code: z.enum(["unknown-tool", "bad-arguments", "wrong-mode", "not-allowed", "precondition"]),
    reason: z.string(),
    path: z.string().optional(),
  })
  .strict();
export type InvalidAction = z.infer<typeof InvalidAction>;

/** Gymnasium-shaped result of one step. */
export const StepResult = z
  .object({
    observation: Observation,
    reward: z.number(),
    terminated: z.boolean(),
    truncated: z.boolean(),
    info: z.object({ invalid: InvalidAction.optional() }).catchall(z.unknown()),
  })
  .strict();
export type StepResult = z.infer<typeof StepResult>;

/** What the agent is told at the start of an episode ("describe"). */
export const TaskCard = z
  .object({
    id: z.string(),
    suite: z.string(),
    title: z.string(),
    instructions: z.string(),
    tools: z.array(ToolSpec),
    modes: z.array(ActionMode).min(1),
    rules: z.array(z.string()),
    budgets: Budgets,
    access: AccessProfile,
  })
  .strict();
export type TaskCard = z.infer<typeof TaskCard>;

/** A compiled, serializable, deterministic task. `payload` is owned by the suite. */
export const TaskSpec = z
  .object({
    suite: z.string().min(1),
    id: z.string().min(1),
    family: z.string().min(1),
    tags: z.record(z.string(), z.union([z.string(), z.number()])),
    seed: z.string(),
    payload: z.unknown(),
  })
  .strict();
export type TaskSpec<P = unknown> = Omit<z.infer<typeof TaskSpec>, "payload"> & { payload: P };

/** Token, cost and latency accounting, per call and summed per episode. */
export const Usage = z
  .object({
    calls: z.number().int().nonnegative(),
    inputTokens: z.number().int().nonnegative(),
    cachedInputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    reasoningTokens: z.number().int().nonnegative(),
    costUsd: z.number().nonnegative(),
    latencyMs: z.number().nonnegative(),
    cachedCalls: z.number().int().nonnegative(),
    retries: z.number().int().nonnegative(),
    /** Model calls made without a price (no price table): their cost is unknown, not 0. */
    unpricedCalls: z.number().int().positive().optional(),
  })
  .strict();
export type Usage = z.infer<typeof Usage>;

/** One request to a model provider, as logged (never with credentials). */
export const ModelCall = z
  .object({
    provider: z.string(),
    model: z.string(),
    request: z.unknown(),
    response: z.unknown().optional(),
    error: z.string().optional(),
    usage: Usage,
    cached: z.boolean(),
    attempts: z.number().int().positive(),
  })
  .strict();
export type ModelCall = z.infer<typeof ModelCall>;

/** Privileged end-of-episode state from the environment, input to the suite's scorer. */
export const EpisodeOutcome = z
  .object({
    success: z.boolean(),
    category: z.string().optional().describe("suite-specific failure category"),
    data: z.unknown().optional(),
  })
  .strict();
export type EpisodeOutcome = z.infer<typeof EpisodeOutcome>;

/** Episode result as scored. */
export const EpisodeStatus = z.enum(["success", "failure", "invalid", "missing"]);
export type EpisodeStatus = z.infer<typeof EpisodeStatus>;

/** Generic failure categories; suites add their own names. */
export const GENERIC_CATEGORIES = ["TIME", "BUDGET", "QUIT", "FORMAT", "ERR"] as const;

/** A suite scorer's verdict on one episode. */
export const EpisodeScore = z
  .object({
    success: z.boolean(),
    category: z.string().optional(),
    metrics: z.record(z.string(), z.number().nullable()),
  })
  .strict();
export type EpisodeScore = z.infer<typeof EpisodeScore>;

/** Where an episode sits in an ordered stream whose agent memory is handed forward. */
export const StreamPosition = z
  .object({
    id: z.string().min(1).describe("stream id, with the epoch: <stream>@<epoch>"),
    index: z.number().int().nonnegative(),
    length: z.number().int().positive(),
    phase: z.string().optional().describe("suite-defined, e.g. learn or test"),
    memory: z
      .enum(["trajectories", "skill"])
      .optional()
      .describe("what the stream asks the agent to carry forward: trajectories or a skill note"),
  })
  .strict();
export type StreamPosition = z.infer<typeof StreamPosition>;

/** One line of episodes.jsonl. */
export const EpisodeRecord = z
  .object({
    episodeId: z.string(),
    taskId: z.string(),
    suite: z.string(),
    family: z.string(),
    tags: z.record(z.string(), z.union([z.string(), z.number()])),
    epoch: z.number().int().nonnegative(),
    agent: z.string(),
    status: EpisodeStatus,
    category: z.string().optional(),
    endedBy: EndReason,
    steps: z.number().int().nonnegative(),
    invalidActions: z.number().int().nonnegative(),
    formatErrors: z.number().int().nonnegative(),
    simTime: z.number().optional(),
    wallMs: z.number().nonnegative(),
    usage: Usage,
    metrics: z.record(z.string(), z.number().nullable()),
    error: z.string().optional(),
    stream: StreamPosition.optional(),
  })
  .strict();
export type EpisodeRecord = z.infer<typeof EpisodeRecord>;

/** One decision as logged: what the agent saw, did, spent and got back. */
export const TraceStep = z
  .object({
    step: z.number().int().nonnegative(),
    observation: Observation,
    action: Action.optional(),
    formatError: z.string().optional(),
    raw: z.string().optional(),
    note: z.string().optional(),
    extra: z.record(z.string(), z.unknown()).optional().describe("suite-defined reply fields"),
    usage: Usage.optional(),
    calls: z.array(ModelCall).optional(),
    result: StepResult.omit({ observation: true }).optional(),
  })
  .strict();
export type TraceStep = z.infer<typeof TraceStep>;

/** The full log of one episode (traces/<episode-id>.json.gz). */
export const Trace = z
  .object({
    episodeId: z.string(),
    taskId: z.string(),
    suite: z.string(),
    seed: z.string(),
    card: TaskCard,
    steps: z.array(TraceStep),
    final: Observation.optional(),
    outcome: EpisodeOutcome.optional(),
    score: EpisodeScore.optional(),
    record: EpisodeRecord,
  })
  .strict();
export type Trace = z.infer<typeof Trace>;

/**
 * What the runner POSTs to an agent server (`--agent http:URL`), one request per decision
 * (`kind: "act"`) and one when the episode ends (`kind: "end"`). `memory` is the JSON the
 * server's last reply carried (at the start: the stream's memory, else null), so a server can
 * keep no state of its own.
 */
export const AgentRequest = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("act"),
      episodeId: z.string(),
      epoch: z.number().int().nonnegative(),
      card: TaskCard,
      observation: Observation,
      memory: z.unknown().describe("the memory of the server's last reply, or null"),
      stream: StreamPosition.optional(),
      privileged: z
        .object({ spec: TaskSpec, latent: z.unknown() })
        .strict()
        .optional()
        .describe("only for an agent run with privileged access"),
    })
    .strict(),
  z
    .object({
      kind: z.literal("end"),
      episodeId: z.string(),
      epoch: z.number().int().nonnegative(),
      success: z.boolean(),
      steps: z.number().int().nonnegative(),
      memory: z.unknown(),
    })
    .strict(),
]);
export type AgentRequest = z.infer<typeof AgentRequest>;

/**
 * An agent server's reply: a decision (an action, or `formatError` when the agent could not
 * produce one), optional note, suite extras and usage, and the memory to send back next time.
 * The reply to an `end` request may carry only `memory` (handed to a stream's next episode).
 */
export const AgentReply = z
  .object({
    action: Action.optional(),
    formatError: z.string().optional(),
    raw: z.string().optional().describe("the agent's raw output, logged"),
    note: z.string().optional(),
    extra: z.record(z.string(), z.unknown()).optional(),
    usage: Usage.partial()
      .optional()
      .describe("model usage for this decision; missing fields are 0"),
    memory: z.unknown().optional().describe("sent back with the next request"),
  })
  .strict();
export type AgentReply = z.infer<typeof AgentReply>;

/** The wire types by the name `longhaul schema <name>` takes. */
export const WIRE_SCHEMAS = {
  TaskSpec,
  TaskCard,
  ToolSpec,
  ToolCall,
  Action,
  EnvEvent,
  Observation,
  StepResult,
  Budgets,
  AccessProfile,
  GoalState,
  EpisodeOutcome,
  EpisodeScore,
  EpisodeRecord,
  StreamPosition,
  Usage,
  ModelCall,
  TraceStep,
  Trace,
  AgentRequest,
  AgentReply,
} as const;
