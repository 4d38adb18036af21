/** Public surface of the generic llm agent and its provider registry. */
export { defaultRenderer } from "./default-renderer.ts";
export { createLlmAgent, llmAgent } from "./llm-agent.ts";
export { ACCEPTED } from "./llm-session.ts";
export { type LlmAgentOptions, LlmAgentOptionsSchema, publicConfig } from "./options.ts";
export { loadPriceTable, ModelPrice, PriceTable } from "./prices.ts";
export {
  BUILT_IN_PROVIDERS,
  configPath,
  loadProviders,
  type Provider,
  ProviderConfig,
  resolveModel,
} from "./providers/index.ts";
export {
  backoffMs,
  kindOfStatus,
  type ProviderFailure,
  retryAfterMs,
  sleep,
} from "./retry.ts";
export { ToolCatalog } from "./tool-catalog.ts";
