/**
 * Runner benchmarks (issue 2, Performance):
 * - runner + logging overhead per decision, instant agent and trivial environment (goal < 1 ms);
 * - sustained decisions/s with a 200 ms simulated-latency agent at concurrency 64 (ideal 320/s;
 *   192 episodes x 20 decisions, about 12 s), the runner side of the stub-provider goal;
 * - writing one 100-step trace (goal < 5 ms);
 * - the resume scan of a 10,000-episode episodes.jsonl (goal < 1 s).
 * Run: npx tsx bench/runner.bench.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Agent, Suite, TaskSpec } from "../src/core/index.ts";
import { DEFAULT_ACCESS } from "../src/core/index.ts";
import { RUN_FILES, readTrace, recoverEpisodes, writeTrace } from "../src/log/index.ts";
import { runSuite } from "../src/run/index.ts";

/** A suite whose episodes are `length` waits long: the cheapest environment there is. */
function tickSuite(tasks: number, length: number): Suite<{ length: number }> {
  const specs: TaskSpec<{ length: number }>[] = Array.from({ length: tasks }, (_, i) => ({
    suite: "tick",
    id: `tick/${i}`,
    family: "tick",
    tags: {},
    seed: String(i),
    payload: { length },
  }));
  return {
    id: "tick",
    version: "1",
    title: "tick",
    dimensions: [],
    compile: () => specs,
    subsets: {},
    budgets: {},
    make(spec) {
      let t = 0;
      const observe = () => ({ step: t, simTime: t, events: [], view: { t } });
      return {
        describe: () => ({
          id: spec.id,
          suite: "tick",
          title: "tick",
          instructions: "",
          tools: [],
          modes: ["wait", "finish"],
          rules: [],
          budgets: {},
          access: DEFAULT_ACCESS,
        }),
        reset: () => {
          t = 0;
          return observe();
        },
        step: () => {
          t++;
          return {
            observation: observe(),
            reward: 0,
            terminated: t >= spec.payload.length,
            truncated: false,
            info: {},
          };
        },
        outcome: () => ({ success: true }),
      };
    },
    score: (_spec, outcome) => ({ success: outcome.success, metrics: {} }),
    aggregate: () => ({ suite: "tick", title: "tick", episodes: 0, headlines: [], tables: [] }),
  };
}

/** Waits `latencyMs` per decision through the shared gate, like a model call. */
function waitingAgent(latencyMs: number): Agent {
  return {
    id: latencyMs > 0 ? "slow" : "instant",
    provider: "stub",
    start: (_card, ctx) => ({
      act: async () => {
        if (latencyMs > 0) {
          const release = await ctx.gate.acquire("stub", ctx.signal);
          await sleep(latencyMs);
          ctx.gate.succeeded("stub");
          release();
        }
        return { action: { kind: "wait" }, raw: "wait" };
      },
    }),
  };
}

async function timedRun(tasks: number, length: number, latencyMs: number, concurrency: number) {
  const outDir = mkdtempSync(join(tmpdir(), "longhaul-bench-"));
  const started = performance.now();
  await runSuite({
    suite: tickSuite(tasks, length),
    agent: waitingAgent(latencyMs),
    agentConfig: {},
    outDir,
    seed: "bench",
    epochs: 1,
    concurrency,
  });
  return { ms: performance.now() - started, decisions: tasks * length, outDir };
}

const fmt = (x: number) => x.toFixed(3);

// 1. Overhead per decision (first a warm-up run).
await timedRun(10, 100, 0, 8);
const overhead = await timedRun(200, 100, 0, 8);
console.log(
  `runner+logging overhead: ${fmt(overhead.ms / overhead.decisions)} ms/decision (${overhead.decisions} decisions, 200 episodes, ${fmt(overhead.ms / 200)} ms/episode incl. trace + fsync'd record)`,
);

// 2. Sustained throughput with 200 ms latency at concurrency 64 (3 waves of 64 episodes).
const slow = await timedRun(192, 20, 200, 64);
const rate = slow.decisions / (slow.ms / 1000);
console.log(
  `throughput at 200 ms latency, concurrency 64: ${rate.toFixed(1)} decisions/s (${((100 * rate) / 320).toFixed(1)}% of the ideal 320/s)`,
);
rmSync(slow.outDir, { recursive: true, force: true });

// 3. Writing a 100-step trace.
const trace = readTrace(overhead.outDir, "tick/0@0");
const reps = 200;
let started = performance.now();
for (let i = 0; i < reps; i++) await writeTrace(overhead.outDir, trace);
console.log(
  `write a ${trace.steps.length}-step trace: ${fmt((performance.now() - started) / reps)} ms`,
);

// 4. Resume scan of a 10,000-episode episodes.jsonl.
const scanDir = mkdtempSync(join(tmpdir(), "longhaul-bench-scan-"));
const line = JSON.stringify(trace.record);
const lines = Array.from({ length: 10_000 }, (_, i) => line.replace('"tick/0@0"', `"tick/${i}@0"`));
writeFileSync(join(scanDir, RUN_FILES.episodes), `${lines.join("\n")}\n`);
started = performance.now();
const records = await recoverEpisodes(scanDir);
console.log(`resume scan of ${records.size} episodes: ${fmt(performance.now() - started)} ms`);
rmSync(scanDir, { recursive: true, force: true });
rmSync(overhead.outDir, { recursive: true, force: true });
