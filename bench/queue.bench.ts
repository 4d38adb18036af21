/**
 * BullMQ scale-out throughput (issue 13's goal: two workers >= 1.8x one): a coordinator in
 * this process runs RoboGraph episodes with the llm agent, whose every decision waits on the
 * OpenAI stub (its own process, a fixed 2 s latency like an agentic model call;
 * BENCH_LATENCY_MS changes it), played by one and then two `longhaul worker` processes (16
 * episodes at once each) through a local redis-server.
 * Run: npx tsx bench/queue.bench.ts   (needs redis-server, as .ci/run installs)
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createAgent } from "../src/agents/index.ts";
import { runSuite } from "../src/run/index.ts";
import { openCoordinator } from "../src/serve/queue/index.ts";
import { getSuite } from "../src/suites/index.ts";
import { startStubProcess } from "../test/stubs/stub-process.ts";
import { spawnLonghaul, workerArgs } from "../test/support/longhaul-process.ts";
import { startRedis } from "../test/support/redis.ts";

const EPISODES = 64;
const STEPS = 5;
const PER_WORKER = 16;
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 2000);

const redis = await startRedis();
// RoboGraph's harness asks for JSON text (appendix B): the stub always answers `observe`.
const stub = await startStubProcess(LATENCY_MS, {
  text: JSON.stringify({
    reason: "look again",
    recovery: { required: false, failed_action: null, failed_node_ids: [] },
    action: { name: "observe", node_ids: [] },
  }),
});
const suite = await getSuite("robograph", { cache: true });
const options = { model: "openai:bench", baseUrl: stub.baseUrl };
const { agent, config } = await createAgent("llm", { ...options, apiKey: "bench" }, suite);
const workers: ChildProcess[] = [];
const dirs: string[] = [];

async function startWorker(queueName: string): Promise<ChildProcess> {
  const child = spawnLonghaul(
    workerArgs(redis.url, queueName, "--concurrency", String(PER_WORKER), "--quiet"),
    { env: { ...process.env, OPENAI_API_KEY: "bench" }, stderr: "inherit" },
  );
  workers.push(child);
  await new Promise((resolve) => child.stdout?.once("data", resolve));
  return child;
}

/** CPU seconds used so far by this process and the worker processes (Linux /proc). */
function cpuSeconds(): { coordinator: number; workers: number } {
  const own = process.cpuUsage();
  let workerTicks = 0;
  for (const w of workers) {
    try {
      const stat = readFileSync(`/proc/${w.pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      workerTicks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Not on Linux, or gone: counted as nothing.
    }
  }
  return { coordinator: (own.user + own.system) / 1e6, workers: workerTicks / 100 };
}

/** Episodes per second of one coordinated run over `limit` tasks, with the CPU it took. */
async function run(queueName: string, limit: number, seed: string): Promise<number> {
  const outDir = mkdtempSync(join(tmpdir(), "lh-bench-queue-"));
  dirs.push(outDir);
  const coordinator = await openCoordinator({
    url: redis.url,
    queueName,
    agent: { name: "llm", options },
  });
  const started = performance.now();
  const cpuBefore = cpuSeconds();
  const summary = await runSuite({
    suite,
    agent,
    agentConfig: config,
    outDir,
    seed,
    epochs: 1,
    concurrency: 256,
    limit,
    budgets: { maxSteps: STEPS },
    execute: coordinator.execute,
  });
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = cpuSeconds();
  await coordinator.close();
  if (summary.records.length !== limit)
    throw new Error(`${summary.records.length} of ${limit} episodes`);
  const steps = summary.records.reduce((n, r) => n + r.steps, 0);
  if (steps !== limit * STEPS) throw new Error(`${steps} decisions, not ${limit * STEPS}`);
  if (limit === EPISODES) {
    const per = (n: number) => ((1000 * n) / steps).toFixed(1);
    console.log(
      `  CPU per decision: workers ${per(cpuAfter.workers - cpuBefore.workers)} ms, coordinator ` +
        `${per(cpuAfter.coordinator - cpuBefore.coordinator)} ms; load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`,
    );
    // An episode's own wall time (on its worker) against the run's: the rest is scheduling.
    const walls = summary.records.map((r) => r.wallMs ?? 0);
    console.log(
      `  episode wall time on its worker: mean ${(walls.reduce((a, b) => a + b, 0) / limit / 1000).toFixed(2)} s, ` +
        `max ${(Math.max(...walls) / 1000).toFixed(2)} s; the run took ${seconds.toFixed(1)} s`,
    );
  }
  return limit / seconds;
}

try {
  const rates: number[] = [];
  for (const count of [1, 2]) {
    const queueName = `bench-${count}`;
    for (let i = 0; i < count; i++) await startWorker(queueName);
    // Warm-up: every worker loads the suite and the SDK, and opens its connections. It needs as
    // many episodes as all workers' slots: a worker takes up to PER_WORKER jobs at once, so with
    // fewer, one worker could take them all and the other would load the suite (seconds) inside
    // the measured run.
    await run(queueName, count * PER_WORKER, `warm-${count}`);
    const rate = await run(queueName, EPISODES, `bench-${count}`);
    rates.push(rate);
    const ideal = (count * PER_WORKER * 1000) / LATENCY_MS / STEPS;
    console.log(
      `${count} worker(s) x ${PER_WORKER} episodes at once, ${LATENCY_MS} ms per decision, ${STEPS} decisions per episode: ` +
        `${rate.toFixed(2)} episodes/s (ideal ${ideal.toFixed(2)})`,
    );
    for (const w of workers.splice(0)) w.kill("SIGTERM");
  }
  console.log(`two workers vs one: ${(rates[1]! / rates[0]!).toFixed(2)}x`);
} finally {
  for (const w of workers) w.kill("SIGKILL");
  stub.child.kill("SIGTERM");
  await redis.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
