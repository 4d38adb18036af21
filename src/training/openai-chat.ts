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
import type { Renderer, TaskCard, TraceStep } from "../core/index.ts";
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

/** Tool catalogs by card: building one converts every tool schema, and rows share cards. */
const catalogs = new WeakMap<TaskCard, ToolCatalog>();

function catalogOf(card: TaskCard): ToolCatalog {
  let catalog = catalogs.get(card);
  if (!catalog) {
    catalog = new ToolCatalog(card);
    catalogs.set(card, catalog);
  }
  return catalog;
}

type Message = OpenAiChatRow["messages"][number];

/**
 * A decision as the assistant's tool calls. Targets carry no reasoning, only the calls
 * (MAGMA-Bench 5.2: "we remove explicit reasoning from the targets and train the model to emit
 * the ... tool call directly"); earlier turns carry `weight: 0`.
 */
function assistantMessage(catalog: ToolCatalog, s: TraceStep, weight?: 0): AssistantMessage {
  return {
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
  };
}

/**
 * An earlier decision of a chat harness as the llm agent holds it: the observation, the reply's
 * tool calls, each answered by a tool result.
 */
function chatTurn(
  sample: Pick<DecisionSample, "card" | "renderer">,
  catalog: ToolCatalog,
  s: TraceStep,
  history: TraceStep[],
): Message[] {
  const { card, renderer } = sample;
  const reply = assistantMessage(catalog, s, 0);
  return [
    { role: "user", content: renderer.user(s.observation, { card, history }) },
    reply,
    ...(reply.tool_calls ?? []).map(
      (call): Message => ({ role: "tool", tool_call_id: call.id, content: ACCEPTED }),
    ),
  ];
}

function toolsOf(catalog: ToolCatalog): NonNullable<OpenAiChatRow["tools"]> {
  return catalog.tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

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
  const catalog = catalogOf(card);
  if (renderer.context === "chat") {
    // The conversation as the llm agent holds it: each decision answered with tool results,
    // then the next observation; unusable replies left out.
    const decided = before.filter((s) => s.action !== undefined);
    for (const [i, s] of decided.entries())
      messages.push(...chatTurn(sample, catalog, s, decided.slice(0, i)));
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
  messages.push(assistantMessage(catalog, step));
  return { messages, tools: toolsOf(catalog) };
}

/** A node of the history trie: an earlier turn serialised, reached by the steps before it. */
interface TurnNode {
  children: Map<TraceStep, TurnNode>;
  /** `,` and the turn's messages as JSON. */
  bytes: Buffer;
}

/**
 * The JSONL lines of chat rows whose histories share prefixes (the decisions of one trajectory,
 * and its augmented variants): each earlier turn is serialised once per distinct history before
 * it, in a trie keyed by the step objects, so a row costs its bytes rather than re-rendering
 * its conversation. A line equals `JSON.stringify(openAiChatRow(sample))` and a newline (tested);
 * rows of other harnesses are rendered whole. Keep one encoder per trajectory: it holds its turns.
 */
export class ChatLineEncoder {
  private readonly roots = new Map<
    TaskCard,
    { renderer: Renderer; head: Buffer; tail: Buffer; root: TurnNode }
  >();

  /** The line of `sample`. */
  line(sample: DecisionSample): Buffer {
    return Buffer.concat(this.parts(sample));
  }

  /** The line of `sample` in pieces (shared turns are not copied; a task's rows join once). */
  parts(sample: DecisionSample): Buffer[] {
    const { card, renderer, before, step } = sample;
    if (renderer.output !== "tools" || renderer.context !== "chat")
      return [Buffer.from(`${JSON.stringify(openAiChatRow(sample))}\n`)];
    const catalog = catalogOf(card);
    let tree = this.roots.get(card);
    if (!tree || tree.renderer !== renderer) {
      const system: Message = { role: "system", content: renderer.system(card) };
      tree = {
        renderer,
        head: Buffer.from(`{"messages":[${JSON.stringify(system)}`),
        tail: Buffer.from(`],"tools":${JSON.stringify(toolsOf(catalog))}}\n`),
        root: { children: new Map(), bytes: Buffer.alloc(0) },
      };
      this.roots.set(card, tree);
    }
    const parts: Buffer[] = [tree.head];
    const decided = before.filter((s) => s.action !== undefined);
    let node = tree.root;
    for (const [i, s] of decided.entries()) {
      let child = node.children.get(s);
      if (!child) {
        const turn = chatTurn(sample, catalog, s, decided.slice(0, i));
        child = {
          children: new Map(),
          bytes: Buffer.from(`,${turn.map((m) => JSON.stringify(m)).join(",")}`),
        };
        node.children.set(s, child);
      }
      parts.push(child.bytes);
      node = child;
    }
    const user: Message = {
      role: "user",
      content: renderer.user(step.observation, { card, history: decided }),
    };
    parts.push(
      Buffer.from(`,${JSON.stringify(user)},${JSON.stringify(assistantMessage(catalog, step))}`),
      tree.tail,
    );
    return parts;
  }
}
