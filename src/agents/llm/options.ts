/** The llm agent's options: validation, provider/model split and the loggable config. */
import { z } from "zod";
import { formatZodError, LonghaulError } from "../../core/index.ts";
import { PriceTable } from "./prices.ts";

/** Reasoning effort: OpenAI `reasoning_effort`, or an Anthropic extended-thinking budget. */
export const ReasoningEffort = z.enum(["minimal", "low", "medium", "high"]);
export type ReasoningEffort = z.infer<typeof ReasoningEffort>;

/** The providers the llm agent speaks to. */
export type ProviderName = "openai" | "anthropic";

/** Options of the generic llm agent, as the CLI or a run config gives them. */
export const LlmAgentOptionsSchema = z
  .object({
    model: z
      .string()
      .regex(/^(openai|anthropic):.+$/, 'expected "openai:NAME" or "anthropic:NAME"'),
    baseUrl: z.url().optional(),
    apiKey: z.string().min(1).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().positive().optional(),
    reasoningEffort: ReasoningEffort.optional(),
    seed: z.number().int().optional(),
    maxRetries: z.number().int().nonnegative().default(4),
    /** First backoff delay; doubles per retry (with jitter) up to 30 s. */
    retryBaseMs: z.number().int().nonnegative().default(500),
    timeoutMs: z.number().int().positive().optional(),
    cacheDir: z.string().min(1).optional(),
    prices: z.union([z.string().min(1), PriceTable]).optional(),
    /**
     * How a tools renderer is realised: native tool calls ("auto", "tools") or the JSON
     * fallback ("json") for models without tool calling. json/text renderers parse text anyway.
     */
    output: z.enum(["auto", "tools", "json"]).default("auto"),
  })
  .strict()
  .refine(
    (o) => !(o.model.startsWith("anthropic:") && o.reasoningEffort && o.temperature !== undefined),
    {
      message: "anthropic extended thinking (reasoningEffort) does not accept a temperature",
      path: ["temperature"],
    },
  );

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

/** "openai:gpt-4o" -> provider and model; model names may contain colons ("llama3:8b"). */
export function splitModel(model: string): { provider: ProviderName; name: string } {
  const colon = model.indexOf(":");
  return { provider: model.slice(0, colon) as ProviderName, name: model.slice(colon + 1) };
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
  };
  for (const key of Object.keys(config)) if (config[key] === undefined) delete config[key];
  return config;
}
