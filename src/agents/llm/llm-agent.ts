/** The generic llm agent: options resolved once, one LlmSession per episode. */
import { type Agent, defineAgent, LonghaulError, type Renderer } from "../../core/index.ts";
import { defaultRenderer } from "./default-renderer.ts";
import { LlmSession, type ReplyMode } from "./llm-session.ts";
import type { ModelClient } from "./model-client.ts";
import {
  type LlmAgentOptions,
  LlmAgentOptionsSchema,
  publicConfig,
  type ResolvedLlmOptions,
  resolveOptions,
} from "./options.ts";
import { loadPriceTable, priceOf } from "./prices.ts";
import {
  loadAdapter,
  loadProviders,
  type Provider,
  type RequestSettings,
  resolveModel,
} from "./providers/index.ts";
import { ResponseCache } from "./response-cache.ts";

/** The SDKs demand a key; local OpenAI-compatible servers (Ollama, llama.cpp) ignore it. */
const LOCAL_SERVER_KEY = "not-needed";

/**
 * An llm agent over `options.model`, prompting with `renderer` (the suite's, or a generic one).
 * The provider comes from `providers` (default: the built-ins and the user's config file); only
 * its SDK is loaded.
 */
export async function createLlmAgent(
  options: LlmAgentOptions,
  renderer?: Renderer,
  providers: readonly Provider[] = loadProviders(),
): Promise<Agent> {
  const o = resolveOptions(options);
  const { provider, name } = resolveModel(o.model, providers);
  if (provider.api === "anthropic" && o.reasoningEffort && o.temperature !== undefined) {
    throw new LonghaulError(
      "USAGE",
      "anthropic extended thinking (reasoningEffort) does not accept a temperature",
    );
  }
  // A base URL of the user's, or a provider declared without a key variable, may be a local
  // server that needs no key.
  const keyless = o.baseUrl !== undefined || provider.apiKeyEnv === undefined;
  const apiKey =
    o.apiKey ??
    (provider.apiKeyEnv ? process.env[provider.apiKeyEnv] : undefined) ??
    (keyless ? LOCAL_SERVER_KEY : undefined);
  if (!apiKey) {
    throw new LonghaulError(
      "USAGE",
      `no API key for ${provider.name}: set ${provider.apiKeyEnv} or pass an API key`,
    );
  }
  const render = renderer ?? defaultRenderer;
  refuseWhatDoesNotApply(o, provider, render);
  const table = typeof o.prices === "string" ? loadPriceTable(o.prices) : o.prices;
  const { url: baseUrl, headers } = withoutCredentials(o.baseUrl ?? provider.baseUrl);
  if (headers && o.apiKey !== undefined && provider.api === "openai") {
    throw new LonghaulError(
      "USAGE",
      "give the credentials in the base URL or an API key, not both: an OpenAI-compatible server reads one Authorization header",
    );
  }
  const client: ModelClient = {
    adapter: await loadAdapter(provider, {
      apiKey,
      baseUrl,
      timeoutMs: o.timeoutMs,
      ...(headers ? { headers } : {}),
    }),
    provider: o.model,
    model: name,
    baseUrl,
    maxRetries: o.maxRetries,
    retryBaseMs: o.retryBaseMs,
    decisionTimeoutMs: o.decisionTimeoutMs,
  };
  if (table) client.price = priceOf(table, provider.name, name);
  if (o.cacheDir) client.cache = new ResponseCache(o.cacheDir);
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
      return new LlmSession(card, context, {
        client,
        renderer: render,
        mode,
        settings,
        memory: o.memory,
      });
    },
  };
}

/**
 * Refuse options that would be silently ignored, saying why: a reply format for a renderer
 * that fixes its own, a reply allowance the renderer sets itself, a seed the provider lacks.
 */
function refuseWhatDoesNotApply(o: ResolvedLlmOptions, provider: Provider, render: Renderer): void {
  const refuse = (option: string, why: string) => {
    throw new LonghaulError("USAGE", `${option} does not apply: ${why}`);
  };
  if (o.output !== "auto" && render.output !== "tools") {
    refuse(
      `output "${o.output}" (--output)`,
      `this suite's renderer answers in ${render.output}, not with tool calls, so there is no reply format to choose`,
    );
  }
  if (o.maxTokens !== undefined && render.maxOutputTokens) {
    refuse(
      "maxTokens (--max-output-tokens)",
      "this suite's renderer sets each reply's token allowance itself (its paper's rule)",
    );
  }
  if (o.seed !== undefined && provider.api === "anthropic") {
    refuse("seed (--model-seed)", "the Anthropic messages API has no sampling seed");
  }
}

/**
 * A base URL without its `user:pass@` part, and those credentials as an HTTP basic
 * Authorization header (fetch refuses URLs that carry credentials).
 */
function withoutCredentials(baseUrl: string): { url: string; headers?: Record<string, string> } {
  const url = new URL(baseUrl);
  if (!url.username && !url.password) return { url: baseUrl };
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  url.username = "";
  url.password = "";
  const auth = Buffer.from(`${user}:${pass}`).toString("base64");
  return { url: url.toString().replace(/\/$/, ""), headers: { Authorization: `Basic ${auth}` } };
}

/** The `llm` agent's factory. */
export const llmAgent = defineAgent({
  name: "llm",
  description: "a model behind a provider adapter, prompted with the suite's renderer (harness)",
  options: LlmAgentOptionsSchema,
  publicConfig,
  create: (options, context) => createLlmAgent(options, context.renderer),
});
