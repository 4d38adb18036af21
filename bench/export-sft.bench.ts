/**
 * `longhaul export sft` of a 1,254-episode run (MAGMA-Bench's evaluation size), goal < 10 s:
 * a RoboGraph oracle run of 1,254 episodes (the first 418 tasks x 3 epochs) is made
 * once into bench/.cache (not timed), then exported in both formats with a 5% grouped
 * validation split. Run with `npx tsx bench/export-sft.bench.ts`.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgent } from "../src/agents/index.ts";
import type { Suite } from "../src/core/index.ts";
import { loadRun } from "../src/log/index.ts";
import { runSuite } from "../src/run/index.ts";
import { robographSuite } from "../src/suites/robograph/index.ts";
import { exportSft } from "../src/training/index.ts";

const EPISODES = 1254;
const suite = robographSuite as unknown as Suite;
const runDir = join(import.meta.dirname, ".cache", `robograph-oracle-${EPISODES}`);

if (!existsSync(join(runDir, "run.json")) || loadRun(runDir).records.length < EPISODES) {
  const started = performance.now();
  await runSuite({
    suite,
    agent: (await createAgent("oracle", {}, suite)).agent,
    agentConfig: { name: "oracle" },
    outDir: runDir,
    seed: "bench",
    epochs: 3,
    limit: Math.ceil(EPISODES / 3),
    concurrency: 2,
  });
  process.stdout.write(
    `made the run in ${((performance.now() - started) / 1000).toFixed(1)} s (not timed below)\n`,
  );
}

const records = loadRun(runDir).records;
const decisions = records.reduce((n, r) => n + r.steps, 0);
process.stdout.write(`run: ${records.length} episodes, ${decisions} decisions\n`);
const times: number[] = [];
// CPU seconds too: on a loaded machine the wall time mostly measures the other jobs.
const cpuTimes: number[] = [];
// Twice in this thread, once on two worker threads (loaded through tsx here, so each worker
// also pays for transpiling the sources; a built package does not).
for (const [i, workers] of [1, 1, 2].entries()) {
  const dir = mkdtempSync(join(tmpdir(), "lh-sft-bench-"));
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await exportSft({
    runDir,
    suite,
    out: join(dir, "sft.jsonl"),
    valFraction: 0.05,
    workers,
  });
  times.push((performance.now() - started) / 1000);
  const used = process.cpuUsage(cpu);
  cpuTimes.push((used.user + used.system) / 1e6);
  const mib = result.files.reduce((n, f) => n + f.bytes, 0) / 2 ** 20;
  const rss = process.memoryUsage().rss / 2 ** 20;
  process.stdout.write(
    `export ${i + 1} (${workers} worker${workers > 1 ? "s" : ""}): ${times.at(-1)!.toFixed(2)} s (cpu ${cpuTimes.at(-1)!.toFixed(2)} s), ${result.episodes.exported} episodes, ` +
      `${result.rows.train} + ${result.rows.validation} rows, ${mib.toFixed(0)} MiB in 4 files, rss ${rss.toFixed(0)} MiB\n`,
  );
  rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(
  `export sft of ${records.length} episodes in this thread: min ${Math.min(times[0]!, times[1]!).toFixed(2)} s, cpu min ${Math.min(cpuTimes[0]!, cpuTimes[1]!).toFixed(2)} s (goal < 10 s)\n`,
);
