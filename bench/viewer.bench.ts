/**
 * `longhaul view` on a 10,000-episode run (issue 16: "10,000-episode runs open in < 2 s"): a
 * generated run directory (transduction-shaped records, 20 traces), timed from loading the
 * run (what the server does on start) through the page showing the episode table in Chromium,
 * then a filter, an episode, the report with its figures, and the static export's index.
 * Run with `npx tsx bench/viewer.bench.ts` (the browser part needs /usr/bin/chromium).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DEFAULT_ACCESS,
  type EpisodeRecord,
  emptyUsage,
  Rng,
  type Trace,
} from "../src/core/index.ts";
import { writeEpisodes, writeHeader, writeTrace } from "../src/log/index.ts";
import { dataKeys, dataScript, RunCatalog, startViewer } from "../src/web/index.ts";
import { hasChromium, launchChromium } from "../test/support/browser.ts";

const EPISODES = 10_000;
const TRACES = 20;
const TASKS = ["arith", "uuid", "lookup", "table"];
const FORMATS = ["ordered", "shuffled", "unnumbered"];

function records(): EpisodeRecord[] {
  const rng = new Rng("viewer-bench");
  return Array.from({ length: EPISODES }, (_, i) => {
    const task = rng.pick(TASKS);
    const accuracy = rng.next();
    const taskId = `${task}/${rng.pick(FORMATS)}/d${rng.range(1, 4)}/${2 ** rng.range(2, 7)}k/s${i}`;
    const usage = {
      ...emptyUsage(),
      calls: 1,
      inputTokens: rng.range(2_000, 60_000),
      outputTokens: rng.range(2_000, 60_000),
      costUsd: rng.next() / 10,
      latencyMs: rng.range(1_000, 90_000),
    };
    return {
      episodeId: `${taskId}@0`,
      taskId,
      suite: "transduction",
      family: task,
      tags: {
        task,
        format: rng.pick(FORMATS),
        difficulty: rng.range(1, 4),
        horizonK: 2 ** rng.range(2, 7),
        sample: i % 5,
      },
      epoch: 0,
      agent: "llm",
      status: accuracy > 0.9 ? "success" : rng.next() < 0.03 ? "invalid" : "failure",
      ...(accuracy > 0.9 ? {} : { category: "INEXACT" }),
      endedBy: "finished",
      steps: 1,
      invalidActions: 0,
      formatErrors: 0,
      wallMs: usage.latencyMs,
      usage,
      metrics: {
        accuracy,
        exact: accuracy > 0.9 ? 1 : 0,
        records: 1000,
        correct: Math.round(accuracy * 1000),
      },
    } satisfies EpisodeRecord;
  });
}

async function makeRun(dir: string): Promise<EpisodeRecord[]> {
  const all = records();
  const now = new Date().toISOString();
  await writeHeader(dir, {
    runId: "bench10k",
    command: ["bench"],
    config: { epochs: 1, concurrency: 1, retryErrors: false, maxConsecutiveFormatErrors: 3 },
    versions: { longhaul: "bench", node: process.version },
    seed: "0",
    suite: { id: "transduction", version: "bench", hash: "bench" },
    agent: { id: "llm", config: {} },
    access: DEFAULT_ACCESS,
    budgets: {},
    planned: EPISODES,
    status: "finished",
    startedAt: now,
    updatedAt: now,
  });
  await writeEpisodes(dir, all);
  for (const record of all.slice(0, TRACES)) {
    const trace: Trace = {
      episodeId: record.episodeId,
      taskId: record.taskId,
      suite: "transduction",
      seed: "0",
      card: {
        id: record.taskId,
        suite: "transduction",
        title: record.taskId,
        instructions: "",
        tools: [],
        modes: ["say"],
        rules: [],
        budgets: {},
        access: DEFAULT_ACCESS,
      },
      steps: [
        {
          step: 0,
          observation: { step: 0, events: [], view: { text: "x".repeat(200_000) } },
          action: { kind: "say", text: "y".repeat(200_000) },
        },
      ],
      record,
    };
    await writeTrace(dir, trace);
  }
  return all;
}

const ms = (t: number) => `${(performance.now() - t).toFixed(0)} ms`;
const dir = mkdtempSync(join(tmpdir(), "longhaul-viewer-bench-"));
try {
  const traces = new Set((await makeRun(dir)).slice(0, TRACES).map((r) => r.episodeId));
  // The suite is unknown to the catalog here: the report is the generic one, no inspection.
  const options = { suite: async () => undefined };
  let t = performance.now();
  const start = performance.now();
  const catalog = new RunCatalog([dir], options);
  console.log(`load the run (header + 10,000 records, validated): ${ms(t)}`);
  t = performance.now();
  const index = catalog.index(0)!;
  const script = dataScript(dataKeys.index(0), index);
  console.log(`index document: ${ms(t)} (${(script.length / 2 ** 20).toFixed(1)} MiB)`);
  const viewer = await startViewer(catalog);
  console.log(`server up (page script ready): ${ms(start)} since the run started loading`);
  if (hasChromium) {
    const browser = await launchChromium();
    const page = await browser.context.newPage();
    await page.goto(viewer.url);
    await page.waitForSelector("#runs tbody tr");
    t = performance.now();
    await page.goto(`${viewer.url}#/run/0`);
    await page.waitForSelector("#episodes tbody tr");
    console.log(`page shows the 10,000-episode table: ${ms(t)} (from the runs page)`);
    t = performance.now();
    const cold = await browser.context.newPage();
    await cold.goto(`${viewer.url}#/run/0`);
    await cold.waitForSelector("#episodes tbody tr");
    console.log(`a fresh tab straight to the run: ${ms(t)}`);
    t = performance.now();
    await cold.selectOption("#filter-status", "success");
    await cold.waitForFunction(
      '!document.querySelector("#matched").textContent.startsWith("10,000 of")',
    );
    console.log(`filter by status and redraw: ${ms(t)}`);
    t = performance.now();
    await cold.click('th[data-key="metric:accuracy"]');
    await cold.waitForSelector('th[data-key="metric:accuracy"] .arrow');
    console.log(`sort by a metric and redraw: ${ms(t)}`);
    t = performance.now();
    const traced = index.rows.find((r) => traces.has(r.id))!;
    await cold.goto(`${viewer.url}#/run/0/episode/${encodeURIComponent(traced.file)}`);
    await cold.waitForSelector("#step-detail h2");
    console.log(`one episode (400 kB trace): ${ms(t)}`);
    t = performance.now();
    await cold.goto(`${viewer.url}#/run/0/report`);
    await cold.waitForSelector("#report figure svg", { timeout: 120_000 });
    console.log(`report tab with its figures drawn (first time): ${ms(t)}`);
    await browser.close();
  } else {
    console.log("no /usr/bin/chromium: browser timings skipped");
  }
  await viewer.close();
} finally {
  if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
  else console.log(dir);
}
