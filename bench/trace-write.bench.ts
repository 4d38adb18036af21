/**
 * The event loop's share of writing traces (issue 13: a server records hundreds of episodes a
 * second). RoboGraph explorer episodes are played in process first; their traces are then
 * written 16 at a time through both of `writeTrace`'s paths: with a redactor (the runner's: JSON
 * and UTF-8 bytes made on the loop, gzip on the thread pool) and without (served episodes': the
 * JSON joined on the loop from pieces, the observations' bytes spliced in, and the buffer handed
 * to the trace writer's thread for gzip). Measured: CPU seconds of this
 * process's main thread (Linux), per trace and per step, alternating the two paths.
 * Run: npx tsx bench/trace-write.bench.ts
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgent } from "../src/agents/index.ts";
import { jsonText, type Trace } from "../src/core/index.ts";
import { writeTrace } from "../src/log/index.ts";
import { playEpisode } from "../src/run/index.ts";
import { getSuite } from "../src/suites/index.ts";

const TASKS = 128;
const ROUNDS = 5;

const suite = await getSuite("robograph", { cache: true });
const { agent } = await createAgent("explorer", {}, suite);
const traces: Trace[] = [];
for (const spec of suite.compile().slice(0, TASKS)) {
  const { trace } = await playEpisode(suite, spec, agent);
  if (trace) traces.push(trace);
}
const steps = traces.reduce((n, t) => n + t.steps.length, 0);
const dir = mkdtempSync(join(tmpdir(), "lh-bench-trace-"));
mkdirSync(join(dir, "traces"));

/** CPU seconds of the main thread (the event loop) from Linux's per-thread statistics. */
function mainThreadCpu(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Write every trace once, 16 at a time; the main thread's CPU seconds it took. */
async function writeAll(redact?: (text: string) => string): Promise<number> {
  const before = mainThreadCpu();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < traces.length) await writeTrace(dir, traces[next++]!, redact);
    }),
  );
  return mainThreadCpu() - before;
}

try {
  const onLoop: number[] = [];
  const offLoop: number[] = [];
  await writeAll((t) => t);
  await writeAll();
  for (let r = 0; r < ROUNDS; r++) {
    onLoop.push(await writeAll((t) => t));
    offLoop.push(await writeAll());
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  const show = (label: string, v: number[]) =>
    console.log(
      `${label}: ${((1e6 * median(v)) / traces.length).toFixed(0)} us of event loop per trace, ` +
        `${((1e6 * median(v)) / steps).toFixed(1)} us per step (median of ${ROUNDS})`,
    );
  console.log(
    `${traces.length} RoboGraph explorer traces, ${steps} steps, ${(
      traces.reduce((n, t) => n + jsonText(t).length, 0) / traces.length / 1024
    ).toFixed(0)} K characters of JSON each on average`,
  );
  show("JSON + UTF-8 on the loop, gzip on the thread pool (runner, with redaction)", onLoop);
  show("pieces joined on the loop, gzip on the trace writer thread (served episodes)", offLoop);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
