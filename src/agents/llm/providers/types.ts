/** The provider-neutral shapes the llm session speaks, and what each provider adapter implements. */

import type { ReasoningEffort } from "../options.ts";
import type { TokenCounts } from "../prices.ts";
import type { ProviderFailure } from "../retry.ts";

/** A tool as the model sees it: a function name, description and JSON Schema parameters. */
export interface FunctionTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One conversation turn; assistant turns keep the provider's own message to replay it verbatim. */
export type Turn =
  | { role: "user"; toolResults: { id: string; content: string }[]; texts: string[] }
  | { role: "assistant"; message: unknown };

/** A prompt in neutral form. */
export interface Prompt {
  system: string;
  turns: Turn[];
  /** Empty when the model answers in text (JSON fallback, text/json renderers). */
  tools: FunctionTool[];
}

/** Sampling settings of one request. */
export interface RequestSettings {
  model: string;
  temperature?: number;
  maxTokens?: number;
  reasoningEffort?: ReasoningEffort;
  seed?: number;
}

/** A tool call as the model produced it, with its arguments as JSON text. */
export interface RawToolCall {
  id: string;
  name: string;
  argumentsJson: string;
}

/** A validated provider response in neutral form. */
export interface ModelReply {
  text: string;
  toolCalls: RawToolCall[];
  /** The assistant message to append in chat context, in the provider's format. */
  assistant: unknown;
  tokens: TokenCounts;
}

/** One provider's wire format over its official SDK. */
export interface ProviderAdapter {
  /** The request body: model, messages, tools, parameters; never credentials. */
  buildRequest(prompt: Prompt, settings: RequestSettings): Record<string, unknown>;
  /** One HTTP attempt (the SDK client never retries). Resolves to the response body. */
  send(request: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
  /** Validate a response body (fresh or cached); throws a PROVIDER error when malformed. */
  parseReply(response: unknown): ModelReply;
  /** What kind of failure an error thrown by send() is. */
  classify(error: unknown, signal: AbortSignal): ProviderFailure;
}

/** Connection settings of an adapter. */
export interface AdapterConfig {
  apiKey: string;
  /** Without credentials: those of a `user:pass@` URL arrive as an Authorization header. */
  baseUrl: string;
  timeoutMs: number;
  /** Sent with every request (HTTP basic auth from a base URL's credentials). */
  headers?: Record<string, string>;
}
