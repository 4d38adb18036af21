/** The generic llm agent: options resolved once, one LlmSession per episode. */
import {
  type Agent,
  defineAgent,
  GOAL_STATE_GRANT,
  LonghaulError,
  type Renderer,
} from "../../core/index.ts";
import { defaultRenderer } from "./default-renderer.ts";
import { LlmSession, type ReplyMode, type SessionSetup } from "./llm-session.ts";
import { type MemoryStrategy, parseMemory } from "./memory/index.ts";
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
  const tracking = parseMemory(o.memory) as MemoryStrategy;
  const render = renderer ?? defaultRenderer;
  const { client, provider } = await modelClient(o.model, o, providers);
  refuseWhatDoesNotApply(o, provider, render, tracking);
  // The state manager may be another model; on the same provider it shares --base-url.
  const managed = tracking.kind === "reflection" || tracking.kind === "explicit";
  const manager =
    managed && o.memoryModel !== undefined && o.memoryModel !== o.model
      ? await modelClient(o.memoryModel, o, providers, provider.name)
      : undefined;
  if (manager?.provider.api === "anthropic" && o.seed !== undefined) refuseSeed(manager.provider);
  // output "json" realises a tools renderer as the JSON fallback; json/text renderers parse text.
  const mode: ReplyMode =
    render.output !== "tools" ? "renderer" : o.output === "json" ? "json-fallback" : "tools";

  return {
    id: `llm:${o.model}`,
    provider: o.model,
    ...(tracking.kind === "oracle-state" ? { grants: [GOAL_STATE_GRANT] } : {}),
    start(card, context) {
      const settings = settingsFor(client.model, o, render);
      const maxTokens = render.maxOutputTokens?.(card) ?? o.maxTokens;
      if (maxTokens !== undefined) settings.maxTokens = maxTokens;
      const setup: SessionSetup = {
        client,
        renderer: render,
        mode,
        settings,
        memory: o.streamMemory,
        tracking,
      };
      if (managed) {
        const managerClient = manager?.client ?? client;
        const managerSettings = settingsFor(managerClient.model, o, render);
        if (o.maxTokens !== undefined) managerSettings.maxTokens = o.maxTokens;
        setup.manager = { client: managerClient, settings: managerSettings };
      }
      return new LlmSession(card, context, setup);
    },
  };
}

/**
 * The client of one model: its provider's adapter (only that SDK is loaded), key, endpoint,
 * retry settings, price and cache. `--base-url` applies to the run's model and to a state
 * manager on the same provider (`baseUrlFor`).
 */
async function modelClient(
  model: string,
  o: ResolvedLlmOptions,
  providers: readonly Provider[],
  baseUrlFor?: string,
): Promise<{ client: ModelClient; provider: Provider }> {
  const { provider, name } = resolveModel(model, providers);
  if (provider.api === "anthropic" && o.reasoningEffort && o.temperature !== undefined) {
    throw new LonghaulError(
      "USAGE",
      "anthropic extended thinking (reasoningEffort) does not accept a temperature",
    );
  }
  const userUrl = baseUrlFor === undefined || baseUrlFor === provider.name ? o.baseUrl : undefined;
  // A base URL of the user's, or a provider declared without a key variable, may be a local
  // server that needs no key.
  const keyless = userUrl !== undefined || provider.apiKeyEnv === undefined;
  const apiKey =
    (baseUrlFor === undefined || baseUrlFor === provider.name ? o.apiKey : undefined) ??
    (provider.apiKeyEnv ? process.env[provider.apiKeyEnv] : undefined) ??
    (keyless ? LOCAL_SERVER_KEY : undefined);
  if (!apiKey) {
    throw new LonghaulError(
      "USAGE",
      `no API key for ${provider.name}: set ${provider.apiKeyEnv} or pass an API key`,
    );
  }
  const table = typeof o.prices === "string" ? loadPriceTable(o.prices) : o.prices;
  const { url: baseUrl, headers } = withoutCredentials(userUrl ?? provider.baseUrl);
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
    provider: model,
    model: name,
    baseUrl,
    maxRetries: o.maxRetries,
    retryBaseMs: o.retryBaseMs,
    decisionTimeoutMs: o.decisionTimeoutMs,
  };
  if (table) client.price = priceOf(table, provider.name, name);
  if (o.cacheDir) client.cache = new ResponseCache(o.cacheDir);
  return { client, provider };
}

/** Request settings of one model's calls (the reply allowance is set by the caller). */
function settingsFor(model: string, o: ResolvedLlmOptions, render: Renderer): RequestSettings {
  const settings: RequestSettings = { model };
  // The suite's default temperature yields to any sampling choice of the user's (Anthropic
  // thinking accepts no temperature).
  const temperature =
    o.temperature ?? (o.reasoningEffort ? undefined : render.sampling?.temperature);
  if (temperature !== undefined) settings.temperature = temperature;
  if (o.reasoningEffort !== undefined) settings.reasoningEffort = o.reasoningEffort;
  if (o.seed !== undefined) settings.seed = o.seed;
  return settings;
}

function refuseSeed(provider: Provider): never {
  throw new LonghaulError(
    "USAGE",
    `seed (--model-seed) does not apply: the Anthropic messages API of ${provider.name} has no sampling seed`,
  );
}

/**
 * Refuse options that would be silently ignored, saying why: a reply format for a renderer
 * that fixes its own, a reply allowance the renderer sets itself, a seed the provider lacks.
 */
function refuseWhatDoesNotApply(
  o: ResolvedLlmOptions,
  provider: Provider,
  render: Renderer,
  tracking: MemoryStrategy,
): void {
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
  if (
    o.memoryModel !== undefined &&
    tracking.kind !== "reflection" &&
    tracking.kind !== "explicit"
  ) {
    refuse(
      "memoryModel (--memory-model)",
      `memory "${o.memory}" calls no state manager (only reflection and explicit do)`,
    );
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
