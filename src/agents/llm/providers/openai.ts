/** OpenAI chat completions (and OpenAI-compatible servers) over the official `openai` SDK. */
import OpenAI, * as sdk from "openai";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { z } from "zod";
import { formatZodError, LonghaulError } from "../../../core/index.ts";
import { OPENAI_BASE_URL } from "./endpoints.ts";
import { classifySdkError } from "./sdk-errors.ts";
import type {
  AdapterConfig,
  ModelReply,
  Prompt,
  ProviderAdapter,
  RequestSettings,
} from "./types.ts";

const ToolCallWire = z.object({
  id: z.string(),
  type: z.literal("function"),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

const ChatCompletionWire = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z.array(ToolCallWire).nullish(),
        }),
      }),
    )
    .min(1),
  usage: z
    .object({
      prompt_tokens: z.number().int().nonnegative(),
      completion_tokens: z.number().int().nonnegative(),
      prompt_tokens_details: z.object({ cached_tokens: z.number().int().nullish() }).nullish(),
      completion_tokens_details: z
        .object({ reasoning_tokens: z.number().int().nullish() })
        .nullish(),
    })
    .nullish(),
});

/** An adapter for `openai:NAME` models. */
export function openAiAdapter(config: AdapterConfig): ProviderAdapter {
  const client = new OpenAI({
    apiKey: config.apiKey,
    baseURL: config.baseUrl,
    timeout: config.timeoutMs,
    maxRetries: 0,
    ...(config.headers ? { defaultHeaders: config.headers } : {}),
  });
  // The official API wants max_completion_tokens (reasoning models reject max_tokens);
  // OpenAI-compatible servers (vLLM, Ollama, llama.cpp) reliably understand max_tokens.
  const maxTokensField =
    config.baseUrl === OPENAI_BASE_URL ? "max_completion_tokens" : "max_tokens";

  return {
    buildRequest(prompt: Prompt, settings: RequestSettings) {
      const messages: unknown[] = [{ role: "system", content: prompt.system }];
      for (const turn of prompt.turns) {
        if (turn.role === "assistant") {
          messages.push(turn.message);
          continue;
        }
        for (const result of turn.toolResults) {
          messages.push({ role: "tool", tool_call_id: result.id, content: result.content });
        }
        for (const text of turn.texts) messages.push({ role: "user", content: text });
      }
      const request: Record<string, unknown> = { model: settings.model, messages };
      if (prompt.tools.length > 0) {
        request.tools = prompt.tools.map((tool) => ({
          type: "function",
          function: { name: tool.name, description: tool.description, parameters: tool.parameters },
        }));
      }
      if (settings.temperature !== undefined) request.temperature = settings.temperature;
      if (settings.maxTokens !== undefined) request[maxTokensField] = settings.maxTokens;
      if (settings.reasoningEffort !== undefined) {
        request.reasoning_effort = settings.reasoningEffort;
      }
      if (settings.seed !== undefined) request.seed = settings.seed;
      return request;
    },

    async send(request, signal) {
      const body = request as unknown as ChatCompletionCreateParamsNonStreaming;
      return await client.chat.completions.create(body, { signal });
    },

    parseReply(response: unknown): ModelReply {
      const parsed = ChatCompletionWire.safeParse(response);
      if (!parsed.success) {
        throw new LonghaulError(
          "PROVIDER",
          `malformed chat completion: ${formatZodError(parsed.error)}`,
        );
      }
      const message = parsed.data.choices[0]!.message;
      const usage = parsed.data.usage;
      const toolCalls = message.tool_calls ?? [];
      const assistant: Record<string, unknown> = {
        role: "assistant",
        content: message.content ?? (toolCalls.length > 0 ? null : ""),
      };
      if (toolCalls.length > 0) assistant.tool_calls = toolCalls;
      return {
        text: message.content ?? "",
        toolCalls: toolCalls.map((call) => ({
          id: call.id,
          name: call.function.name,
          argumentsJson: call.function.arguments,
        })),
        assistant,
        tokens: {
          input: usage?.prompt_tokens ?? 0,
          cachedInput: usage?.prompt_tokens_details?.cached_tokens ?? 0,
          output: usage?.completion_tokens ?? 0,
          reasoning: usage?.completion_tokens_details?.reasoning_tokens ?? 0,
        },
      };
    },

    classify(error, signal) {
      return classifySdkError(error, signal, sdk);
    },
  };
}
