/**
 * Report and statistics timings: buildReport and the renderers on 10,000 synthetic records,
 * seeded bootstraps with 10,000 resamples, and compareRuns on two 10,000-episode runs.
 * Run with `npx tsx bench/report.bench.ts`.
 */
import { type EpisodeRecord, Rng } from "../src/core/index.ts";
import { bootstrapCi, bootstrapMean, mean } from "../src/metrics/index.ts";
import {
  buildReport,
  compareRuns,
  type RunData,
  renderCompare,
  renderHtml,
  renderMarkdown,
  renderSummary,
} from "../src/report/index.ts";

const EPISODES = 10_000;
const FAMILIES = ["sorting", "delivery", "cleaning", "coffee", "packaging", "laundry"];
const HORIZONS = ["short", "medium", "long", "extreme"];
const CATEGORIES = ["TIME", "QUIT", "FORMAT", "BUDGET", "WRONG-OBJECT"];

/** A synthetic run whose success odds and effort depend on `skill`. */
function syntheticRun(runId: string, skill: number): RunData {
  const rng = new Rng("report-bench", runId);
  const records: EpisodeRecord[] = [];
  for (let i = 0; i < EPISODES; i++) {
    const roll = rng.next();
    const status = roll < 0.02 ? "invalid" : roll < 0.02 + skill ? "success" : "failure";
    const calls = rng.range(5, 60);
    const cachedCalls = rng.int(calls);
    const inputTokens = calls * rng.range(800, 4000);
    records.push({
      episodeId: `task-${i % 2500}@${Math.floor(i / 2500)}`,
      taskId: `task-${i % 2500}`,
      suite: "bench",
      family: rng.pick(FAMILIES),
      tags: { horizon: rng.pick(HORIZONS), robots: rng.range(1, 3) },
      epoch: Math.floor(i / 2500),
      agent: runId,
      status,
      ...(status === "success"
        ? {}
        : { category: status === "invalid" ? "ERR" : rng.pick(CATEGORIES) }),
      endedBy: status === "success" ? "terminated" : "maxSteps",
      steps: calls,
      invalidActions: rng.int(4),
      formatErrors: rng.int(2),
      simTime: rng.range(60, 3600),
      wallMs: rng.range(2_000, 120_000),
      usage: {
        calls,
        inputTokens,
        cachedInputTokens: Math.floor(inputTokens * rng.next() * 0.5),
        outputTokens: calls * rng.range(50, 400),
        reasoningTokens: calls * rng.range(0, 200),
        costUsd: inputTokens * 2.5e-6,
        latencyMs: (calls - cachedCalls) * rng.range(300, 3000),
        cachedCalls,
        retries: rng.int(3),
      },
      metrics: { progress: rng.next(), completion: status === "success" ? 1 : rng.next() },
    });
  }
  return { runId, suite: "bench", agent: runId, planned: EPISODES + 100, records };
}

/** Mean wall and CPU time per call; CPU time is steadier when other processes share the cores. */
function time<T>(label: string, fn: () => T, repeats = 5): T {
  let result = fn();
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < repeats; i++) result = fn();
  const wall = (performance.now() - started) / repeats;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000 / repeats;
  console.log(
    `${label.padEnd(58)} ${wall.toFixed(2).padStart(10)} ms wall ${cpuMs.toFixed(2).padStart(10)} ms cpu`,
  );
  return result;
}

const runA = syntheticRun("agent-a", 0.45);
const runB = syntheticRun("agent-b", 0.55);
console.log(`report bench: ${EPISODES} records per run, Node ${process.version}`);

const report = time("buildReport (10,000 records, no suite)", () => buildReport(runA));
const md = time("renderMarkdown", () => renderMarkdown(report));
const html = time("renderHtml", () => renderHtml(report));
time("renderSummary", () => renderSummary(report));
console.log(`  markdown ${md.length} chars, html ${html.length} chars`);

const steps = runA.records.map((r) => r.steps);
time(
  "bootstrapMean, 1,000 values x 10,000 resamples",
  () => bootstrapMean(steps.slice(0, 1000)),
  3,
);
time("bootstrapMean, 10,000 values x 10,000 resamples", () => bootstrapMean(steps), 1);
time(
  "bootstrapCi (generic mean), 1,000 records x 10,000 resamples",
  () => bootstrapCi(runA.records.slice(0, 1000), (s) => mean(s.map((r) => r.steps))),
  1,
);
const head = (run: RunData): RunData => ({ ...run, records: run.records.slice(0, 1000) });
time(
  "compareRuns, 1,000 pairs, 10,000 resamples/metric",
  () => compareRuns(head(runA), head(runB)),
  1,
);
const model = time(
  "compareRuns, 10,000 pairs, 10,000 resamples/metric",
  () => compareRuns(runA, runB),
  1,
);
time("renderCompare (text)", () => renderCompare(model, "text"));
console.log(`  ${model.metrics.length} metrics compared over ${model.outcomes.pairs} valid pairs`);
