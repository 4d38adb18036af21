/**
 * The playground suite end to end: the reference controllers through the runner (a sample;
 * `npm run bench -- playground` runs all 188 conditions), the log read back, the report, and
 * the generic llm agent answering with a code-mode program against the local OpenAI stub.
 */

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../src/agents/index.ts";
import { loadRun, readTrace } from "../src/log/index.ts";
import { figureSvg } from "../src/report/index.ts";
import { runSuite } from "../src/run/index.ts";
import { getSuite } from "../src/suites/index.ts";
import { FAILURE_CODES } from "../src/suites/playground/protocol.ts";
import { type OpenAiReply, type StubServer, startOpenAiStub } from "./stubs/index.ts";
import { runLlm } from "./support/run-llm.ts";

const suite = await getSuite("playground");
let stub: StubServer<OpenAiReply> | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

describe("playground end to end", () => {
  it("the reference controllers solve a sample of tasks in every condition; the log reads back", async () => {
    const outDir = mkdtempSync(join(tmpdir(), "lh-playground-"));
    const taskIds = [
      "Tower-01/c1",
      "Tower-01/c2",
      "Tower-01/c3",
      "Tower-01/c4",
      "Launch-02/c1",
      "Launch-14/c3",
      "Launch-27/c2",
      "Launch-34/c4",
    ];
    const { agent, config } = await createAgent("reference", {}, suite);
    await runSuite({
      suite,
      agent,
      agentConfig: config,
      outDir,
      seed: "s",
      epochs: 1,
      concurrency: 1,
      taskIds,
    });
    const { records } = loadRun(outDir);
    expect(records.map((r) => r.taskId).sort()).toEqual([...taskIds].sort());
    for (const r of records)
      expect(r, r.taskId).toMatchObject({ status: "success", tags: { level: "L3" } });
    const trace = readTrace(outDir, records.find((r) => r.taskId === "Launch-27/c2")!.episodeId);
    expect(trace.card.tools.map((t) => t.name)).toContain("set_azimuth");
    expect(trace.outcome?.data).toMatchObject({
      index: "Launch-27",
      condition: 1,
      successTime: expect.any(Number),
    });
    // Launch-34's pane fractured under the first shot (touch sensor above its 2 N threshold).
    const glass = readTrace(outDir, records.find((r) => r.taskId === "Launch-34/c4")!.episodeId);
    const texts = glass.steps.flatMap((s) => s.observation.events.map((e) => e.text));
    expect(texts).toContain("glass glass shattered");
    expect(glass.outcome?.data).toMatchObject({
      evidence: { cleared: [{ id: "glass" }, { id: "wood" }, { id: "metal" }] },
    });
    const report = suite.aggregate(records);
    expect(report.headlines[0]).toMatchObject({ name: expect.stringMatching(/Pass@1/), value: 1 });
    // The report's per-suite Pass@k figure: every EP-100 bar at 1, drawn to SVG with both suites.
    const figure = report.figures?.find((f) => f.id === "pass-at-k-by-suite");
    const ep100 = figure?.data.filter((d) => d.subset === "EP-100");
    expect(ep100?.map((d) => [d.suite, d.k, d.rate]).sort()).toEqual([
      ["Launch", "Pass@1", 1],
      ["Launch", "Pass@2", 1],
      ["Tower", "Pass@1", 1],
      ["Tower", "Pass@2", 1],
    ]);
    const svg = await figureSvg(figure!);
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain("Launch");
    expect(svg).toContain("Tower");
  });

  it("the llm agent can answer with a program that loops in the sandbox (code mode)", async () => {
    const program = `
      tool("set_elevation", { degrees: 20 });
      tool("set_azimuth", { degrees: 0 });
      tool("set_draw", { metres: 0.1372 });
      tool("fire", {});
      wait(2);
      return observe().cleared;`;
    stub = await startOpenAiStub({
      script: [
        { toolCalls: [{ name: "run_program", arguments: { code: program } }] },
        { toolCalls: [{ name: "finish", arguments: {} }] },
      ],
    });
    const options = { model: "openai:stub", baseUrl: stub.baseUrl, apiKey: "k", maxRetries: 0 };
    const outDir = await runLlm(suite, options, ["Launch-02/c1"]);
    const { records } = loadRun(outDir);
    expect(records[0]).toMatchObject({ status: "success", steps: 2 });
    const body = stub.requests[0]?.body as { messages?: { content: string }[] } | undefined;
    const system = body?.messages?.[0]?.content ?? "";
    expect(system).toMatch(/Code mode: call run_program/);
    const trace = readTrace(outDir, records[0]!.episodeId);
    const result = trace.steps[1]?.observation.events.find((e) => e.type === "tool-result");
    expect(result?.data).toMatchObject({ ok: true, value: ["T1"] });
  });

  it("the random agent plays L0 episodes to a scored end, each a Table 19 code", async () => {
    const outDir = mkdtempSync(join(tmpdir(), "lh-playground-random-"));
    const taskIds = ["Tower-01/c1", "Launch-02/c1", "Launch-22/c2"];
    const { agent, config } = await createAgent("random", {}, suite);
    await runSuite({
      suite,
      compile: { level: "L0" },
      agent,
      agentConfig: config,
      outDir,
      seed: "r",
      epochs: 1,
      concurrency: 1,
      taskIds,
    });
    const { records } = loadRun(outDir);
    expect(records).toHaveLength(3);
    for (const r of records) {
      expect(r, r.episodeId).toMatchObject({ tags: { level: "L0" } });
      expect(Object.keys(FAILURE_CODES), r.episodeId).toContain(r.category);
      expect(readTrace(outDir, r.episodeId).outcome).toBeDefined();
    }
  });
});
