/**
 * The served wire: what `longhaul serve` reads and writes over HTTP, WebSocket and MCP, as zod
 * schemas (their JSON Schemas are served at GET /schema). The WebSocket and OpenEnv HTTP shapes
 * follow meta-pytorch/OpenEnv's env_server (types.py, http_server.py, serialization.py):
 * messages `{type: "reset" | "step" | "state" | "close", data}`, answers `{type: "observation",
 * data: {observation, reward, done, metadata?}}`, `{type: "state", data}` and `{type: "error",
 * data: {message, code}}`; snake_case field names as OpenEnv's.
 */
import { z } from "zod";
import {
  AccessProfile,
  Action,
  EpisodeRecord,
  formatZodError,
  InvalidAction,
  Observation,
  TaskCard,
} from "../core/index.ts";

/**
 * Error codes of every served answer. The first seven are OpenEnv's WSErrorCode; the rest name
 * the HTTP failures (each maps to one status, see STATUS_OF).
 */
export const ServeErrorCode = z.enum([
  "INVALID_JSON",
  "UNKNOWN_TYPE",
  "VALIDATION_ERROR",
  "EXECUTION_ERROR",
  "CAPACITY_REACHED",
  "FACTORY_ERROR",
  "SESSION_ERROR",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "CONFLICT",
  "PAYLOAD_TOO_LARGE",
  "SHUTTING_DOWN",
]);
export type ServeErrorCode = z.infer<typeof ServeErrorCode>;

/** The HTTP status of each error code. */
export const STATUS_OF: Record<ServeErrorCode, number> = {
  INVALID_JSON: 400,
  UNKNOWN_TYPE: 400,
  VALIDATION_ERROR: 400,
  EXECUTION_ERROR: 500,
  CAPACITY_REACHED: 429,
  FACTORY_ERROR: 500,
  SESSION_ERROR: 409,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  SHUTTING_DOWN: 503,
};

/** A failure every transport reports the same way: a code, a message and, for bad input, a path. */
export class ServeError extends Error {
  constructor(
    readonly code: ServeErrorCode,
    message: string,
    readonly path?: string,
  ) {
    super(message);
    this.name = "ServeError";
  }

  get status(): number {
    return STATUS_OF[this.code];
  }
}

/** Error details, as the `data` of a WebSocket error and the body of an HTTP error. */
export const ErrorData = z
  .object({
    message: z.string(),
    code: ServeErrorCode,
    path: z.string().optional().describe("the request field that is wrong"),
  })
  .strict();
export type ErrorData = z.infer<typeof ErrorData>;

/** An access profile by level name ("observe", "privileged") or in full. */
export const AccessRequest = z.union([z.string().min(1), AccessProfile]);

const seed = z
  .union([z.string().max(200), z.number().int().nonnegative()])
  .describe("recorded in the trace; picks the task when none is named");
const episodeId = z
  .string()
  .min(1)
  .max(255)
  .describe("custom episode identifier (default <task-id>@<n>)");
const agentName = z.string().min(1).max(200).describe("who plays, as the record names it");

/** The data of a WebSocket `reset` and the body of POST /reset (OpenEnv's ResetRequest, extended). */
export const ResetData = z
  .object({
    suite: z.string().min(1).optional().describe("suite id (default: the only served suite)"),
    task_id: z.string().min(1).optional().describe("task id (default: picked from the subset)"),
    subset: z.string().min(1).optional().describe("subset to pick a task from"),
    seed: seed.optional(),
    episode_id: episodeId.optional(),
    access: AccessRequest.optional(),
    agent: agentName.optional(),
  })
  .strict();
export type ResetData = z.infer<typeof ResetData>;

/** POST /episodes: a reset's fields, with `task` for the task id. */
export const CreateEpisode = ResetData.omit({ task_id: true })
  .extend({ task: z.string().min(1).optional().describe("task id (default: picked)") })
  .strict();
export type CreateEpisode = z.infer<typeof CreateEpisode>;

/** What an action may carry besides itself (OpenEnv's Action has `metadata`): a note, suite extras. */
export const ActionMetadata = z
  .object({
    note: z.string().optional().describe("logged with the decision"),
    extra: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("suite-defined reply fields, e.g. RoboGraph's recovery block"),
  })
  .strict();
export type ActionMetadata = z.infer<typeof ActionMetadata>;

/** A step's action as sent: a longhaul Action with optional `metadata`. */
export const StepAction = z.discriminatedUnion("kind", [
  withMetadata(Action.options[0]),
  withMetadata(Action.options[1]),
  withMetadata(Action.options[2]),
  withMetadata(Action.options[3]),
]);

function withMetadata<T extends z.ZodObject>(option: T) {
  return option.extend({ metadata: ActionMetadata.optional() });
}

/** POST /step (OpenEnv's StepRequest) with the episode it steps. */
export const StepRequest = z
  .object({
    action: z.record(z.string(), z.unknown()).describe("a StepAction"),
    episode_id: episodeId,
    timeout_s: z.number().positive().optional().describe("accepted for OpenEnv clients; unused"),
    request_id: z.string().max(255).optional(),
  })
  .strict();

/** POST /episodes/{id}/step. */
export const EpisodeStepRequest = z
  .object({ action: z.record(z.string(), z.unknown()).describe("a StepAction") })
  .strict();

/** A finished episode's verdict, public once it is done. */
export const EpisodeVerdict = z
  .object({
    status: EpisodeRecord.shape.status,
    category: z.string().optional(),
    metrics: EpisodeRecord.shape.metrics,
  })
  .strict();

/** What an observation answer adds beside the observation (OpenEnv's `metadata`). */
export const ObservationMetadata = z
  .object({
    episode_id: z.string(),
    step_count: z.number().int().nonnegative(),
    terminated: z.boolean(),
    truncated: z.boolean(),
    ended_by: z.string().optional().describe("how the episode ended, once done"),
    invalid: InvalidAction.optional().describe("why the action could not run"),
    format_error: z.string().optional().describe("why the action was unusable"),
    card: TaskCard.optional().describe("the task card (reset only)"),
    result: EpisodeVerdict.optional().describe("the scored verdict, once done"),
  })
  .strict();
export type ObservationMetadata = z.infer<typeof ObservationMetadata>;

/** The data of an `observation` answer: OpenEnv's serialized observation. */
export const ObservationData = z
  .object({
    observation: Observation,
    reward: z.number().nullable(),
    done: z.boolean(),
    metadata: ObservationMetadata,
  })
  .strict();
export type ObservationData = z.infer<typeof ObservationData>;

/** Public episode state (OpenEnv's State): never hidden state. */
export const EpisodeState = z
  .object({
    episode_id: z.string().nullable(),
    step_count: z.number().int().nonnegative(),
    sim_time: z.number().optional(),
    done: z.boolean(),
    suite: z.string().optional(),
    task_id: z.string().optional(),
  })
  .strict();
export type EpisodeState = z.infer<typeof EpisodeState>;

/** GET /episodes/{id}/result: the return so far, and once done the verdict and the record. */
export const EpisodeResult = z
  .object({
    episode_id: z.string(),
    done: z.boolean(),
    reward: z.number().describe("the return: the sum of the environment's step rewards"),
    components: z
      .object({
        environment: z.number().describe("sum of step rewards"),
        success: z.number().optional().describe("1 when the scorer says success, else 0"),
      })
      .strict(),
    metrics: EpisodeRecord.shape.metrics.optional(),
    record: EpisodeRecord.optional(),
  })
  .strict();
export type EpisodeResult = z.infer<typeof EpisodeResult>;

/** A WebSocket message from the client (OpenEnv's WSIncomingMessage). */
export const WsIncoming = z.discriminatedUnion("type", [
  z.object({ type: z.literal("reset"), data: ResetData.optional() }).strict(),
  z.object({ type: z.literal("step"), data: StepAction }).strict(),
  z.object({ type: z.literal("state") }).strict(),
  z.object({ type: z.literal("close") }).strict(),
]);

/** A WebSocket answer from the server. */
export const WsOutgoing = z.discriminatedUnion("type", [
  z.object({ type: z.literal("observation"), data: ObservationData }).strict(),
  z.object({ type: z.literal("state"), data: EpisodeState }).strict(),
  z.object({ type: z.literal("error"), data: ErrorData }).strict(),
]);

/** GET /health (OpenEnv's HealthResponse). */
export const HealthResponse = z.object({ status: z.enum(["healthy"]) }).strict();

/** GET /metadata (OpenEnv's EnvironmentMetadata). */
export const ServerMetadata = z
  .object({
    name: z.string(),
    description: z.string(),
    readme_content: z.string().optional(),
    version: z.string().optional(),
    author: z.string().optional(),
    documentation_url: z.string().optional(),
  })
  .strict();

/** The tool result every MCP tool of an episode returns as structured content. */
export const ToolOutcome = z
  .object({
    episode_id: z.string(),
    step_count: z.number().int().nonnegative(),
    observation: Observation,
    reward: z.number().nullable().describe("this call's step reward; null when nothing ran"),
    done: z.boolean(),
    ended_by: z.string().optional(),
    invalid: InvalidAction.optional(),
    format_error: z.string().optional(),
    result: EpisodeVerdict.optional().describe("the scored verdict, once done"),
  })
  .strict();
export type ToolOutcome = z.infer<typeof ToolOutcome>;

/** The served wire types by name, for GET /schema and `longhaul schema`. */
export const SERVE_SCHEMAS = {
  ResetData,
  CreateEpisode,
  StepAction,
  StepRequest,
  ObservationData,
  EpisodeState,
  EpisodeResult,
  WsIncoming,
  WsOutgoing,
  ErrorData,
  ToolOutcome,
} as const;

/**
 * Parse a request value with a schema; a mismatch is a VALIDATION_ERROR whose path names the
 * first bad field (under `prefix`, e.g. "data" for a WebSocket message's data).
 */
export function parseWire<T>(schema: z.ZodType<T>, value: unknown, what: string, prefix = ""): T {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issuePath = (parsed.error.issues[0]?.path ?? []).map(String);
  const path = [prefix, ...issuePath].filter(Boolean).join(".") || "(body)";
  throw new ServeError(
    "VALIDATION_ERROR",
    `invalid ${what}: ${formatZodError(parsed.error)}`,
    path,
  );
}

/** JSON Schema (draft 2020-12) of a zod schema, as served. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { unrepresentable: "any" }) as Record<string, unknown>;
}

/**
 * GET /schema, OpenEnv's SchemaResponse: the action, the observation (its fields flattened with
 * reward, done and metadata, as OpenEnv's Observation class) and the state.
 */
export function openEnvSchemas(): Record<"action" | "observation" | "state", unknown> {
  return {
    action: jsonSchemaOf(StepAction),
    observation: jsonSchemaOf(
      Observation.extend({
        reward: z.number().nullable(),
        done: z.boolean(),
        metadata: ObservationMetadata,
      }),
    ),
    state: jsonSchemaOf(EpisodeState),
  };
}
