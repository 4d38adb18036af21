import { afterEach, describe, expect, it } from "vitest";
import { createLlmAgent, type LlmAgentOptions } from "../src/agents/llm/index.ts";
import { AdaptiveLimiter, LonghaulError, type Renderer } from "../src/core/index.ts";
import {
  type AnthropicReply,
  FIXTURE_CARD,
  fixtureContext,
  fixtureObservation,
  type StubServer,
  type StubStep,
  startAnthropicStub,
} from "./stubs/index.ts";

const KEY = "sk-ant-test-secret-42";
const MOVE: AnthropicReply = {
  toolUses: [{ name: "move", input: { object: "a", onto: "b", robot: "r1" } }],
};

type Block = { type: string; [key: string]: unknown };
type Message = { role: string; content: Block[] };

let stub: StubServer<AnthropicReply> | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

async function session(
  script: StubStep<AnthropicReply>[],
  options: Partial<LlmAgentOptions> = {},
  context = fixtureContext(),
  renderer?: Renderer,
) {
  stub = await startAnthropicStub({ script });
  const agent = await createLlmAgent(
    {
      model: "anthropic:claude-test",
      baseUrl: stub.baseUrl,
      apiKey: KEY,
      retryBaseMs: 1,
      ...options,
    },
    renderer,
  );
  return { agent, session: await agent.start(FIXTURE_CARD, context), stub };
}

function bodyOf(
  server: StubServer<AnthropicReply>,
  index: number,
): Record<string, unknown> & { messages: Message[] } {
  const request = server.requests[index];
  if (!request) throw new Error(`no request ${index}`);
  return request.body as Record<string, unknown> & { messages: Message[] };
}

describe("llm agent over Anthropic messages", () => {
  it("turns tool_use blocks into actions, with cache-read and thinking usage priced", async () => {
    const {
      agent,
      session: s,
      stub,
    } = await session(
      [
        {
          thinking: "a goes on b",
          text: "Moving.",
          toolUses: [
            { name: "move", input: { object: "a", onto: "b", robot: "r1" } },
            { name: "look", input: {} },
          ],
          usage: { input: 100, cacheRead: 800, cacheWrite: 100, output: 300, thinking: 120 },
        },
      ],
      { prices: { "anthropic:claude-test": { input: 3, cachedInput: 0.3, output: 15 } } },
    );
    const decision = await s.act(fixtureObservation(0));
    expect(agent.provider).toBe("anthropic:claude-test");
    expect(decision.action).toEqual({
      kind: "tool",
      calls: [
        { tool: "move", args: { object: "a", onto: "b" }, robot: "r1", id: "toolu_0_0" },
        { tool: "look", args: {}, id: "toolu_0_1" },
      ],
    });
    expect(decision.note).toBe("Moving.");
    // Input counts cache reads and writes: 100 + 800 + 100.
    expect(decision.usage).toMatchObject({
      inputTokens: 1000,
      cachedInputTokens: 800,
      outputTokens: 300,
      reasoningTokens: 120,
    });
    // 200 uncached * $3 + 800 cached * $0.3 + 300 output * $15, per million tokens.
    expect(decision.usage?.costUsd).toBeCloseTo(0.00534, 12);
    const body = bodyOf(stub, 0);
    expect(body.system).toContain("Task: Stack the blocks");
    expect((body.tools as { name: string }[]).map((t) => t.name)).toEqual([
      "move",
      "look",
      "say",
      "finish",
    ]);
    expect(stub.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(decision)).not.toContain(KEY);
  });

  it("replays the assistant content and answers tool calls with tool_result blocks", async () => {
    const { session: s, stub } = await session([
      { thinking: "plan", toolUses: [{ name: "move", input: { object: "a", robot: "r1" } }] },
      MOVE,
    ]);
    const bad = await s.act(fixtureObservation(0));
    expect(bad.formatError).toMatch(/^calls\[0\]\.arguments\.onto: .*\(tool "move"\)$/);
    await s.act(fixtureObservation(1));
    const messages = bodyOf(stub, 1).messages;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(messages[1]?.content[0]).toEqual({
      type: "thinking",
      thinking: "plan",
      signature: "stub-signature-0",
    });
    const answer = messages[2]?.content ?? [];
    expect(answer[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_0_0" });
    expect(String(answer[0]?.content)).toContain("calls[0].arguments.onto");
    expect(answer[1]).toMatchObject({ type: "text" });
  });

  it("sets a thinking budget on top of the answer allowance for a reasoning effort", async () => {
    const { session: s, stub } = await session([MOVE], {
      reasoningEffort: "medium",
      maxTokens: 1000,
    });
    await s.act(fixtureObservation(0));
    expect(bodyOf(stub, 0)).toMatchObject({
      model: "claude-test",
      max_tokens: 9192,
      thinking: { type: "enabled", budget_tokens: 8192 },
    });
    expect(bodyOf(stub, 0).temperature).toBeUndefined();
  });

  it("retries 429 (Retry-After), 529 and a hung connection, then succeeds", async () => {
    const gate = new AdaptiveLimiter(4);
    const { session: s, stub } = await session(
      [{ status: 429, headers: { "retry-after": "0" } }, { status: 529 }, { hang: true }, MOVE],
      { timeoutMs: 300, retryBaseMs: 1 },
      fixtureContext({ gate }),
    );
    const decision = await s.act(fixtureObservation(0));
    expect(decision.calls?.[0]?.attempts).toBe(4);
    expect(decision.usage?.retries).toBe(3);
    expect(stub.requests).toHaveLength(4);
    expect(gate.limitOf("anthropic:claude-test")).toBe(2);
  });

  it("throws PROVIDER after the retries, and a USAGE error that stops the run on a 401", async () => {
    const exhausted = await session([{ status: 500 }, { status: 500 }], { maxRetries: 1 });
    const error = await exhausted.session.act(fixtureObservation(0)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LonghaulError);
    expect((error as LonghaulError).code).toBe("PROVIDER");
    expect(exhausted.stub.requests).toHaveLength(2);
    await exhausted.stub.close();

    const denied = await session([{ status: 401 }, MOVE]);
    const fatal = await denied.session.act(fixtureObservation(0)).catch((e: unknown) => e);
    expect((fatal as LonghaulError).code).toBe("USAGE");
    expect((fatal as LonghaulError).message).toMatch(
      /^anthropic:claude-test at 127\.0\.0\.1:\d+: the provider refused the API key \(HTTP 401: /,
    );
    expect(denied.stub.requests).toHaveLength(1);
  });

  it("serves the JSON fallback as text, stripping reasoning", async () => {
    const { session: s, stub } = await session(
      [{ text: '<think>maybe say</think>{"kind":"say","text":"ready"}' }],
      { output: "json" },
    );
    expect((await s.act(fixtureObservation(0))).action).toEqual({ kind: "say", text: "ready" });
    expect(bodyOf(stub, 0).tools).toBeUndefined();
    expect(bodyOf(stub, 0).system).toContain('{"kind":"say","text":"..."}');
  });
});
