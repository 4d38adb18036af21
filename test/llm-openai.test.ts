import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { createLlmAgent, type LlmAgentOptions } from "../src/agents/llm/index.ts";
import { AdaptiveLimiter, LonghaulError, type Renderer } from "../src/core/index.ts";
import {
  FIXTURE_CARD,
  fixtureContext,
  fixtureObservation,
  type OpenAiReply,
  type StubServer,
  type StubStep,
  startOpenAiStub,
} from "./stubs/index.ts";

const KEY = "sk-test-secret-0123456789";
const MOVE: OpenAiReply = {
  toolCalls: [{ name: "move", arguments: { object: "a", onto: "b", robot: "r1" } }],
};

let stub: StubServer<OpenAiReply> | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

async function session(
  script: StubStep<OpenAiReply>[],
  options: Partial<LlmAgentOptions> = {},
  context = fixtureContext(),
  renderer?: Renderer,
) {
  stub = await startOpenAiStub({ script });
  const agent = await createLlmAgent(
    { model: "openai:gpt-test", baseUrl: stub.baseUrl, apiKey: KEY, retryBaseMs: 1, ...options },
    renderer,
  );
  return { agent, session: await agent.start(FIXTURE_CARD, context), stub };
}

/** The messages of the stub's request number `index`. */
function messagesOf<M>(server: StubServer<OpenAiReply>, index: number): M[] {
  const request = server.requests[index];
  if (!request) throw new Error(`no request ${index}`);
  return (request.body as { messages: M[] }).messages;
}

async function rejection(promise: Promise<unknown>): Promise<LonghaulError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LonghaulError);
  return error as LonghaulError;
}

describe("llm agent over OpenAI chat completions", () => {
  it("turns a tool call into an addressed action, with usage and cost", async () => {
    const {
      agent,
      session: s,
      stub,
    } = await session(
      [
        {
          ...MOVE,
          text: "moving a",
          usage: { prompt: 1000, completion: 200, cached: 400, reasoning: 50 },
        },
      ],
      { prices: { "gpt-test": { input: 2, cachedInput: 0.5, output: 8 } } },
    );
    const decision = await s.act(fixtureObservation(0));
    expect(agent.provider).toBe("openai:gpt-test");
    expect(decision.action).toEqual({
      kind: "tool",
      calls: [{ tool: "move", args: { object: "a", onto: "b" }, robot: "r1", id: "call_0_0" }],
    });
    expect(decision.note).toBe("moving a");
    // 600 uncached * $2 + 400 cached * $0.5 + 200 output * $8, per million tokens.
    expect(decision.usage).toMatchObject({
      calls: 1,
      inputTokens: 1000,
      cachedInputTokens: 400,
      outputTokens: 200,
      reasoningTokens: 50,
      retries: 0,
      cachedCalls: 0,
    });
    expect(decision.usage?.costUsd).toBeCloseTo(0.003, 12);
    expect(decision.calls?.[0]).toMatchObject({
      provider: "openai:gpt-test",
      model: "gpt-test",
      attempts: 1,
      cached: false,
    });

    const body = stub.requests[0]?.body as {
      tools: { function: { name: string; parameters: { required: string[] } } }[];
    };
    expect(body.tools.map((t) => t.function.name)).toEqual(["move", "look", "say", "finish"]);
    expect(body.tools[0]?.function.parameters.required).toEqual(["object", "onto", "robot"]);
    expect(stub.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(decision)).not.toContain(KEY);
  });

  it("maps pseudo-tools to say and finish", async () => {
    const { session: s } = await session([
      { toolCalls: [{ name: "say", arguments: { text: "done soon" } }] },
      { toolCalls: [{ name: "finish", arguments: {} }] },
    ]);
    expect((await s.act(fixtureObservation(0))).action).toEqual({ kind: "say", text: "done soon" });
    expect((await s.act(fixtureObservation(1))).action).toEqual({ kind: "finish" });
  });

  it("honours Retry-After on 429 and halves the gate's limit", async () => {
    const gate = new AdaptiveLimiter(8);
    const past = new Date(Date.now() - 5000).toUTCString();
    // A backoff of ten minutes would stall the test: only the server's waits are used.
    const { session: s, stub } = await session(
      [
        { status: 429, headers: { "retry-after": "0" } },
        { status: 429, headers: { "retry-after": past } },
        { status: 429, headers: { "retry-after-ms": "5" } },
        MOVE,
      ],
      { retryBaseMs: 600_000 },
      fixtureContext({ gate }),
    );
    const decision = await s.act(fixtureObservation(0));
    expect(decision.action?.kind).toBe("tool");
    expect(decision.usage?.retries).toBe(3);
    expect(decision.calls?.[0]?.attempts).toBe(4);
    expect(stub.requests).toHaveLength(4);
    // Halved three times (8 -> 1), then raised by one after a window of one success.
    expect(gate.limitOf("openai:gpt-test")).toBe(2);
  });

  it("halves the gate's limit on a rate limit", async () => {
    const gate = new AdaptiveLimiter(8);
    const { session: s } = await session(
      [{ status: 429, headers: { "retry-after": "0" } }, MOVE],
      {},
      fixtureContext({ gate }),
    );
    await s.act(fixtureObservation(0));
    expect(gate.limitOf("openai:gpt-test")).toBe(4);
  });

  it("retries a 500 and then succeeds", async () => {
    const { session: s, stub } = await session([{ status: 500 }, { status: 503 }, MOVE]);
    const decision = await s.act(fixtureObservation(0));
    expect(decision.calls?.[0]?.attempts).toBe(3);
    expect(decision.usage?.retries).toBe(2);
    expect(stub.requests).toHaveLength(3);
  });

  it("retries a timed-out attempt on a hung connection", async () => {
    const { session: s, stub } = await session([{ hang: true }, MOVE], { timeoutMs: 300 });
    const decision = await s.act(fixtureObservation(0));
    expect(decision.action?.kind).toBe("tool");
    expect(decision.calls?.[0]?.attempts).toBe(2);
    expect(stub.requests).toHaveLength(2);
  });

  it("gives up on a decision at its cap, however many retries are left", async () => {
    const hung = Array.from({ length: 30 }, () => ({ hang: true as const }));
    const { session: s, stub } = await session(hung, {
      timeoutMs: 40,
      decisionTimeoutMs: 250,
      maxRetries: 29,
    });
    const error = await rejection(s.act(fixtureObservation(0)));
    expect(error.code).toBe("PROVIDER");
    expect(error.message).toMatch(
      /^openai:gpt-test: no reply within the decision timeout of 0\.25 s \(\d+ attempts?; last: timeout: /,
    );
    expect(stub.requests.length).toBeLessThan(30);
  });

  it("sends a base URL's credentials as basic auth, never in the URL", async () => {
    stub = await startOpenAiStub({ script: [MOVE] });
    const withUser = stub.baseUrl.replace("http://", "http://alice:s3cr%40t-pw@");
    const agent = await createLlmAgent({ model: "openai:gpt-test", baseUrl: withUser });
    await (await agent.start(FIXTURE_CARD, fixtureContext())).act(fixtureObservation(0));
    const auth = stub.requests[0]?.headers.authorization;
    expect(auth).toBe(`Basic ${Buffer.from("alice:s3cr@t-pw").toString("base64")}`);
    const both = await rejection(
      createLlmAgent({ model: "openai:gpt-test", baseUrl: withUser, apiKey: KEY }),
    );
    expect(both.message).toMatch(/credentials in the base URL or an API key, not both/);
  });

  it("refuses a reply format the suite's renderer does not offer", async () => {
    const json: Renderer = {
      output: "json",
      context: "stateless",
      system: () => "sys",
      user: () => "obs",
      parse: () => ({ ok: false, error: "never" }),
    };
    const refused = await rejection(
      createLlmAgent({ model: "openai:gpt-test", apiKey: KEY, output: "tools" }, json),
    );
    expect(refused.code).toBe("USAGE");
    expect(refused.message).toBe(
      'output "tools" (--output) does not apply: this suite\'s renderer answers in json, not with tool calls, so there is no reply format to choose',
    );
  });

  it("throws a PROVIDER error when the retries run out", async () => {
    const { session: s, stub } = await session(
      [{ status: 500 }, { status: 500 }, { status: 500 }, MOVE],
      {
        maxRetries: 2,
      },
    );
    const error = await rejection(s.act(fixtureObservation(0)));
    expect(error.code).toBe("PROVIDER");
    expect(error.message).toContain("retries exhausted");
    expect(stub.requests).toHaveLength(3);
  });

  it("makes a single attempt with maxRetries 0", async () => {
    const { session: s, stub } = await session(
      [{ status: 429, headers: { "retry-after": "0" } }, MOVE],
      {
        maxRetries: 0,
      },
    );
    expect((await rejection(s.act(fixtureObservation(0)))).code).toBe("PROVIDER");
    expect(stub.requests).toHaveLength(1);
  });

  it("never retries a 400", async () => {
    const { session: s, stub } = await session([{ status: 400, message: "bad field" }, MOVE]);
    const error = await rejection(s.act(fixtureObservation(0)));
    expect(error.code).toBe("PROVIDER");
    expect(error.message).toContain("not retried");
    expect(stub.requests).toHaveLength(1);
  });

  it("never retries an aborted call", async () => {
    const controller = new AbortController();
    const { session: s, stub } = await session(
      [{ hang: true }, MOVE],
      {},
      fixtureContext({ signal: controller.signal }),
    );
    const pending = s.act(fixtureObservation(0));
    while (stub.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    expect((await rejection(pending)).code).toBe("ABORTED");
    expect(stub.requests).toHaveLength(1);
  });

  it("leaves no abort listeners on the episode's signal across decisions", async () => {
    const controller = new AbortController();
    const { session: s } = await session(
      Array(12).fill(MOVE),
      {},
      fixtureContext({ signal: controller.signal }),
    );
    for (let step = 0; step < 12; step++) await s.act(fixtureObservation(step));
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("reports malformed tool arguments with their path and feeds the error back", async () => {
    const { session: s, stub } = await session([
      { toolCalls: [{ name: "move", arguments: '{"object": "a", ' }] },
      {
        toolCalls: [
          { name: "move", arguments: { object: "a", onto: "b", robot: "r1", steps: "two" } },
        ],
      },
      { toolCalls: [{ name: "fly", arguments: {} }] },
      { text: "I am not sure." },
      MOVE,
    ]);
    const bad = await s.act(fixtureObservation(0));
    expect(bad.action).toBeUndefined();
    expect(bad.formatError).toMatch(/^calls\[0\]\.arguments: invalid JSON for tool "move"/);
    expect(bad.raw).toContain('{\\"object\\": \\"a\\", ');
    const schema = await s.act(fixtureObservation(1));
    expect(schema.formatError).toMatch(/^calls\[0\]\.arguments\.steps: .*expected number/);
    const unknown = await s.act(fixtureObservation(2));
    expect(unknown.formatError).toBe(
      'calls[0]: unknown tool "fly"; available: move, look, say, finish',
    );
    const none = await s.act(fixtureObservation(3));
    expect(none.formatError).toMatch(/calls no tool/);
    expect(none.raw).toBe("I am not sure.");
    expect((await s.act(fixtureObservation(4))).action?.kind).toBe("tool");

    // Chat context: the error answers the open tool call; a reply without calls gets a message.
    type Message = { role: string; content: string | null; tool_call_id?: string };
    const second = messagesOf<Message>(stub, 1);
    expect(second.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "user"]);
    expect(second[3]).toMatchObject({ tool_call_id: "call_0_0" });
    expect(second[3]?.content).toContain("calls[0].arguments: invalid JSON");
    const fifth = messagesOf<Message>(stub, 4);
    expect(fifth.slice(-3).map((m) => m.role)).toEqual(["assistant", "user", "user"]);
    expect(fifth.at(-2)?.content).toContain("calls no tool");
  });

  it("sends sampling settings with the renderer's output allowance, and refuses a maxTokens it would ignore", async () => {
    const renderer: Renderer = {
      output: "tools",
      context: "stateless",
      system: () => "sys",
      user: (obs) => `obs ${obs.step}`,
      maxOutputTokens: () => 77,
    };
    const { session: s, stub } = await session(
      [MOVE],
      { temperature: 0.3, reasoningEffort: "low", seed: 7 },
      fixtureContext(),
      renderer,
    );
    await s.act(fixtureObservation(0));
    expect(stub.requests[0]?.body).toMatchObject({
      model: "gpt-test",
      temperature: 0.3,
      max_tokens: 77,
      reasoning_effort: "low",
      seed: 7,
    });
    const refused = await rejection(
      createLlmAgent({ model: "openai:gpt-test", apiKey: KEY, maxTokens: 500 }, renderer),
    );
    expect(refused.code).toBe("USAGE");
    expect(refused.message).toMatch(
      /maxTokens \(--max-output-tokens\) does not apply: .*sets each reply's token allowance/,
    );
  });

  it("logs only the new messages of each chat call, so the full request can be rebuilt", async () => {
    const { session: s, stub } = await session([MOVE, MOVE, MOVE]);
    const logged: { messages: unknown[]; priorMessages?: number }[] = [];
    for (let step = 0; step < 3; step++) {
      const decision = await s.act(fixtureObservation(step));
      logged.push(decision.calls?.[0]?.request as (typeof logged)[number]);
    }
    const sent = stub.requests.map((r) => (r.body as { messages: unknown[] }).messages);
    expect(logged.map((r) => r.priorMessages)).toEqual([
      undefined,
      sent[0]?.length,
      sent[1]?.length,
    ]);
    expect(logged.flatMap((r) => r.messages)).toEqual(sent[2]);
  });

  it("uses the renderer's sampling defaults only where the user chose none", async () => {
    const renderer: Renderer = {
      output: "tools",
      context: "stateless",
      system: () => "sys",
      user: (obs) => `obs ${obs.step}`,
      sampling: { temperature: 0 },
    };
    const bodies = [];
    for (const options of [{}, { temperature: 0.7 }, { reasoningEffort: "low" as const }]) {
      const { session: s, stub } = await session([MOVE], options, fixtureContext(), renderer);
      await s.act(fixtureObservation(0));
      bodies.push(stub.requests[0]?.body as { temperature?: number });
    }
    expect(bodies.map((b) => b.temperature)).toEqual([0, 0.7, undefined]);
  });

  it("sends a fresh prompt per decision in stateless context, with feedback appended", async () => {
    const renderer: Renderer = {
      output: "tools",
      context: "stateless",
      system: () => "sys",
      user: (obs, state) => `obs ${obs.step} after ${state.history.length}`,
    };
    const { session: s, stub } = await session(
      [{ toolCalls: [{ name: "look", arguments: { extra: 1 } }] }, MOVE],
      {},
      fixtureContext(),
      renderer,
    );
    expect((await s.act(fixtureObservation(0))).formatError).toContain("calls[0].arguments");
    await s.act(fixtureObservation(1));
    const messages = messagesOf<
      { messages: { role: string; content: string }[] }["messages"][number]
    >(stub, 1);
    expect(messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(messages[1]?.content).toMatch(
      /^obs 1 after 1\n\nYour previous reply was unusable: calls\[0\]/,
    );
  });

  it("falls back to JSON replies for models without tool calling", async () => {
    const { session: s, stub } = await session(
      [
        {
          text: '<think>{"kind":"wait"} maybe</think>```json\n{"kind":"tool","calls":[{"tool":"move","args":{"object":"a","onto":"b"},"robot":"r2"}]}\n```',
        },
        { text: '{"kind":"tool","calls":[{"tool":"move","args":{"object":"a","onto":"b"}}]}' },
        { text: '{"kind":"wait"}' },
        { text: "not json" },
      ],
      { output: "json" },
    );
    expect((await s.act(fixtureObservation(0))).action).toEqual({
      kind: "tool",
      calls: [{ tool: "move", args: { object: "a", onto: "b" }, robot: "r2" }],
    });
    expect((await s.act(fixtureObservation(1))).formatError).toBe(
      'calls[0].robot: required for tool "move"',
    );
    expect((await s.act(fixtureObservation(2))).formatError).toMatch(
      /^kind: "wait" is not accepted/,
    );
    expect((await s.act(fixtureObservation(3))).formatError).toBe(
      "the reply contains no JSON object",
    );
    const body = stub.requests[0]?.body as { tools?: unknown; messages: { content: string }[] };
    expect(body.tools).toBeUndefined();
    expect(body.messages[0]?.content).toContain(
      '- move: Move an object onto another. Needs "robot".',
    );
  });

  it("hands json and text replies to the renderer's parse, without the reasoning", async () => {
    const seen: string[] = [];
    const renderer: Renderer = {
      output: "text",
      context: "chat",
      system: () => "sys",
      user: (obs) => `obs ${obs.step}`,
      parse(text) {
        seen.push(text);
        return text.trim() === "STOP"
          ? { ok: true, action: { kind: "finish" }, extra: { recovery: "none" } }
          : { ok: false, error: "expected STOP" };
      },
    };
    const { session: s } = await session(
      [{ text: "<think>hmm</think> STOP" }, { text: "go" }],
      {},
      fixtureContext(),
      renderer,
    );
    const first = await s.act(fixtureObservation(0));
    expect(first.action).toEqual({ kind: "finish" });
    expect(first.extra).toEqual({ recovery: "none" });
    expect((await s.act(fixtureObservation(1))).formatError).toBe("expected STOP");
    expect(seen).toEqual([" STOP", "go"]);
  });

  it("parses Action JSON itself for a json renderer without parse()", async () => {
    const renderer: Renderer = {
      output: "json",
      context: "stateless",
      system: () => "s",
      user: () => "u",
    };
    const { session: s } = await session(
      [{ text: '{"kind":"say","text":"hello"}' }, { text: '{"kind":"fly"}' }],
      {},
      fixtureContext(),
      renderer,
    );
    expect((await s.act(fixtureObservation(0))).action).toEqual({ kind: "say", text: "hello" });
    expect((await s.act(fixtureObservation(1))).formatError).toMatch(/^not a valid action: kind: /);
  });
});
