import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLlmAgent, type LlmAgentOptions } from "../src/agents/llm/index.ts";
import type { Agent, Decision } from "../src/core/index.ts";
import {
  FIXTURE_CARD,
  fixtureContext,
  fixtureObservation,
  type OpenAiReply,
  type StubServer,
  type StubStep,
  startOpenAiStub,
} from "./stubs/index.ts";

const KEY = "sk-cache-test-secret";
const SCRIPT: StubStep<OpenAiReply>[] = [
  { toolCalls: [{ name: "look", arguments: {} }], usage: { prompt: 50, completion: 7 } },
  {
    toolCalls: [{ name: "say", arguments: { text: "b is under a" } }],
    usage: { prompt: 90, completion: 9 },
  },
];

let dir: string;
const stubs: StubServer<OpenAiReply>[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "longhaul-llm-cache-"));
});
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

/** A stub and an agent caching into `dir`. */
async function setup(script: StubStep<OpenAiReply>[], options: Partial<LlmAgentOptions> = {}) {
  const stub = await startOpenAiStub({ script });
  stubs.push(stub);
  const agent = await createLlmAgent({
    model: "openai:gpt-test",
    baseUrl: stub.baseUrl,
    apiKey: KEY,
    cacheDir: dir,
    maxRetries: 0,
    prices: { "gpt-test": { input: 1, output: 2 } },
    ...options,
  });
  return { stub, agent };
}

async function play(agentToUse: Agent, epoch: number): Promise<Decision[]> {
  const session = await agentToUse.start(FIXTURE_CARD, fixtureContext({ epoch }));
  return [await session.act(fixtureObservation(0)), await session.act(fixtureObservation(1))];
}

async function cacheFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const shard of await readdir(dir)) {
    for (const file of await readdir(join(dir, shard))) files.push(join(dir, shard, file));
  }
  return files;
}

describe("llm response cache", () => {
  it("serves a second run from the cache, flagged, with no request reaching the provider", async () => {
    const { stub, agent } = await setup(SCRIPT);
    const fresh = await play(agent, 0);
    expect(stub.requests).toHaveLength(2);
    expect(fresh.map((d) => d.calls?.[0]?.cached)).toEqual([false, false]);

    // A new agent (as in a second run): the stub's script is used up, so any request would fail.
    const replay = await play(
      await createLlmAgent({
        model: "openai:gpt-test",
        baseUrl: stub.baseUrl,
        apiKey: KEY,
        cacheDir: dir,
        prices: { "gpt-test": { input: 1, output: 2 } },
      }),
      0,
    );
    expect(stub.requests).toHaveLength(2);
    expect(replay.map((d) => d.action)).toEqual(fresh.map((d) => d.action));
    for (const [i, decision] of replay.entries()) {
      expect(decision.calls?.[0]?.cached).toBe(true);
      expect(decision.usage).toMatchObject({
        calls: 1,
        cachedCalls: 1,
        latencyMs: 0,
        retries: 0,
        inputTokens: fresh[i]?.usage?.inputTokens,
        costUsd: fresh[i]?.usage?.costUsd,
      });
    }
    expect(await cacheFiles()).toHaveLength(2);
  });

  it("keys on the epoch", async () => {
    const { stub, agent } = await setup([...SCRIPT, ...SCRIPT]);
    await play(agent, 0);
    await play(agent, 1);
    expect(stub.requests).toHaveLength(4);
    expect(await cacheFiles()).toHaveLength(4);
  });

  it("never caches errors and never stores credentials", async () => {
    const { agent, stub } = await setup([{ status: 500 }]);
    await expect(play(agent, 0)).rejects.toThrow(/HTTP 500/);
    expect(await readdir(dir)).toEqual([]);

    stub.push(...SCRIPT);
    const decisions = await play(agent, 0);
    const files = await cacheFiles();
    expect(files).toHaveLength(2);
    for (const file of files) expect(await readFile(file, "utf8")).not.toContain(KEY);
    expect(JSON.stringify(decisions)).not.toContain(KEY);
    expect(files.some((f) => f.endsWith(".tmp"))).toBe(false);
  });
});
