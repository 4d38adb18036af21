/** A local server speaking Anthropic messages (tool_use blocks, thinking, usage, error bodies). */
import {
  type RecordedRequest,
  type StubOptions,
  type StubServer,
  startScriptedServer,
} from "./scripted-server.ts";

/** One scripted message. */
export interface AnthropicReply {
  text?: string;
  thinking?: string;
  toolUses?: { name: string; input: Record<string, unknown>; id?: string }[];
  usage?: {
    input?: number;
    output?: number;
    cacheRead?: number;
    cacheWrite?: number;
    thinking?: number;
  };
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  404: "not_found_error",
  429: "rate_limit_error",
  529: "overloaded_error",
};

/** Start an Anthropic stub; its baseUrl is the bare origin like the real API's. */
export function startAnthropicStub(
  options: StubOptions<AnthropicReply> = {},
): Promise<StubServer<AnthropicReply>> {
  return startScriptedServer<AnthropicReply>(
    {
      route: "/v1/messages",
      basePath: "",
      render: (reply, request, index) => renderMessage(reply, request, index),
      errorBody: (status, message) => ({
        type: "error",
        error: { type: ERROR_TYPES[status] ?? "api_error", message },
      }),
    },
    options,
  );
}

function renderMessage(reply: AnthropicReply, request: RecordedRequest, index: number): unknown {
  const content: unknown[] = [];
  if (reply.thinking !== undefined) {
    content.push({
      type: "thinking",
      thinking: reply.thinking,
      signature: `stub-signature-${index}`,
    });
  }
  if (reply.text !== undefined) content.push({ type: "text", text: reply.text, citations: null });
  (reply.toolUses ?? []).forEach((use, i) => {
    content.push({
      type: "tool_use",
      id: use.id ?? `toolu_${index}_${i}`,
      name: use.name,
      input: use.input,
    });
  });
  const usage = reply.usage ?? {};
  return {
    id: `msg_stub_${index}`,
    type: "message",
    role: "assistant",
    model: (request.body as { model?: string } | undefined)?.model ?? "stub",
    content,
    stop_reason: reply.toolUses?.length ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: usage.input ?? 10,
      output_tokens: usage.output ?? 5,
      cache_read_input_tokens: usage.cacheRead ?? 0,
      cache_creation_input_tokens: usage.cacheWrite ?? 0,
      output_tokens_details: { thinking_tokens: usage.thinking ?? 0 },
    },
  };
}
