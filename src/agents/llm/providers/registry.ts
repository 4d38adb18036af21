/**
 * The provider registry: maps the `provider:` prefix of a model name to a wire format, an
 * endpoint and a key variable. Built in: `openai` and `anthropic`; users add OpenAI-compatible
 * (or Anthropic-compatible) names in a config file. Adapters load on first use, so a run loads
 * only its provider's SDK.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { LonghaulError, parseOrThrow, unknownNameMessage } from "../../../core/index.ts";
import { ANTHROPIC_BASE_URL, OPENAI_BASE_URL } from "./endpoints.ts";
import type { AdapterConfig, ProviderAdapter } from "./types.ts";

/** The wire formats longhaul speaks; each has one adapter file. */
export const PROVIDER_APIS = ["openai", "anthropic"] as const;
export type ProviderApi = (typeof PROVIDER_APIS)[number];

/** A provider: the wire format it speaks, its endpoint and where its key comes from. */
export interface Provider {
  name: string;
  api: ProviderApi;
  baseUrl: string;
  /** The environment variable holding the key; left out for keyless (local) servers. */
  apiKeyEnv?: string;
  /** "built in", or the config file that declared it (for messages). */
  source: string;
}

/** The providers every installation knows. */
export const BUILT_IN_PROVIDERS: readonly Provider[] = [
  {
    name: "openai",
    api: "openai",
    baseUrl: OPENAI_BASE_URL,
    apiKeyEnv: "OPENAI_API_KEY",
    source: "built in",
  },
  {
    name: "anthropic",
    api: "anthropic",
    baseUrl: ANTHROPIC_BASE_URL,
    apiKeyEnv: "ANTHROPIC_API_KEY",
    source: "built in",
  },
];

const ADAPTERS: Record<ProviderApi, () => Promise<(config: AdapterConfig) => ProviderAdapter>> = {
  openai: async () => (await import("./openai.ts")).openAiAdapter,
  anthropic: async () => (await import("./anthropic.ts")).anthropicAdapter,
};

/** A provider name: what goes before the first colon of a model name. */
const PROVIDER_NAME = /^[a-z][a-z0-9_.-]*$/;

/** One user-declared provider in the config file. */
export const ProviderConfig = z
  .object({
    api: z.enum(PROVIDER_APIS).default("openai"),
    baseUrl: z.url(),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected an environment variable name")
      .optional(),
  })
  .strict();

/** The config file; sections other than `providers` are left for other features. */
export const LonghaulConfig = z.looseObject({
  providers: z.record(z.string(), ProviderConfig).default({}),
});

/** The config file: LONGHAUL_CONFIG, else $XDG_CONFIG_HOME/longhaul/config.json, else ~/.config. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LONGHAUL_CONFIG) return env.LONGHAUL_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(base, "longhaul", "config.json");
}

/** The providers declared in the config file at `path` (none when it does not exist). */
export function loadConfigProviders(path: string): Provider[] {
  if (!existsSync(path)) return [];
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new LonghaulError("INVALID_INPUT", `config file ${path}: ${(error as Error).message}`);
  }
  const config = parseOrThrow(LonghaulConfig, data, `config file ${path}`);
  return Object.entries(config.providers).map(([name, p]) => {
    const where = `config file ${path}: providers.${name}`;
    if (!PROVIDER_NAME.test(name)) {
      throw new LonghaulError("INVALID_INPUT", "expected a name of a-z, 0-9, _ . -", where);
    }
    if (BUILT_IN_PROVIDERS.some((b) => b.name === name)) {
      throw new LonghaulError("INVALID_INPUT", "built in; declare it under another name", where);
    }
    return { name, ...p, source: path };
  });
}

/** Every provider: the built-ins, then the config file's (see configPath). */
export function loadProviders(env: NodeJS.ProcessEnv = process.env): Provider[] {
  return [...BUILT_IN_PROVIDERS, ...loadConfigProviders(configPath(env))];
}

/** "together:meta-llama/x" -> its provider and the model name (which may hold colons). */
export function resolveModel(
  model: string,
  providers: readonly Provider[],
): { provider: Provider; name: string } {
  const names = providers.map((p) => p.name);
  const colon = model.indexOf(":");
  if (colon <= 0 || colon === model.length - 1) {
    throw new LonghaulError(
      "USAGE",
      `model "${model}" is not "provider:NAME"; providers: ${names.join(", ")}`,
    );
  }
  const prefix = model.slice(0, colon);
  const provider = providers.find((p) => p.name === prefix);
  if (!provider) throw new LonghaulError("USAGE", unknownNameMessage("provider", prefix, names));
  return { provider, name: model.slice(colon + 1) };
}

/** The adapter for `provider`, loading its SDK on first use. */
export async function loadAdapter(
  provider: Provider,
  config: AdapterConfig,
): Promise<ProviderAdapter> {
  return (await ADAPTERS[provider.api]())(config);
}
