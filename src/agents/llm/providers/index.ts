/** Provider adapters of the llm agent, by provider name. */
import type { ProviderName } from "../options.ts";
import { ANTHROPIC_BASE_URL, anthropicAdapter } from "./anthropic.ts";
import { OPENAI_BASE_URL, openAiAdapter } from "./openai.ts";
import type { AdapterConfig, ProviderAdapter } from "./types.ts";

export type * from "./types.ts";

/** The default base URL of each provider. */
export const DEFAULT_BASE_URL: Record<ProviderName, string> = {
  openai: OPENAI_BASE_URL,
  anthropic: ANTHROPIC_BASE_URL,
};

/** The adapter for `provider`. */
export function adapterFor(provider: ProviderName, config: AdapterConfig): ProviderAdapter {
  return provider === "openai" ? openAiAdapter(config) : anthropicAdapter(config);
}
