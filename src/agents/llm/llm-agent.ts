/** The generic llm agent: options resolved once, one LlmSession per episode. */
import { type Agent, LonghaulError, type Renderer } from "../../core/index.ts";
import { defaultRenderer } from "./default-renderer.ts";
import { LlmSession, type ReplyMode } from "./llm-session.ts";
import type { ModelClient } from "./model-client.ts";
import { type LlmAgentOptions, type ProviderName, resolveOptions, splitModel } from "./options.ts";
import { loadPriceTable, priceOf } from "./prices.ts";
import { adapterFor, DEFAULT_BASE_URL, type RequestSettings } from "./providers/index.ts";
import { ResponseCache } from "./response-cache.ts";

const KEY_VARIABLE: Record<ProviderName, string> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
};

/** The SDKs demand a key; local OpenAI-compatible servers (Ollama, llama.cpp) ignore it. */
const LOCAL_SERVER_KEY = "not-needed";

/** SDK default per-attempt timeout, passed explicitly so every attempt is bounded. */
const DEFAULT_TIMEOUT_MS = 600_000;

/** An llm agent over `options.model`, prompting with `renderer` (the suite's, or a generic one). */
export function createLlmAgent(options: LlmAgentOptions, renderer?: Renderer): Agent {
  const o = resolveOptions(options);
  const { provider, name } = splitModel(o.model);
  const apiKey =
    o.apiKey ?? process.env[KEY_VARIABLE[provider]] ?? (o.baseUrl ? LOCAL_SERVER_KEY : undefined);
  if (!apiKey) {
    throw new LonghaulError(
      "USAGE",
      `no API key for ${provider}: set ${KEY_VARIABLE[provider]} or pass an API key`,
    );
  }
  const table = typeof o.prices === "string" ? loadPriceTable(o.prices) : o.prices;
  const baseUrl = o.baseUrl ?? DEFAULT_BASE_URL[provider];
  const client: ModelClient = {
    adapter: adapterFor(provider, {
      apiKey,
      baseUrl,
      timeoutMs: o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    }),
    provider: o.model,
    model: name,
    baseUrl,
    maxRetries: o.maxRetries,
    retryBaseMs: o.retryBaseMs,
  };
  if (table) client.price = priceOf(table, provider, name);
  if (o.cacheDir) client.cache = new ResponseCache(o.cacheDir);
  const render = renderer ?? defaultRenderer;
  // output "json" realises a tools renderer as the JSON fallback; json/text renderers parse text.
  const mode: ReplyMode =
    render.output !== "tools" ? "renderer" : o.output === "json" ? "json-fallback" : "tools";

  return {
    id: `llm:${o.model}`,
    provider: o.model,
    start(card, context) {
      const settings: RequestSettings = { model: name };
      // The suite's default temperature yields to any sampling choice of the user's (Anthropic
      // thinking accepts no temperature).
      const temperature =
        o.temperature ?? (o.reasoningEffort ? undefined : render.sampling?.temperature);
      if (temperature !== undefined) settings.temperature = temperature;
      const maxTokens = render.maxOutputTokens?.(card) ?? o.maxTokens;
      if (maxTokens !== undefined) settings.maxTokens = maxTokens;
      if (o.reasoningEffort !== undefined) settings.reasoningEffort = o.reasoningEffort;
      if (o.seed !== undefined) settings.seed = o.seed;
      return new LlmSession(card, context, { client, renderer: render, mode, settings });
    },
  };
}
