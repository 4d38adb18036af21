/** Provider adapters of the llm agent and the registry that picks one per model name. */

export {
  BUILT_IN_PROVIDERS,
  configPath,
  LonghaulConfig,
  loadAdapter,
  loadConfigProviders,
  loadProviders,
  PROVIDER_APIS,
  type Provider,
  type ProviderApi,
  ProviderConfig,
  resolveModel,
} from "./registry.ts";
export type * from "./types.ts";
