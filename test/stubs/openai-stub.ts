/** A local server speaking OpenAI chat completions (tool_calls, usage, error bodies). */
import {
  type RecordedRequest,
  type StubOptions,
  type StubServer,
  startScriptedServer,
} from "./scripted-server.ts";

/** One scripted chat completion. */
export interface OpenAiReply {
  text?: string;
  /** `arguments` as a string is sent verbatim (so a test can send malformed JSON). */
  toolCalls?: { name: string; arguments: string | Record<string, unknown>; id?: string }[];
  usage?: { prompt?: number; completion?: number; cached?: number; reasoning?: number };
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  429: "rate_limit_exceeded",
};

/** Start an OpenAI-compatible stub; its baseUrl ends in /v1 like the real API's. */
export function startOpenAiStub(
  options: StubOptions<OpenAiReply> = {},
): Promise<StubServer<OpenAiReply>> {
  return startScriptedServer<OpenAiReply>(
    {
      route: "/v1/chat/completions",
      basePath: "/v1",
      render: (reply, request, index) => renderCompletion(reply, request, index),
      errorBody: (status, message) => ({
        error: { message, type: ERROR_TYPES[status] ?? "server_error", param: null, code: null },
      }),
    },
    options,
  );
}

function renderCompletion(reply: OpenAiReply, request: RecordedRequest, index: number): unknown {
  const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_${index}_${i}`,
    type: "function",
    function: {
      name: call.name,
      arguments:
        typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
  const usage = reply.usage ?? {};
  const prompt = usage.prompt ?? 10;
  const completion = usage.completion ?? 5;
  const message: Record<string, unknown> = {
    role: "assistant",
    content: reply.text ?? null,
    refusal: null,
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return {
    id: `chatcmpl-stub-${index}`,
    object: "chat.completion",
    created: 0,
    model: (request.body as { model?: string } | undefined)?.model ?? "stub",
    choices: [
      {
        index: 0,
        message,
        logprobs: null,
        finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop",
      },
    ],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: { cached_tokens: usage.cached ?? 0 },
      completion_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
    },
  };
}
