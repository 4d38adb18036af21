/** The llm agent's options: validation, provider/model split and the loggable config. */
import { z } from "zod";
import { formatZodError, LonghaulError } from "../../core/index.ts";
import { MemoryOption } from "./memory/index.ts";
import { PriceTable } from "./prices.ts";

/** Reasoning effort: OpenAI `reasoning_effort`, or an Anthropic extended-thinking budget. */
export const ReasoningEffort = z.enum(["minimal", "low", "medium", "high"]);
export type ReasoningEffort = z.infer<typeof ReasoningEffort>;

/** Options of the generic llm agent, as the CLI or a run config gives them. */
export const LlmAgentOptionsSchema = z
  .object({
    model: z
      .string()
      .regex(/^[^:\s]+:\S.*$/, 'expected "provider:NAME", e.g. "openai:gpt-4o-mini"')
      .describe("provider:name; providers: openai, anthropic and those in the config file"),
    baseUrl: z.url().optional().describe("endpoint overriding the provider's (vLLM, Ollama, ...)"),
    apiKey: z
      .string()
      .min(1)
      .optional()
      .meta({ secret: true, description: "API key (default: the provider's key variable)" }),
    temperature: z.number().min(0).max(2).optional().describe("sampling temperature"),
    maxTokens: z.number().int().positive().optional().describe("max tokens per model reply"),
    reasoningEffort: ReasoningEffort.optional().describe(
      "OpenAI reasoning_effort, or an Anthropic thinking budget",
    ),
    seed: z.number().int().optional().describe("provider sampling seed"),
    maxRetries: z.number().int().nonnegative().default(4).describe("retries per model call"),
    retryBaseMs: z
      .number()
      .int()
      .nonnegative()
      .default(500)
      .describe("first backoff delay in ms; doubles per retry (with jitter) up to 30 s"),
    timeoutMs: z
      .number()
      .int()
      .positive()
      .default(120_000)
      .describe("timeout per model call attempt (ms); raise it for long replies"),
    decisionTimeoutMs: z
      .number()
      .int()
      .positive()
      .default(300_000)
      .describe("cap on one decision's model call with all its retries and waits (ms)"),
    cacheDir: z.string().min(1).optional().describe("cache model responses in this directory"),
    prices: z
      .union([z.string().min(1), PriceTable])
      .optional()
      .describe("price table file (YAML or JSON), or the table itself"),
    streamMemory: z
      .enum(["stream", "off", "trajectories", "skill"])
      .default("stream")
      .describe(
        "in ordered streams: carry experience as the stream asks (stream), as full trajectories, as a distilled skill note, or not at all (off)",
      ),
    output: z
      .enum(["auto", "tools", "json"])
      .default("auto")
      .describe("tools renderers: native tool calls (auto, tools) or the JSON fallback (json)"),
    memory: MemoryOption.default("full").describe(
      "state tracking within an episode (--memory): full, last-k:K, reflection, explicit, oracle-state (privileged goal state)",
    ),
    memoryModel: z
      .string()
      .regex(/^[^:\s]+:\S.*$/, 'expected "provider:NAME", e.g. "openai:gpt-4o-mini"')
      .optional()
      .describe(
        "the state manager's model for reflection and explicit (--memory-model; default: model)",
      ),
  })
  .strict();

/** Options of the generic llm agent (input form: defaults may be left out). */
export type LlmAgentOptions = z.input<typeof LlmAgentOptionsSchema>;
/** Options after validation, defaults filled in. */
export type ResolvedLlmOptions = z.output<typeof LlmAgentOptionsSchema>;

/** Validate options or throw a USAGE error naming the path of what is wrong. */
export function resolveOptions(options: unknown): ResolvedLlmOptions {
  const result = LlmAgentOptionsSchema.safeParse(options);
  if (!result.success) {
    throw new LonghaulError("USAGE", `invalid llm agent options: ${formatZodError(result.error)}`);
  }
  return result.data;
}

/**
 * The options that change what the model answers, for run ids and logs: no credentials, no
 * transport or accounting settings (retries, timeouts, cache, prices). A base URL keeps only
 * its origin and path, since user info or a query string may carry a key.
 */
export function publicConfig(options: LlmAgentOptions): Record<string, unknown> {
  const o = resolveOptions(options);
  let baseUrl: string | undefined;
  if (o.baseUrl) {
    const url = new URL(o.baseUrl);
    baseUrl = `${url.origin}${url.pathname}`;
  }
  const config: Record<string, unknown> = {
    agent: "llm",
    model: o.model,
    baseUrl,
    temperature: o.temperature,
    maxTokens: o.maxTokens,
    reasoningEffort: o.reasoningEffort,
    seed: o.seed,
    output: o.output,
    // Only a non-default policy is recorded, so earlier runs keep their identity.
    streamMemory: o.streamMemory === "stream" ? undefined : o.streamMemory,
    memory: o.memory === "full" ? undefined : o.memory,
    memoryModel: o.memoryModel,
  };
  for (const key of Object.keys(config)) if (config[key] === undefined) delete config[key];
  return config;
}
