/**
 * The throughput goal end to end: the llm agent through the runner (planning,
 * budgets, traces, episodes.jsonl) against the OpenAI stub in its own process with a fixed
 * 200 ms latency, 64 episodes at once. Ideal: 64 / 0.2 s = 320 decisions/s. Each episode is a
 * grid walk that the stub's fixed `move` reply keeps going until its 40-decision budget.
 * Run: npx tsx bench/llm-runner.bench.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLlmAgent, publicConfig } from "../src/agents/llm/index.ts";
import { runSuite } from "../src/run/index.ts";
import { gridSuite } from "../test/fixtures/grid-suite.ts";
import { startStubProcess } from "../test/stubs/stub-process.ts";

const concurrency = 64;
const suite = gridSuite(86);
const stub = await startStubProcess(200, { name: "move", arguments: { direction: "north" } });
const outDir = mkdtempSync(join(tmpdir(), "lh-bench-llm-"));
try {
  const options = { model: "openai:bench", baseUrl: stub.baseUrl, apiKey: "bench" };
  const started = performance.now();
  const summary = await runSuite({
    suite,
    agent: await createLlmAgent(options),
    agentConfig: publicConfig(options),
    outDir,
    seed: "bench",
    epochs: 1,
    concurrency,
    // A multiple of the concurrency, so no wave runs part-empty at the end.
    limit: 4 * concurrency,
    budgets: { maxSteps: 40 },
  });
  const seconds = (performance.now() - started) / 1000;
  const decisions = summary.records.reduce((n, r) => n + r.steps, 0);
  const rate = decisions / seconds;
  const ideal = concurrency / 0.2;
  console.log(
    `runner + llm agent, 200 ms stub, concurrency ${concurrency}: ${summary.records.length} episodes, ` +
      `${decisions} decisions in ${seconds.toFixed(1)} s = ${rate.toFixed(1)} decisions/s ` +
      `(${((100 * rate) / ideal).toFixed(1)}% of the ideal ${ideal}/s)`,
  );
} finally {
  stub.child.kill("SIGTERM");
  rmSync(outDir, { recursive: true, force: true });
}
