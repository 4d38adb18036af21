/** Public surface of the generic llm agent (OpenAI-compatible and Anthropic providers). */
export { defaultRenderer } from "./default-renderer.ts";
export { createLlmAgent } from "./llm-agent.ts";
export { type LlmAgentOptions, LlmAgentOptionsSchema, publicConfig } from "./options.ts";
export { loadPriceTable, ModelPrice, PriceTable } from "./prices.ts";
