/** Anthropic messages over the official `@anthropic-ai/sdk`. */
import Anthropic, * as sdk from "@anthropic-ai/sdk";
import type { MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages";
import { z } from "zod";
import { formatZodError, LonghaulError } from "../../../core/index.ts";
import type { ReasoningEffort } from "../options.ts";
import { classifySdkError } from "./sdk-errors.ts";
import type {
  AdapterConfig,
  ModelReply,
  Prompt,
  ProviderAdapter,
  RawToolCall,
  RequestSettings,
} from "./types.ts";

/** max_tokens is required by the messages API; this applies when neither option nor suite sets it. */
const DEFAULT_MAX_TOKENS = 4096;

/** Extended-thinking budgets per reasoning effort (the API minimum is 1024). */
const THINKING_BUDGET: Record<ReasoningEffort, number> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
};

const MessageWire = z.object({
  content: z.array(z.looseObject({ type: z.string() })),
  usage: z
    .object({
      input_tokens: z.number().int().nonnegative(),
      output_tokens: z.number().int().nonnegative(),
      cache_read_input_tokens: z.number().int().nullish(),
      cache_creation_input_tokens: z.number().int().nullish(),
      output_tokens_details: z.object({ thinking_tokens: z.number().int().nullish() }).nullish(),
    })
    .nullish(),
});

const TextBlockWire = z.object({ type: z.literal("text"), text: z.string() });
const ToolUseWire = z.object({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
});

/** A content block checked against its schema, or a PROVIDER error naming it. */
function checkBlock<T>(schema: z.ZodType<T>, block: unknown, index: number): T {
  const checked = schema.safeParse(block);
  if (checked.success) return checked.data;
  throw new LonghaulError(
    "PROVIDER",
    `malformed message: content[${index}]: ${formatZodError(checked.error)}`,
  );
}

/** An adapter for `anthropic:NAME` models. */
export function anthropicAdapter(config: AdapterConfig): ProviderAdapter {
  const client = new Anthropic({
    apiKey: config.apiKey,
    baseURL: config.baseUrl,
    // An explicit timeout also keeps the SDK from refusing large non-streaming max_tokens.
    timeout: config.timeoutMs,
    maxRetries: 0,
    ...(config.headers ? { defaultHeaders: config.headers } : {}),
  });

  return {
    buildRequest(prompt: Prompt, settings: RequestSettings) {
      const messages = prompt.turns.map((turn) =>
        turn.role === "assistant"
          ? turn.message
          : {
              role: "user",
              content: [
                ...turn.toolResults.map((result) => ({
                  type: "tool_result",
                  tool_use_id: result.id,
                  content: result.content,
                })),
                ...turn.texts.map((text) => ({ type: "text", text })),
              ],
            },
      );
      const answerTokens = settings.maxTokens ?? DEFAULT_MAX_TOKENS;
      const request: Record<string, unknown> = {
        model: settings.model,
        max_tokens: answerTokens,
        system: prompt.system,
        messages,
      };
      if (prompt.tools.length > 0) {
        request.tools = prompt.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          input_schema: tool.parameters,
        }));
      }
      if (settings.temperature !== undefined) request.temperature = settings.temperature;
      if (settings.reasoningEffort !== undefined) {
        // Thinking tokens count toward max_tokens, so the answer allowance comes on top.
        const budget = THINKING_BUDGET[settings.reasoningEffort];
        request.thinking = { type: "enabled", budget_tokens: budget };
        request.max_tokens = budget + answerTokens;
      }
      return request;
    },

    async send(request, signal) {
      const body = request as unknown as MessageCreateParamsNonStreaming;
      return await client.messages.create(body, { signal });
    },

    parseReply(response: unknown): ModelReply {
      const parsed = MessageWire.safeParse(response);
      if (!parsed.success) {
        throw new LonghaulError("PROVIDER", `malformed message: ${formatZodError(parsed.error)}`);
      }
      const texts: string[] = [];
      const toolCalls: RawToolCall[] = [];
      for (const [index, block] of parsed.data.content.entries()) {
        if (block.type === "text") texts.push(checkBlock(TextBlockWire, block, index).text);
        if (block.type === "tool_use") {
          const use = checkBlock(ToolUseWire, block, index);
          toolCalls.push({ id: use.id, name: use.name, argumentsJson: JSON.stringify(use.input) });
        }
      }
      const usage = parsed.data.usage;
      const cacheRead = usage?.cache_read_input_tokens ?? 0;
      // Anthropic's input_tokens exclude cache reads and writes; longhaul counts all input.
      const input =
        (usage?.input_tokens ?? 0) + cacheRead + (usage?.cache_creation_input_tokens ?? 0);
      return {
        text: texts.join("\n"),
        toolCalls,
        // Thinking blocks must go back unchanged (with their signatures) when tools are used.
        assistant: { role: "assistant", content: (response as { content: unknown }).content },
        tokens: {
          input,
          cachedInput: cacheRead,
          output: usage?.output_tokens ?? 0,
          reasoning: usage?.output_tokens_details?.thinking_tokens ?? 0,
        },
      };
    },

    classify(error, signal) {
      return classifySdkError(error, signal, sdk);
    },
  };
}
