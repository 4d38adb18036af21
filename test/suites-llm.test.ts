/**
 * Every built-in suite through the runner with the generic llm agent against a local OpenAI
 * stub: the suite's harness (its renderer) reaches the wire, replies are parsed by the suite,
 * unusable ones are fed back and counted, and the log holds what the scorer saw.
 */

import { afterEach, describe, expect, it } from "vitest";
import type { Suite } from "../src/core/index.ts";
import { loadRun, readTrace } from "../src/log/index.ts";
import { getSuite } from "../src/suites/index.ts";
import { type OpenAiReply, type StubServer, startOpenAiStub } from "./stubs/index.ts";
import { runLlm } from "./support/run-llm.ts";

let stub: StubServer<OpenAiReply> | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

async function runOne(suite: Suite, taskId: string, script: OpenAiReply[]) {
  stub = await startOpenAiStub({ script });
  const options = { model: "openai:stub", baseUrl: stub.baseUrl, apiKey: "k", maxRetries: 0 };
  const outDir = await runLlm(suite, options, [taskId]);
  const { records } = loadRun(outDir);
  const record = records[0]!;
  return { record, trace: readTrace(outDir, record.episodeId), requests: stub.requests };
}

type Body = {
  messages: { role: string; content: string }[];
  max_tokens?: number;
  temperature?: number;
};

describe("suites with the llm agent", () => {
  it("robograph: appendix B payload out, reply schema in, recovery fields logged", async () => {
    const stop = {
      reason: "the criterion looks satisfied",
      recovery: { required: false, failed_action: null, failed_node_ids: [] },
      action: { name: "stop" },
    };
    const { record, trace, requests } = await runOne(
      await getSuite("robograph"),
      "cosmetics-t01/base",
      [
        { text: '{"reason": "missing the action"}' },
        { text: `<think>plan</think>${JSON.stringify(stop)}` },
      ],
    );
    const first = requests[0]?.body as Body;
    expect(first.messages[0]?.content).toMatch(/policy for high-level embodied task evaluation/);
    const payload = JSON.parse(first.messages[1]?.content ?? "{}");
    expect(Object.keys(payload)).toEqual(
      expect.arrayContaining(["task", "success_criterion", "action_catalog", "recent_history"]),
    );
    // The unusable first reply is fed back with the path of what is wrong.
    const error = trace.steps[0]?.formatError ?? "";
    expect(error).toMatch(/action/);
    const second = requests[1]?.body as Body | undefined;
    expect(second?.messages[1]?.content).toContain(error);
    expect(first.messages[1]?.content).not.toContain(error);
    // The stop ends the episode short of the goal: a premature stop, scored by the suite.
    expect(record).toMatchObject({ status: "failure", formatErrors: 1, steps: 2 });
    expect(record.metrics.sr).toBe(0);
    expect(trace.steps[1]?.extra).toMatchObject({ reason: stop.reason, recovery: stop.recovery });
  });

  it("transduction: one greedy completion per document within its allowance, scored exactly", async () => {
    const { record, requests } = await runOne(
      await getSuite("transduction"),
      "arith/ordered/d1/4k/s1",
      [{ text: "1: 0\n2: 0" }],
    );
    const body = requests[0]?.body as Body;
    expect(requests).toHaveLength(1);
    expect(body.temperature).toBe(0);
    expect(body.max_tokens).toBeGreaterThan(1000);
    expect(body.messages[1]?.content).toMatch(/^\[1\]\d([+-]\d)+$/m);
    expect(record).toMatchObject({ status: "failure", steps: 1, formatErrors: 0 });
    expect(record.metrics.accuracy).toBeLessThan(0.05);
  });
});
