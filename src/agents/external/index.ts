/**
 * The `http` agent (`--agent http:URL`): an agent server in any language decides, longhaul's
 * runner plays, logs and scores. Each decision is one POST of an AgentRequest (card,
 * observation, the memory of the last reply) answered by an AgentReply (`longhaul schema
 * AgentRequest`, `AgentReply`; docs/serving.md). Transport faults (timeouts, 408, 429, 5xx,
 * refused connections) are retried with backoff, then end the episode invalid (ERR); a reply
 * that is not a usable decision is the agent's format error, logged with the raw reply.
 */
import { z } from "zod";
import {
  type Agent,
  type AgentContext,
  AgentReply,
  type AgentRequest,
  type AgentSession,
  type Decision,
  defineAgent,
  emptyUsage,
  formatZodError,
  type Json,
  LonghaulError,
  type Observation,
  type TaskCard,
} from "../../core/index.ts";
import {
  backoffMs,
  kindOfStatus,
  type ProviderFailure,
  retryAfterMs,
  sleep,
} from "../llm/index.ts";

/** Options of the http agent. */
export const HttpAgentOptions = z
  .object({
    url: z
      .url({ protocol: /^https?$/ })
      .describe("the agent server's endpoint (one POST per decision)"),
    timeoutMs: z.number().int().positive().default(60_000).describe("timeout per request attempt"),
    maxRetries: z
      .number()
      .int()
      .nonnegative()
      .default(2)
      .describe("retries per request (0 = none)"),
    retryBaseMs: z
      .number()
      .int()
      .positive()
      .default(500)
      .describe("first backoff between attempts"),
    token: z.string().min(1).optional().meta({
      secret: true,
      description: "bearer token for the server (default $LONGHAUL_AGENT_TOKEN)",
    }),
    privileged: z
      .boolean()
      .default(false)
      .describe("grant the server privileged access (the spec and latent state in each request)"),
  })
  .strict();
export type HttpAgentOptions = z.output<typeof HttpAgentOptions>;

/** Raw text kept in a trace from an unusable reply. */
const MAX_RAW = 10_000;

/** Whether an --agent value names an agent server: `http:URL`, or the URL itself. */
export function isAgentUrl(name: string): boolean {
  return /^https?:\/\//.test(name) || /^http:https?:\/\//.test(name);
}

/** The server URL of an --agent value that names one. */
export function agentUrlOf(name: string): string {
  return name.startsWith("http:http") ? name.slice("http:".length) : name;
}

/** The agent factory (`--agent http --agent-opt url=...`, or `--agent http:URL`). */
export const httpAgent = defineAgent({
  name: "http",
  description: "an agent server at a URL decides (any language; see docs/serving.md)",
  options: HttpAgentOptions,
  publicConfig: (o) => ({ url: o.url, privileged: o.privileged }),
  create: (options) => createHttpAgent(options),
});

/** Create the http agent from validated options. */
export function createHttpAgent(options: HttpAgentOptions): Agent {
  const token = options.token ?? process.env.LONGHAUL_AGENT_TOKEN;
  const client = new AgentServerClient(options, token);
  return {
    id: `http:${options.url}`,
    provider: `http:${options.url}`,
    ...(options.privileged ? { privileged: true } : {}),
    start: (card, context) => new HttpAgentSession(client, card, context),
  };
}

/** One episode's conversation with the agent server. */
class HttpAgentSession implements AgentSession {
  private memory: Json | null;

  constructor(
    private readonly client: AgentServerClient,
    private readonly card: TaskCard,
    private readonly context: AgentContext,
  ) {
    this.memory = context.memory ?? null;
  }

  async act(observation: Observation): Promise<Decision> {
    const { context } = this;
    const privileged = context.privileged;
    const request: AgentRequest = {
      kind: "act",
      episodeId: context.episodeId,
      epoch: context.epoch,
      card: this.card,
      observation,
      memory: this.memory,
      ...(context.stream ? { stream: context.stream } : {}),
      ...(privileged
        ? { privileged: { spec: privileged.spec, latent: privileged.latent() ?? null } }
        : {}),
    };
    const text = await this.client.post(request, context);
    const reply = parseReply(text);
    if (!reply.ok) return { formatError: reply.error, raw: text.slice(0, MAX_RAW) };
    const r = reply.value;
    if (r.memory !== undefined) this.memory = r.memory as Json;
    const decision: Decision = {
      ...(r.action ? { action: r.action } : {}),
      ...(r.formatError !== undefined ? { formatError: r.formatError } : {}),
      ...(r.raw !== undefined ? { raw: r.raw } : {}),
      ...(r.note !== undefined ? { note: r.note } : {}),
      ...(r.extra !== undefined ? { extra: r.extra } : {}),
      ...(r.usage ? { usage: { ...emptyUsage(), ...r.usage } } : {}),
    };
    if (!r.action && r.formatError === undefined) {
      return {
        ...decision,
        formatError: "the agent server's reply has neither action nor formatError",
        raw: text.slice(0, MAX_RAW),
      };
    }
    return decision;
  }

  /**
   * Tell the server the episode ended. A notice: a server may answer it with the memory to hand
   * a stream's next episode, or not implement it at all, so its failure changes nothing.
   */
  async end(summary: { success: boolean; steps: number }): Promise<void> {
    const { context } = this;
    const request: AgentRequest = {
      kind: "end",
      episodeId: context.episodeId,
      epoch: context.epoch,
      success: summary.success,
      steps: summary.steps,
      memory: this.memory,
    };
    const text = await this.client.post(request, context, 0).catch(() => undefined);
    const reply = text === undefined ? undefined : parseReply(text);
    if (reply?.ok && reply.value.memory !== undefined) this.memory = reply.value.memory as Json;
  }

  snapshot(): Json {
    return this.memory;
  }
}

/** A reply text as an AgentReply, or why it is unusable. */
function parseReply(text: string): { ok: true; value: AgentReply } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `the agent server's reply is not JSON: ${(e as Error).message}` };
  }
  const parsed = AgentReply.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      error: `the agent server's reply is malformed: ${formatZodError(parsed.error)}`,
    };
  }
  return { ok: true, value: parsed.data };
}

/** POSTs requests to the server through the run's call gate, with timeouts and retries. */
class AgentServerClient {
  private readonly key: string;

  constructor(
    private readonly options: HttpAgentOptions,
    private readonly token: string | undefined,
  ) {
    this.key = `http:${options.url}`;
  }

  /** The reply body of a 2xx answer; throws (PROVIDER) once `retries` are spent. */
  async post(
    request: AgentRequest,
    context: AgentContext,
    retries = this.options.maxRetries,
  ): Promise<string> {
    const rng = context.rng.derive("http-backoff");
    const body = JSON.stringify(request);
    for (let attempt = 0; ; attempt++) {
      const failure = await this.attempt(body, context);
      if (typeof failure === "string") return failure;
      if (failure.kind === "abort" || failure.kind === "fatal" || attempt >= retries) {
        throw new LonghaulError(
          "PROVIDER",
          `agent server ${this.options.url}: ${failure.message}${attempt > 0 ? ` (after ${attempt + 1} attempts)` : ""}`,
        );
      }
      await sleep(backoffMs(failure, attempt, this.options.retryBaseMs, rng), context.signal);
    }
  }

  /** One attempt: the body text, or how it failed. */
  private async attempt(body: string, context: AgentContext): Promise<string | ProviderFailure> {
    const { gate, signal } = context;
    const release = await gate.acquire(this.key, signal);
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const response = await fetch(this.options.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        },
        body,
        signal: AbortSignal.any([signal, timeout]),
      });
      const text = await response.text();
      if (response.ok) {
        gate.succeeded(this.key);
        return text;
      }
      const kind = kindOfStatus(response.status);
      if (kind === "rate-limit") gate.rateLimited(this.key);
      const wait = retryAfterMs(response.headers, Date.now());
      return {
        kind,
        status: response.status,
        message: `HTTP ${response.status}: ${text.slice(0, 200)}`,
        ...(wait !== undefined ? { retryAfterMs: wait } : {}),
      };
    } catch (e) {
      if (signal.aborted) return { kind: "abort", message: "aborted" };
      if (timeout.aborted) {
        return { kind: "retryable", message: `no answer within ${this.options.timeoutMs} ms` };
      }
      const cause = (e as Error & { cause?: Error }).cause?.message;
      return {
        kind: "retryable",
        message: `request failed: ${(e as Error).message}${cause ? ` (${cause})` : ""}`,
      };
    } finally {
      release();
    }
  }
}
