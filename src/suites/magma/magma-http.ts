/**
 * `--agent magma-http --agent-opt url=URL`: an agent built for MAGMA, run unchanged over the
 * authors' agent HTTP protocol v2 (magma_core.protocol.agent): GET /health ({"status":
 * "ready"}), GET /v1/info (protocol "2.0", `capabilities.inference` true), and one POST
 * /v1/responses per decision with one input: an integer `id`, the `instruction` ({type: "user",
 * content: the user's words} or {type: "env", content: the status payload}), the `tools` (the
 * skill interface: name, description, arguments), the observed `attributes`, the agent-owned
 * `memory` returned by its previous reply (replaced wholesale every call), `num_outputs` 1 and
 * `extra_keys`. The reply is validated as the authors' models do (strict fields; one candidate
 * per input in order; `completed` with an output {say, tool_calls [{name, arguments,
 * target_robot_name}]}, never both say and calls, or `error` with {code, message}); anything
 * else is an unusable output (a format error naming what is wrong), never a crash.
 */
import { z } from "zod";
import {
  type Action,
  type Agent,
  type AgentContext,
  type Decision,
  defineAgent,
  formatZodError,
  type Json,
  LonghaulError,
  type Observation,
  type TaskCard,
} from "../../core/index.ts";
import type { MagmaView } from "./environment.ts";

export const PROTOCOL_VERSION = "2.0";

const JsonObject = z.record(z.string(), z.json());

/** AgentHealth. */
const Health = z.object({ status: z.literal("ready") }).strict();

/** AgentInfo. */
const Info = z
  .object({
    protocol_version: z.string().default(PROTOCOL_VERSION),
    agent_id: z.string(),
    agent_version: z.string(),
    specialized_coaching: z.array(z.string()).default([]),
    coaching_resume: z.boolean().default(false),
    coaching_session_version: z.string().nullable().default(null),
    coaching_unavailable_reason: z.string().nullable().default(null),
    capabilities: z.record(z.string(), z.boolean()),
  })
  .strict();

const WireToolCall = z
  .object({
    name: z.string().min(1),
    arguments: JsonObject.default({}),
    target_robot_name: z.string().min(1),
  })
  .strict();

const AgentDecision = z
  .object({ say: z.string().default(""), tool_calls: z.array(WireToolCall).default([]) })
  .strict()
  .refine((d) => !(d.say && d.tool_calls.length > 0), "say and tool_calls are mutually exclusive");

const AgentError = z
  .object({
    code: z.string().min(1),
    message: z.string().min(1),
    component: z.string().nullable().optional(),
  })
  .strict();

const AgentOutput = z
  .object({
    request_id: z.string().min(1),
    source_id: z.number().int(),
    candidate_index: z.number().int().nonnegative(),
    status: z.enum(["completed", "error"]),
    memory: JsonObject,
    internal_steps: z.array(JsonObject).default([]),
    output: AgentDecision.nullable().optional(),
    error: AgentError.nullable().optional(),
  })
  .strict()
  .refine(
    (o) => (o.status === "completed" ? !!o.output && !o.error : !!o.error && !o.output),
    "a completed candidate needs an output and no error; a failed one an error and no output",
  );

/** AgentResponse: a JSON array of outputs. */
const AgentResponse = z.array(AgentOutput);
type AgentOutput = z.infer<typeof AgentOutput>;

/** The agent's options. */
const Options = z
  .object({
    url: z
      .url()
      .describe("base URL of the agent server (serving /health, /v1/info, /v1/responses)"),
    timeoutMs: z.number().int().positive().default(360_000).describe("per-request timeout (ms)"),
    extraKeys: z
      .record(z.string(), z.json())
      .default({})
      .describe("extra_keys sent with every input"),
  })
  .strict();

async function getJson(url: string, signal: AbortSignal): Promise<unknown> {
  const res = await fetch(url, { signal });
  if (!res.ok) throw new LonghaulError("RUNTIME", `${url}: HTTP ${res.status}`);
  return res.json();
}

/** Check /health and /v1/info as the authors' client does before the first request. */
export async function connect(url: string, timeoutMs: number): Promise<z.infer<typeof Info>> {
  const base = url.replace(/\/+$/, "");
  const signal = AbortSignal.timeout(timeoutMs);
  const health = Health.safeParse(await getJson(`${base}/health`, signal));
  if (!health.success)
    throw new LonghaulError("RUNTIME", `${base}/health: ${formatZodError(health.error)}`);
  const info = Info.safeParse(await getJson(`${base}/v1/info`, signal));
  if (!info.success)
    throw new LonghaulError("RUNTIME", `${base}/v1/info: ${formatZodError(info.error)}`);
  if (info.data.protocol_version !== PROTOCOL_VERSION)
    throw new LonghaulError("RUNTIME", `unsupported agent protocol ${info.data.protocol_version}`);
  if (!info.data.capabilities.inference)
    throw new LonghaulError("RUNTIME", "the agent runtime does not support inference");
  return info.data;
}

/** The skill interface as the authors' skill specs serialize it: name, description, arguments. */
export function wireTools(card: TaskCard): Json[] {
  return card.tools.map((t) => ({
    name: t.name,
    description: t.description,
    arguments: ((t.parameters as { properties?: Json }).properties ?? {}) as Json,
  }));
}

/**
 * The instruction for a batch: the user's words when the batch holds a user message (the
 * robots' reports of the same batch follow as "infos:" lines), else the status payload
 * {infos, previous_tool_call} the authors' runner sends after a skill ends.
 */
export function instructionOf(
  observation: Observation,
  previous: Action | undefined,
): { type: "user" | "env"; content: string } {
  const user = observation.events.filter((e) => e.type === "user").map((e) => e.text ?? "");
  const infos = observation.events.filter((e) => e.type !== "user").map((e) => e.text ?? "");
  if (user.length > 0)
    return {
      type: "user",
      content: [...user, ...(infos.length ? ["", `infos: ${infos.join("\n")}`] : [])].join("\n"),
    };
  const payload: Record<string, Json> = { infos: infos.join("\n") || "The action has completed." };
  if (previous?.kind === "tool")
    payload.previous_tool_call = Object.fromEntries(
      previous.calls.map((c) => [c.robot ?? "", { name: c.tool, arguments: c.args as Json }]),
    );
  return { type: "env", content: JSON.stringify(payload) };
}

/** Read one candidate into a decision (the caller keeps its memory). */
export function decisionOf(output: AgentOutput): Decision {
  if (output.status === "error")
    return { formatError: `agent error ${output.error?.code}: ${output.error?.message}` };
  const out = output.output as z.infer<typeof AgentDecision>;
  if (out.say) return { action: { kind: "say", text: out.say } };
  if (out.tool_calls.length > 0)
    return {
      action: {
        kind: "tool",
        calls: out.tool_calls.map((c) => ({
          tool: c.name,
          args: c.arguments,
          robot: c.target_robot_name,
        })),
      },
    };
  // An empty decision: the authors' runner resumes suspended work; here it waits.
  return { action: { kind: "wait" } };
}

let nextSource = 0;

/** The agent over one server. */
export function createMagmaHttpAgent(
  o: z.output<typeof Options>,
  info: z.infer<typeof Info>,
): Agent {
  const base = o.url.replace(/\/+$/, "");
  return {
    id: `magma-http:${info.agent_id}@${info.agent_version}`,
    start(card: TaskCard, context: AgentContext) {
      const source = nextSource++;
      const tools = wireTools(card);
      let memory: Record<string, Json> = {};
      let previous: Action | undefined;
      let step = 0;
      return {
        async act(observation: Observation): Promise<Decision> {
          const view = observation.view as MagmaView | null;
          const requestId = `${context.episodeId}#${step++}`;
          const body = {
            request_id: requestId,
            inputs: [
              {
                id: source,
                instruction: instructionOf(observation, previous),
                tools,
                attributes: (view?.attributes ?? {}) as Json,
                memory,
                num_outputs: 1,
                extra_keys: o.extraKeys,
              },
            ],
          };
          const signal = AbortSignal.any([context.signal, AbortSignal.timeout(o.timeoutMs)]);
          const res = await fetch(`${base}/v1/responses`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
            signal,
          });
          const text = await res.text();
          if (!res.ok)
            throw new LonghaulError(
              "RUNTIME",
              `${base}/v1/responses: HTTP ${res.status}: ${text.slice(0, 200)}`,
            );
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            return { formatError: "the response is not JSON", raw: text };
          }
          const parsed = AgentResponse.safeParse(json);
          if (!parsed.success)
            return {
              formatError: `invalid AgentResponse: ${formatZodError(parsed.error)}`,
              raw: text,
            };
          const [output, ...more] = parsed.data;
          if (
            !output ||
            more.length > 0 ||
            output.request_id !== requestId ||
            output.source_id !== source ||
            output.candidate_index !== 0
          )
            return {
              formatError: "response candidates must match the request's counts and order",
              raw: text,
            };
          memory = output.memory as Record<string, Json>;
          const decision = decisionOf(output);
          decision.raw = text;
          previous = decision.action;
          return decision;
        },
      };
    },
  };
}

/** The `magma-http` agent factory. */
export const magmaHttpAgent = defineAgent({
  name: "magma-http",
  description: "an external agent over the MAGMA agent HTTP protocol v2 (url=...)",
  options: Options,
  create: async (o) => createMagmaHttpAgent(o, await connect(o.url, o.timeoutMs)),
});
