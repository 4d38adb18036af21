/**
 * Rows in OpenAI's chat fine-tuning format (JSONL, one conversation per line, tools at the top
 * level): the suite's harness prompt and the decision as the last assistant message, with
 * native tool calls for tool renderers and the reply text for json/text renderers. The zod
 * schema is checked against the openai SDK's own message and tool types at compile time.
 */
import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { z } from "zod";
import { ACCEPTED, ToolCatalog } from "../agents/llm/index.ts";
import type { TraceStep } from "../core/index.ts";
import type { DecisionSample } from "./sample.ts";

const ToolCallParam = z
  .object({
    id: z.string().min(1),
    type: z.literal("function"),
    function: z.object({ name: z.string().min(1), arguments: z.string() }).strict(),
  })
  .strict();

/** One message of a row; earlier assistant turns carry `weight: 0` (only the last is trained). */
const Message = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: z.string() }).strict(),
  z.object({ role: z.literal("user"), content: z.string() }).strict(),
  z
    .object({
      role: z.literal("assistant"),
      content: z.string().nullable(),
      tool_calls: z.array(ToolCallParam).min(1).optional(),
      weight: z.union([z.literal(0), z.literal(1)]).optional(),
    })
    .strict(),
  z
    .object({ role: z.literal("tool"), tool_call_id: z.string().min(1), content: z.string() })
    .strict(),
]);

/** An OpenAI chat fine-tuning row. */
export const OpenAiChatRow = z
  .object({
    messages: z.array(Message).min(3),
    tools: z
      .array(
        z
          .object({
            type: z.literal("function"),
            function: z
              .object({
                name: z.string().min(1),
                description: z.string(),
                parameters: z.record(z.string(), z.unknown()),
              })
              .strict(),
          })
          .strict(),
      )
      .optional(),
  })
  .strict();
export type OpenAiChatRow = z.infer<typeof OpenAiChatRow>;

/** The SDK's shapes, plus the fine-tuning format's per-message `weight`. */
type SdkRow = {
  messages: (ChatCompletionMessageParam & { weight?: 0 | 1 })[];
  tools?: ChatCompletionFunctionTool[];
};
// Compile-time proof that every row the schema accepts is a valid SDK request body.
const sdkCompatible: (row: OpenAiChatRow) => SdkRow = (row) => row;
void sdkCompatible;

type AssistantMessage = Extract<OpenAiChatRow["messages"][number], { role: "assistant" }>;

/** The row of one decision. */
export function openAiChatRow(sample: DecisionSample): OpenAiChatRow {
  const { card, renderer, before, step } = sample;
  const messages: OpenAiChatRow["messages"] = [{ role: "system", content: renderer.system(card) }];
  if (renderer.output !== "tools") {
    if (!renderer.reply) {
      throw new Error(
        `the ${card.suite} renderer answers in ${renderer.output} but has no reply()`,
      );
    }
    messages.push(
      { role: "user", content: renderer.user(step.observation, { card, history: [...before] }) },
      { role: "assistant", content: renderer.reply(step, before, card) },
    );
    return { messages };
  }
  const catalog = new ToolCatalog(card);
  // Targets carry no reasoning, only the tool calls (MAGMA-Bench 5.2: "we remove explicit
  // reasoning from the targets and train the model to emit the ... tool call directly").
  const assistant = (s: TraceStep, weight?: 0): AssistantMessage => ({
    role: "assistant",
    content: null,
    tool_calls: catalog
      .toToolCalls(s.action as NonNullable<TraceStep["action"]>)
      .map((call, i) => ({
        id: `call_${s.step}_${i}`,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      })),
    ...(weight === 0 ? { weight } : {}),
  });
  if (renderer.context === "chat") {
    // The conversation as the llm agent holds it: each decision answered with tool results,
    // then the next observation; unusable replies left out.
    const decided = before.filter((s) => s.action !== undefined);
    for (const [i, s] of decided.entries()) {
      messages.push({
        role: "user",
        content: renderer.user(s.observation, { card, history: decided.slice(0, i) }),
      });
      const reply = assistant(s, 0);
      messages.push(reply);
      for (const call of reply.tool_calls ?? []) {
        messages.push({ role: "tool", tool_call_id: call.id, content: ACCEPTED });
      }
    }
    messages.push({
      role: "user",
      content: renderer.user(step.observation, { card, history: decided }),
    });
  } else {
    messages.push({
      role: "user",
      content: renderer.user(step.observation, { card, history: [...before] }),
    });
  }
  messages.push(assistant(step));
  return {
    messages,
    tools: catalog.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    })),
  };
}
