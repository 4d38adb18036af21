/**
 * A worker thread of `exportSft`: reads batches of a run's traces and renders their decisions
 * (the CPU-heavy part: gunzip, JSON, the harness prompt, the rows). The main thread writes the
 * batches in order, so the files are the same whatever the number of workers.
 */
import { parentPort, workerData } from "node:worker_threads";
import { defaultRenderer } from "../agents/llm/index.ts";
import { readTrace } from "../log/index.ts";
import { loadSuite, suiteEntry } from "../suites/index.ts";
import { samplesOfTrace } from "./sample.ts";
import { type RenderedSample, renderSample, type WriterOptions } from "./writer.ts";

/** What every worker is started with. */
export interface WorkerSetup extends Pick<WriterOptions, "formats" | "valFraction" | "seed"> {
  runDir: string;
  suite: string;
}

/** One batch of episodes to render, and its answer. */
export interface WorkerJob {
  index: number;
  episodes: { episodeId: string; group: string }[];
}
export interface WorkerAnswer {
  index: number;
  rendered: RenderedSample[];
}

const setup = workerData as WorkerSetup;
const suite = await loadSuite(suiteEntry(setup.suite));
const renderer = suite.renderer ?? defaultRenderer;
const port = parentPort;
if (!port) throw new Error("export-worker runs as a worker thread");
port.on("message", (job: WorkerJob) => {
  const rendered: RenderedSample[] = [];
  for (const { episodeId, group } of job.episodes) {
    for (const sample of samplesOfTrace(readTrace(setup.runDir, episodeId), renderer, group)) {
      rendered.push(renderSample(sample, setup));
    }
  }
  port.postMessage({ index: job.index, rendered } satisfies WorkerAnswer);
});
