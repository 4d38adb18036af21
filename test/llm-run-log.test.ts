/**
 * The llm agent through the runner against a local OpenAI-wire stub: retries, statuses,
 * usage totals and cache hits are asserted from the run directory, as a user would read them.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadRun, readTrace } from "../src/log/index.ts";
import { gridSuite } from "./fixtures/grid-suite.ts";
import { type OpenAiReply, startOpenAiStub } from "./stubs/index.ts";
import { runLlm } from "./support/run-llm.ts";

const suite = gridSuite(1);
const [first, second] = suite.compile().map((s) => s.id);
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()?.();
});

async function stubOf(script: Parameters<typeof startOpenAiStub>[0]) {
  const stub = await startOpenAiStub(script);
  closers.push(() => stub.close());
  return stub;
}

async function run(stub: Awaited<ReturnType<typeof stubOf>>, cacheDir?: string) {
  const options = {
    model: "openai:stub-model",
    baseUrl: stub.baseUrl,
    apiKey: "sk-test-secret",
    maxRetries: 2,
    retryBaseMs: 1,
    cacheDir,
    prices: { "openai:stub-model": { input: 1, cachedInput: 0.5, output: 2 } },
  };
  const outDir = await runLlm(suite, options, [first!, second!]);
  return { outDir, ...loadRun(outDir) };
}

const finish: OpenAiReply = {
  toolCalls: [{ name: "finish", arguments: {} }],
  usage: { prompt: 100, completion: 10, cached: 40 },
};

describe("llm agent through the runner", () => {
  it("logs retries, format errors, provider failures and usage per episode", async () => {
    const stub = await stubOf({
      script: [
        { status: 429, headers: { "retry-after": "0" } },
        {
          toolCalls: [{ name: "move", arguments: '{"direction": "up' }],
          usage: { prompt: 50, completion: 5 },
        },
        finish,
        { status: 500 },
        { status: 500 },
        { status: 500 },
      ],
    });
    const { records, outDir } = await run(stub);
    expect(stub.requests).toHaveLength(6);
    const [a, b] = [
      records.find((r) => r.taskId === first)!,
      records.find((r) => r.taskId === second)!,
    ];
    // Episode 1: a 429 retried, one malformed reply fed back, then finish away from the goal.
    expect(a.status).toBe("failure");
    expect(a.formatErrors).toBe(1);
    expect(a.usage).toMatchObject({
      calls: 2,
      retries: 1,
      inputTokens: 150,
      outputTokens: 15,
      cachedInputTokens: 40,
    });
    // $ per million: (150-40)*1 + 40*0.5 + 15*2 = 160 -> 0.00016
    expect(a.usage.costUsd).toBeCloseTo(0.00016, 10);
    const trace = readTrace(outDir, a.episodeId);
    expect(trace.steps[0]?.formatError).toMatch(/arguments/);
    const raw = JSON.parse(trace.steps[0]?.raw ?? "{}") as { tool_calls: { arguments: string }[] };
    expect(raw.tool_calls[0]?.arguments).toBe('{"direction": "up');
    expect(trace.steps[1]?.observation.events.some((e) => e.type === "format-error")).toBe(true);
    expect(JSON.stringify(trace)).not.toContain("sk-test-secret");
    // Episode 2: the provider fails past the retries: invalid (ERR), and the run went on.
    expect(b).toMatchObject({ status: "invalid", category: "ERR" });
    expect(b.error).toMatch(/500/);
  });

  it("serves a rerun from the response cache, flagged in the log", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "lh-cache-"));
    const stub = await stubOf({ reply: finish });
    const fresh = await run(stub, cacheDir);
    expect(stub.requests).toHaveLength(2);
    const cached = await run(stub, cacheDir);
    expect(stub.requests).toHaveLength(2);
    for (const r of cached.records) {
      expect(r.usage).toMatchObject({ calls: 1, cachedCalls: 1, latencyMs: 0, inputTokens: 100 });
    }
    expect(cached.records.map((r) => r.status)).toEqual(fresh.records.map((r) => r.status));
  });
});
