/**
 * `longhaul serve` under load (issue 13's goals): RoboGraph episodes played over OpenEnv's
 * WebSocket by 64 concurrent sockets (steps/s and step latency; the server is one Node process,
 * so one core), then 1,000 episodes held open at once (the server's memory). The server runs in
 * its own process; this process is the clients. Each socket replays the explorer agent's
 * actions for its task (computed in process first), so episodes are realistic and end on their own.
 * Run: npx tsx bench/serve.bench.ts
 */
import { fork } from "node:child_process";
import WebSocket from "ws";
import { createAgent } from "../src/agents/index.ts";
import type { Action } from "../src/core/index.ts";
import { playEpisode } from "../src/run/index.ts";
import { getSuite } from "../src/suites/index.ts";

const SOCKETS = 64;
const SECONDS = 10;
const OPEN = 1000;
const PACE_MS = 40;

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
  execArgv: ["--expose-gc", "--import", "tsx"],
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
const url = await new Promise<string>((resolve) =>
  server.once("message", (m: { url: string }) => resolve(m.url)),
);
const usage = () =>
  new Promise<Usage>((resolve) => {
    server.once("message", (m: Usage) => resolve(m));
    server.send({ cmd: "usage" });
  });

/**
 * One socket playing scripted episodes back to back until `stopAt`, recording step latencies
 * (ms); with `paceMs`, each step is sent `paceMs` after the previous one was (open loop).
 */
async function player(
  index: number,
  stopAt: () => boolean,
  latencies: number[],
  paceMs = 0,
): Promise<number> {
  const ws = new WebSocket(`${url.replace("http", "ws")}/ws`);
  await new Promise((resolve) => ws.once("open", resolve));
  const ask = (message: unknown) =>
    new Promise<{ type: string; data: { done: boolean } }>((resolve) => {
      ws.once("message", (data) => resolve(JSON.parse(data.toString())));
      ws.send(JSON.stringify(message));
    });
  let steps = 0;
  for (let episode = index; !stopAt(); episode += SOCKETS) {
    const script = scripts[episode % scripts.length]!;
    await ask({ type: "reset", data: { task_id: script.task } });
    for (const action of script.steps) {
      if (paceMs > 0) await new Promise((r) => setTimeout(r, paceMs));
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

/** `sockets` players for `seconds`: steps played and the wall time. */
async function load(
  seconds: number,
  latencies: number[],
  paceMs = 0,
  sockets = SOCKETS,
): Promise<{ steps: number; wall: number }> {
  const started = performance.now();
  const stopAt = () => performance.now() - started > seconds * 1000;
  const counts = await Promise.all(
    Array.from({ length: sockets }, (_, i) => player(i, stopAt, latencies, paceMs)),
  );
  return { steps: counts.reduce((a, b) => a + b, 0), wall: (performance.now() - started) / 1000 };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

try {
  await load(2, []); // warm-up: JIT, suite caches, the run directory
  const before = await usage();
  const latencies: number[] = [];
  const { steps, wall } = await load(SECONDS, latencies);
  const after = await usage();
  const cpu = (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1e6;
  const main = (after.mainCpu ?? Number.NaN) - (before.mainCpu ?? Number.NaN);
  console.log(
    `WebSocket, ${SOCKETS} sockets, robograph (explorer actions replayed): ${steps} steps in ${wall.toFixed(1)} s = ` +
      `${(steps / wall).toFixed(0)} steps/s wall`,
  );
  console.log(
    `server CPU: event-loop thread ${main.toFixed(2)} s = ${(steps / main).toFixed(0)} steps per CPU-second on one core; ` +
      `whole process (with gzip on the thread pool) ${cpu.toFixed(2)} s = ${(steps / cpu).toFixed(0)} steps per CPU-second`,
  );
  const show = (label: string, values: number[]) =>
    console.log(
      `${label}: p50 ${percentile(values, 50).toFixed(2)} ms, p99 ${percentile(values, 99).toFixed(2)} ms, ` +
        `max ${percentile(values, 100).toFixed(1)} ms`,
    );
  // Saturated, a closed loop's latency is its queue: 64 sockets / throughput (Little's law).
  show("step latency, saturated (client round trip)", latencies);
  // The service latency alone: one socket, one step at a time.
  const single: number[] = [];
  await load(5, single, 0, 1);
  show("step latency, one socket", single);
  // Under load below saturation: the same 64 sockets, each sending a step every PACE_MS.
  const paced: number[] = [];
  const { steps: pacedSteps, wall: pacedWall } = await load(SECONDS, paced, PACE_MS);
  show(
    `step latency, ${SOCKETS} sockets paced at one step per ${PACE_MS} ms each (${(pacedSteps / pacedWall).toFixed(0)} steps/s)`,
    paced,
  );

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
