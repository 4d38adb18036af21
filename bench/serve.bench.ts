/**
 * `longhaul serve` under load (issue 13's goals): RoboGraph episodes played over OpenEnv's
 * WebSocket by 64 concurrent sockets (steps/s and step latency; the server is one Node process,
 * so one core), then 1,000 episodes held open at once (the server's memory). The server runs in
 * its own process; this process is the clients. Each socket replays the explorer agent's
 * actions for its task (computed in process first), so episodes are realistic and end on their own.
 * The server is pinned to CPU 0 and the clients to CPU 1 (taskset), the saturated run is repeated
 * and its medians reported, and the paced run offers a stated rate the server sustains; the last
 * lines print the goal measures. Run: npx tsx bench/serve.bench.ts (SERVE_PROF=DIR also writes the
 * server's CPU profile to DIR; SERVE_RATE=N paces at N steps/s; SERVE_REPEATS=N; SERVE_PIN=0).
 */
import { execFileSync, fork } from "node:child_process";
import { readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import WebSocket from "ws";
import { createAgent } from "../src/agents/index.ts";
import type { Action } from "../src/core/index.ts";
import { playEpisode } from "../src/run/index.ts";
import { getSuite } from "../src/suites/index.ts";

const SOCKETS = 64;
const SECONDS = 8;
const REPEATS = Number(process.env.SERVE_REPEATS) || 3;
const OPEN = 1000;
/** The paced run offers this share of the median saturated rate (SERVE_RATE=N overrides). */
const PACED_SHARE = 0.6;

interface Usage {
  cpu: NodeJS.CpuUsage;
  mainCpu?: number;
  memory: NodeJS.MemoryUsage;
  open: number;
}

const suite = await getSuite("robograph", { cache: true });
const specs = suite.compile().slice(0, 128);
const { agent } = await createAgent("explorer", {}, suite);
const scripts: { task: string; steps: Record<string, unknown>[] }[] = [];
for (const spec of specs) {
  const { trace } = await playEpisode(suite, spec, agent);
  scripts.push({
    task: spec.id,
    steps: (trace?.steps ?? []).map((s) => ({
      ...(s.action as Action),
      metadata: { ...(s.note ? { note: s.note } : {}), ...(s.extra ? { extra: s.extra } : {}) },
    })),
  });
}

const server = fork(new URL("./serve-server.ts", import.meta.url).pathname, [], {
  execArgv: [
    "--expose-gc",
    "--import",
    "tsx",
    ...(process.env.SERVE_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.SERVE_PROF}`] : []),
  ],
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
// The clients (this process) on CPU 1, never on the server's core (SERVE_PIN=0: no pinning).
const pinning = process.env.SERVE_PIN !== "0" && availableParallelism() >= 2;
const pinned = pinning && pin(process.pid, 1, true);
const url = await new Promise<string>((resolve) =>
  server.once("message", (m: { url: string }) => resolve(m.url)),
);
/** Pin thread `tid` (with `all`: every thread of process `tid`) to `cpu` (false when that fails). */
function pin(tid: number | undefined, cpu: number, all = false): boolean {
  try {
    const args = [...(all ? ["-a"] : []), "-p", "-c", String(cpu), String(tid)];
    execFileSync("taskset", args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const usage = () =>
  new Promise<Usage>((resolve) => {
    server.once("message", (m: Usage) => resolve(m));
    server.send({ cmd: "usage" });
  });

/**
 * One socket playing scripted episodes back to back until `stopAt`, recording step latencies
 * (ms). With `intervalMs`, steps follow a fixed schedule (open loop): this socket's k-th step is
 * due at `phaseMs + k * intervalMs` from the start, sent then, or as soon as the previous answer
 * is in when the server is late; the latency is measured from the send.
 */
async function player(
  index: number,
  sockets: number,
  stopAt: () => boolean,
  latencies: number[],
  intervalMs = 0,
  phaseMs = 0,
): Promise<number> {
  const ws = new WebSocket(`${url.replace("http", "ws")}/ws`);
  await new Promise((resolve) => ws.once("open", resolve));
  const ask = (message: unknown) =>
    new Promise<{ type: string; data: { done: boolean } }>((resolve) => {
      ws.once("message", (data) => resolve(JSON.parse(data.toString())));
      ws.send(JSON.stringify(message));
    });
  const start = performance.now();
  let steps = 0;
  for (let episode = index; !stopAt(); episode += sockets) {
    const script = scripts[episode % scripts.length]!;
    await ask({ type: "reset", data: { task_id: script.task } });
    for (const action of script.steps) {
      if (intervalMs > 0) {
        const wait = start + phaseMs + steps * intervalMs - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      const started = performance.now();
      const answer = await ask({ type: "step", data: action });
      latencies.push(performance.now() - started);
      steps++;
      if (answer.type !== "observation") throw new Error(JSON.stringify(answer));
      if (answer.data.done || stopAt()) break;
    }
  }
  ws.close();
  return steps;
}

/**
 * `sockets` players for `seconds`: steps played and the wall time. With `rate` (steps/s in all),
 * each socket steps every `sockets / rate` seconds, the sockets' schedules spread evenly over
 * that interval (so the offered load is steady, not 64 steps arriving at once).
 */
async function load(
  seconds: number,
  latencies: number[],
  sockets = SOCKETS,
  rate = 0,
): Promise<{ steps: number; wall: number }> {
  const started = performance.now();
  const stopAt = () => performance.now() - started > seconds * 1000;
  const interval = rate > 0 ? (1000 * sockets) / rate : 0;
  const counts = await Promise.all(
    Array.from({ length: sockets }, (_, i) =>
      player(i, sockets, stopAt, latencies, interval, (i * interval) / sockets),
    ),
  );
  return { steps: counts.reduce((a, b) => a + b, 0), wall: (performance.now() - started) / 1000 };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

const median = (values: number[]) => percentile(values, 50);
const show = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(2)} ms, p99 ${percentile(values, 99).toFixed(2)} ms, ` +
  `max ${percentile(values, 100).toFixed(1)} ms`;

try {
  await load(2, []); // warm-up: JIT, suite caches, the run directory, the server's threads
  // The server's event loop (its main thread) alone on CPU 0; its helper threads (trace writer,
  // thread pool, GC) beside the clients on CPU 1. Both exist by now, after the warm-up.
  if (pinned) {
    for (const task of readdirSync(`/proc/${server.pid}/task`)) {
      pin(Number(task), Number(task) === server.pid ? 0 : 1);
    }
  }
  // Saturated: every socket sends its next step as soon as the last is answered, REPEATS times.
  const perLoop: number[] = [];
  const perProcess: number[] = [];
  const wallRates: number[] = [];
  let saturated: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    const before = await usage();
    const latencies: number[] = [];
    const { steps, wall } = await load(SECONDS, latencies);
    const after = await usage();
    const cpu = (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1e6;
    const main = (after.mainCpu ?? Number.NaN) - (before.mainCpu ?? Number.NaN);
    perLoop.push(steps / main);
    perProcess.push(steps / cpu);
    wallRates.push(steps / wall);
    saturated = latencies;
    console.log(
      `run ${r + 1}/${REPEATS}, ${SOCKETS} sockets saturated: ${steps} steps in ${wall.toFixed(1)} s = ` +
        `${(steps / wall).toFixed(0)} steps/s wall; server event-loop thread ${main.toFixed(2)} CPU-s, ` +
        `whole process ${cpu.toFixed(2)} CPU-s; latency (the queue, by Little's law) ${show(latencies)}`,
    );
  }
  // The service latency alone: one socket, one step at a time.
  const single: number[] = [];
  await load(5, single, 1);
  console.log(`one socket: ${show(single)}`);
  // Below saturation: 64 sockets on a steady schedule at a rate the server sustains.
  const rate = Number(process.env.SERVE_RATE) || PACED_SHARE * median(wallRates);
  const paced: number[] = [];
  const { steps: pacedSteps, wall: pacedWall } = await load(SECONDS, paced, SOCKETS, rate);
  console.log(
    `${SOCKETS} sockets paced at ${rate.toFixed(0)} steps/s offered (${(pacedSteps / pacedWall).toFixed(0)} played): ${show(paced)}`,
  );
  const range = (values: number[]) =>
    `median ${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`;
  console.log(`
GOALS (issue 13), ${pinned ? "server event loop pinned to CPU 0, its other threads and the clients to CPU 1" : "not pinned"}, ${REPEATS} runs of ${SECONDS} s:
  steps per CPU-second, ${SOCKETS} sockets (goal >= 5,000): event-loop thread ${range(perLoop)}; whole server process ${range(perProcess)}; wall ${range(wallRates)} steps/s
  p99 step latency, ${SOCKETS} sockets paced at ${rate.toFixed(0)} steps/s (goal < 5 ms): ${percentile(paced, 99).toFixed(2)} ms
  p99 step latency, one socket (goal < 5 ms): ${percentile(single, 99).toFixed(2)} ms
  saturated ${SOCKETS} sockets (last run, not a goal): ${show(saturated)}`);

  const idle = await usage();
  const opened: string[] = [];
  for (let i = 0; i < OPEN; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, OPEN - i) }, (_, j) =>
        fetch(`${url}/episodes`, {
          method: "POST",
          body: JSON.stringify({ task: specs[(i + j) % specs.length]!.id }),
        }).then((r) => r.json() as Promise<{ episode_id: string }>),
      ),
    );
    opened.push(...batch.map((b) => b.episode_id));
  }
  const full = await usage();
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  console.log(
    `${full.open} episodes open at once: server RSS ${mb(full.memory.rss)} MB (idle ${mb(idle.memory.rss)} MB), ` +
      `heap ${mb(full.memory.heapUsed)} MB (idle ${mb(idle.memory.heapUsed)} MB): ` +
      `${((full.memory.heapUsed - idle.memory.heapUsed) / 1024 / full.open).toFixed(0)} KB heap per open episode`,
  );
} finally {
  server.send({ cmd: "stop" });
}
