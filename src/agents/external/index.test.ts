/**
 * The http agent against local agent-server stubs: a run decided by a server plays exactly as
 * the same agent in process; memory round-trips; transport faults are retried, then ERR;
 * unusable replies are format errors with the raw reply logged.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { greedyAgent } from "../../../test/fixtures/grid-agents.ts";
import { gridSuite } from "../../../test/fixtures/grid-suite.ts";
import { RawText, startAgentServer, startScriptedAgent } from "../../../test/stubs/index.ts";
import { longhaul } from "../../../test/support/run-cli.ts";
import { AgentRequest } from "../../core/index.ts";
import { readTrace } from "../../log/index.ts";
import { type RunOptions, runSuite } from "../../run/index.ts";
import { createAgent } from "../index.ts";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const suite = gridSuite(2);
const tmp = () => mkdtempSync(join(tmpdir(), "longhaul-http-agent-"));
const FINISH = { action: { kind: "finish" as const } };

/** Run the grid suite with the agent `agentName` (one epoch), with run options `run`. */
async function runWith(
  agentName: string,
  options: Record<string, unknown> = {},
  run: Partial<Pick<RunOptions, "concurrency" | "limit" | "maxConsecutiveFormatErrors">> = {},
) {
  const { agent, config } = await createAgent(agentName, options, suite);
  const outDir = tmp();
  const summary = await runSuite({
    suite,
    agent,
    agentConfig: config,
    outDir,
    seed: "0",
    epochs: 1,
    concurrency: 2,
    ...run,
  });
  return { summary, config, outDir };
}

describe("the http agent", () => {
  it("plays exactly as the agent it serves, with memory round-tripped and an end request", async () => {
    const server = await startAgentServer(greedyAgent());
    closers.push(server.close);
    const { summary, config, outDir } = await runWith(`http:${server.url}`);
    expect(config).toEqual({ name: "http", url: server.url, privileged: false });
    const { summary: local } = await runWith("greedy");
    const strip = ({ wallMs: _w, agent: _a, ...rest }: (typeof local.records)[number]) => rest;
    expect(summary.records.map(strip)).toEqual(local.records.map(strip));
    expect(summary.records.every((r) => r.agent === `http:${server.url}`)).toBe(true);
    expect(summary.records.filter((r) => r.status === "success").length).toBeGreaterThan(0);

    for (const record of summary.records) {
      const mine = server.requests.filter((r) => r.episodeId === record.episodeId);
      expect(mine.every((r) => AgentRequest.safeParse(r).success)).toBe(true);
      const acts = mine.filter((r) => r.kind === "act");
      expect(acts).toHaveLength(record.steps);
      // Each request carries the memory of the previous reply (one play per episode here).
      const play = (acts[1]?.memory as { play?: number } | undefined)?.play;
      expect(acts.map((r) => r.memory)).toEqual(
        acts.map((_, i) => (i === 0 ? null : { play, turns: i })),
      );
      expect(mine.at(-1)).toMatchObject({ kind: "end", steps: record.steps });
      expect(readTrace(outDir, record.episodeId).steps).toHaveLength(record.steps);
    }
  });

  it("retries 5xx and 429, then succeeds; sends the bearer token", async () => {
    const stub = await startScriptedAgent({
      script: [{ status: 500 }, { status: 429, headers: { "retry-after": "0" } }],
      reply: FINISH,
    });
    closers.push(stub.close);
    const { summary } = await runWith("http", {
      url: stub.baseUrl,
      retryBaseMs: 1,
      token: "agent-secret",
    });
    expect(summary.records.every((r) => r.endedBy === "terminated")).toBe(true);
    expect(stub.requests[0]?.headers.authorization).toBe("Bearer agent-secret");
    // Two failed attempts, then one act and one end per episode.
    expect(stub.requests).toHaveLength(2 + 2 * summary.records.length);
  });

  it("ends an episode invalid (ERR) when the server keeps failing, times out or refuses", async () => {
    const failing = await startScriptedAgent({ reply: { status: 503 } as never });
    closers.push(failing.close);
    const down = await runWith("http", { url: failing.baseUrl, retryBaseMs: 1, maxRetries: 2 });
    expect(down.summary.records.map((r) => [r.status, r.category])).toEqual(
      down.summary.records.map(() => ["invalid", "ERR"]),
    );
    expect(down.summary.records[0]?.error).toMatch(/HTTP 503.*after 3 attempts/);

    const hung = await startScriptedAgent({ script: [{ hang: true }], reply: FINISH });
    closers.push(hung.close);
    const slow = await runWith("http", { url: hung.baseUrl, timeoutMs: 200, maxRetries: 0 });
    const errors = slow.summary.records.map((r) => r.error ?? "");
    expect(errors.filter((e) => /no answer within 200 ms/.test(e))).toHaveLength(1);

    const rejecting = await startScriptedAgent({ reply: { status: 400, message: "bad" } as never });
    closers.push(rejecting.close);
    const bad = await runWith("http", { url: rejecting.baseUrl, retryBaseMs: 1 });
    expect(bad.summary.records[0]?.error).toMatch(/HTTP 400/);
    // A 400 is not retried: one act and one (failing, harmless) end notice per episode.
    expect(rejecting.requests).toHaveLength(2 * bad.summary.records.length);

    const nobody = await runWith("http", { url: "http://127.0.0.1:9/act", maxRetries: 0 });
    expect(nobody.summary.records[0]?.error).toMatch(/request failed/);
  });

  it("turns unusable replies into format errors, with the raw reply in the trace", async () => {
    const stub = await startScriptedAgent({
      script: [
        new RawText("this is not json"),
        { action: { kind: "tool", calls: [] } } as never,
        { note: "thinking" },
        FINISH,
      ],
      reply: FINISH,
    });
    closers.push(stub.close);
    const { summary, outDir } = await runWith(
      "http",
      { url: stub.baseUrl },
      { concurrency: 1, limit: 1, maxConsecutiveFormatErrors: 4 },
    );
    const { records } = summary;
    expect(records[0]).toMatchObject({ formatErrors: 3, endedBy: "terminated", steps: 4 });
    const steps = readTrace(outDir, records[0]!.episodeId).steps;
    expect(steps[0]).toMatchObject({ raw: "this is not json" });
    expect(steps[0]?.formatError).toMatch(/not JSON/);
    expect(steps[1]?.formatError).toMatch(/malformed: action/);
    expect(steps[2]?.formatError).toMatch(/neither action nor formatError/);
  });

  it("is named on the command line as http:URL, and its wire types are in `longhaul schema`", async () => {
    const server = await startAgentServer(greedyAgent());
    closers.push(server.close);
    const { agent, config } = await createAgent(`http:${server.url}`, { timeoutMs: 5000 }, suite);
    expect(agent.id).toBe(`http:${server.url}`);
    expect(config).toEqual({ name: "http", url: server.url, privileged: false });
    await expect(createAgent("http:ftp://x", {}, suite)).rejects.toThrow(/unknown agent/);
    for (const name of ["AgentRequest", "AgentReply"]) {
      const { code, stdout } = await longhaul("schema", name);
      expect(code).toBe(0);
      expect(JSON.parse(stdout).$schema).toContain("json-schema.org");
    }
  });
});
