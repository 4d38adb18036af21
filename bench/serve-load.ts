/**
 * Load for `longhaul serve` benches: a server started in its own process (bench/serve-server.ts,
 * from any checkout), pinned with taskset, and WebSocket clients in this process that replay the
 * explorer agent's RoboGraph episodes, saturated or on a steady schedule.
 */
import { type ChildProcess, execFileSync, fork } from "node:child_process";
import { readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { constants } from "node:perf_hooks";
import WebSocket from "ws";
import { createAgent } from "../src/agents/index.ts";
import type { Action } from "../src/core/index.ts";
import { playEpisode } from "../src/run/index.ts";
import { SERVE_NODE_FLAGS } from "../src/serve/node-flags.ts";
import { getSuite } from "../src/suites/index.ts";

/** Issue 13's concurrency: 64 WebSocket clients at once. */
export const SOCKETS = 64;

/**
 * Unmeasured seconds a paced run plays at its rate first. It follows saturated phases, whose
 * garbage and external memory the server's next full GCs collect, and at 1,200 steps/s a full GC
 * comes every ~7.5 s: with 3 s, the first of those (pauses of 7-15 ms, against ~5 ms later) fell
 * in the measured window (session 11).
 */
export const PACED_WARM_UP_SECONDS = 10;

/** What the server process reports about itself. */
export interface Usage {
  cpu: NodeJS.CpuUsage;
  /** CPU seconds of the server's main thread (its event loop). */
  mainCpu?: number;
  memory: NodeJS.MemoryUsage;
  open: number;
  /** The server's GC pauses (ms) since its previous usage answer. */
  gcPauses: number[];
  /** When each of those pauses ran (epoch ms, start and end) and its kind (perf_hooks' GC kinds). */
  gcSpans: [number, number, number][];
}

/** CPU seconds the server spent between two usage answers: its event loop's and the whole process's. */
export function cpuBetween(before: Usage, after: Usage): { loop: number; process: number } {
  return {
    loop: (after.mainCpu ?? Number.NaN) - (before.mainCpu ?? Number.NaN),
    process: (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1e6,
  };
}

/**
 * A bench server's Node flags, given as one space-separated string (an environment variable;
 * empty for none); unset, the flags `longhaul serve` runs under (src/serve/node-flags.ts).
 */
export const nodeFlags = (text: string | undefined): string[] =>
  text === undefined ? [...SERVE_NODE_FLAGS] : text.split(" ").filter(Boolean);

/**
 * One task's episode as the messages a client sends, serialised once: the clients share a CPU
 * with the server's helper threads, and their own allocation (GC pauses) is in the latencies.
 */
export interface Script {
  task: string;
  reset: string;
  steps: string[];
}

/** The explorer agent's episodes of the first `tasks` RoboGraph tasks, as client scripts. */
export async function explorerScripts(tasks = 128): Promise<Script[]> {
  const suite = await getSuite("robograph", { cache: true });
  const { agent } = await createAgent("explorer", {}, suite);
  const scripts: Script[] = [];
  for (const spec of suite.compile().slice(0, tasks)) {
    const { trace } = await playEpisode(suite, spec, agent);
    const steps = (trace?.steps ?? []).map((s) => ({
      ...(s.action as Action),
      metadata: { ...(s.note ? { note: s.note } : {}), ...(s.extra ? { extra: s.extra } : {}) },
    }));
    scripts.push({
      task: spec.id,
      reset: JSON.stringify({ type: "reset", data: { suite: "robograph", task_id: spec.id } }),
      steps: steps.map((data) => JSON.stringify({ type: "step", data })),
    });
  }
  return scripts;
}

/** Pin thread `tid` (with `all`: every thread of process `tid`) to `cpu` (false when that fails). */
export function pin(tid: number | undefined, cpu: number, all = false): boolean {
  try {
    const args = [...(all ? ["-a"] : []), "-p", "-c", String(cpu), String(tid)];
    execFileSync("taskset", args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Whether this machine can give the server's event loop a CPU of its own. */
export const canPin = availableParallelism() >= 2;

/** A server process started from a checkout's bench/serve-server.ts. */
export class ServerProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  /**
   * Start the server of the checkout at `root` (node flags: `flags`; `script`: the bench's null
   * server instead) and wait for its URL.
   */
  static async start(
    root: string,
    flags: string[] = [],
    script = "serve-server.ts",
  ): Promise<ServerProcess> {
    const child = fork(`${root}/bench/${script}`, [], {
      cwd: root,
      execArgv: ["--expose-gc", ...flags, "--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const url = await new Promise<string>((resolve) =>
      child.once("message", (m: { url: string }) => resolve(m.url)),
    );
    return new ServerProcess(child, url);
  }

  /** Ask the server to do `cmd` and wait for its answer. */
  ask<T>(cmd: string, extra: Record<string, unknown> = {}): Promise<T> {
    return new Promise<T>((resolve) => {
      this.child.once("message", (m: T) => resolve(m));
      this.child.send({ cmd, ...extra });
    });
  }

  /** Its usage; `collect: false` skips the full GC that makes the memory reading exact. */
  usage(collect = true): Promise<Usage> {
    return this.ask<Usage>("usage", { collect });
  }

  /**
   * Warm it up: 64 sockets for 2 s saturated (JIT, suite caches, the run directory; its helper
   * threads exist afterwards); then, with `pinned`, its event loop alone on CPU 0.
   */
  async warmUp(scripts: Script[], pinned: boolean): Promise<void> {
    await load(this.url, scripts, { seconds: 2, sockets: SOCKETS });
    if (pinned) this.pinEventLoop();
  }

  /** The server's event loop alone on CPU 0, its other threads (GC, trace writer) on CPU 1. */
  pinEventLoop(): void {
    const pid = this.child.pid as number;
    for (const task of readdirSync(`/proc/${pid}/task`))
      pin(Number(task), Number(task) === pid ? 0 : 1);
  }

  stop(): void {
    this.child.send({ cmd: "stop" });
  }
}

/**
 * What a player needs of an answer: its type and, for an observation, whether the episode is done.
 * An observation is neither parsed nor decoded (its done flag sits between reward and metadata):
 * parsing 3,000 answers a second gave the clients' process GC pauses of up to 20 ms, which the
 * latencies it measures then included, and decoding each to a string was half its allocation.
 */
function answerOf(data: Buffer): { type: string; data: { done: boolean } } {
  if (data.compare(OBSERVATION_HEAD, 0, OBSERVATION_HEAD.length, 0, OBSERVATION_HEAD.length) !== 0)
    return JSON.parse(data.toString());
  return { type: "observation", data: { done: data.includes(DONE_FLAG) } };
}
const OBSERVATION_HEAD = Buffer.from('{"type":"observation"');
const DONE_FLAG = Buffer.from('"done":true,"metadata":');

/**
 * One socket playing scripted episodes back to back until `stopAt`, recording the latencies (ms)
 * of the steps it sends from `measureFrom` on, and returning how many those were. With
 * `intervalMs`, steps follow a fixed schedule (open loop): this socket's k-th step is due at
 * `phaseMs + k * intervalMs` from the start, sent then, or as soon as the previous answer is in
 * when the server is late; the latency is measured from the send.
 */
async function player(
  url: string,
  scripts: Script[],
  index: number,
  run: {
    sockets: number;
    stopAt: () => boolean;
    measureFrom: number;
    latencies: number[];
    sentAt: number[] | undefined;
    intervalMs: number;
    phaseMs: number;
    token: string | undefined;
  },
): Promise<number> {
  const { sockets, stopAt, measureFrom, latencies, sentAt, intervalMs, phaseMs, token } = run;
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  const ws = new WebSocket(`${url.replace("http", "ws")}/ws`, { headers });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  const ask = (message: string) =>
    new Promise<{ type: string; data: { done: boolean } }>((resolve) => {
      ws.once("message", (data: Buffer) => resolve(answerOf(data)));
      ws.send(message);
    });
  const start = performance.now();
  let steps = 0;
  let measured = 0;
  for (let episode = index; !stopAt(); episode += sockets) {
    const script = scripts[episode % scripts.length] as Script;
    await ask(script.reset);
    for (const step of script.steps) {
      if (intervalMs > 0) {
        const wait = start + phaseMs + steps * intervalMs - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      const started = performance.now();
      const answer = await ask(step);
      if (started >= measureFrom) {
        latencies.push(performance.now() - started);
        sentAt?.push(performance.timeOrigin + started);
        measured++;
      }
      steps++;
      if (answer.type !== "observation") throw new Error(JSON.stringify(answer));
      if (answer.data.done || stopAt()) break;
    }
  }
  ws.close();
  return measured;
}

/**
 * `sockets` players on `url` for `seconds`: steps played, the wall time and when measuring began
 * (epoch ms, the clock of the server's GC spans). With `rate` (steps/s
 * in all), each socket steps every `sockets / rate` seconds, the sockets' schedules spread evenly
 * over that interval (so the offered load is steady, not all sockets' steps arriving at once).
 * With `warmUpSeconds`, the same sockets first play that long unmeasured (`onMeasure` is called
 * when measuring starts): a measured phase that opened its own sockets would start with 64
 * WebSocket handshakes and resets at once, and its first steps queue behind them (session 10:
 * a third to a half of the paced run's steps over 5 ms were in its first 100 ms).
 */
export async function load(
  url: string,
  scripts: Script[],
  options: {
    seconds: number;
    sockets: number;
    latencies?: number[];
    /** Filled beside `latencies`: when each step was sent (epoch ms). */
    sentAt?: number[];
    rate?: number;
    warmUpSeconds?: number;
    onMeasure?: () => void;
    /** The server's bearer token (`longhaul serve --token`), if it has one. */
    token?: string;
  },
): Promise<{ steps: number; wall: number; from: number }> {
  const { seconds, sockets, latencies = [], sentAt, rate = 0, warmUpSeconds = 0 } = options;
  const started = performance.now();
  const measureFrom = started + warmUpSeconds * 1000;
  const stopAt = () => performance.now() - measureFrom > seconds * 1000;
  const interval = rate > 0 ? (1000 * sockets) / rate : 0;
  const measuring = options.onMeasure && setTimeout(options.onMeasure, warmUpSeconds * 1000);
  const counts = await Promise.all(
    Array.from({ length: sockets }, (_, i) =>
      player(url, scripts, i, {
        sockets,
        stopAt,
        measureFrom,
        latencies,
        sentAt,
        intervalMs: interval,
        phaseMs: (i * interval) / sockets,
        token: options.token,
      }),
    ),
  );
  clearTimeout(measuring);
  return {
    steps: counts.reduce((a, b) => a + b, 0),
    wall: (performance.now() - measureFrom) / 1000,
    from: performance.timeOrigin + measureFrom,
  };
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

export const median = (values: number[]) => percentile(values, 50);

/** Durations (ms) as "p50 …, p99 …, max …" for the benches' lines. */
export const show = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(2)} ms, p99 ${percentile(values, 99).toFixed(2)} ms, ` +
  `max ${percentile(values, 100).toFixed(1)} ms`;

/**
 * Of the steps slower than `ms`, the share whose wait overlapped one of the server's GC pauses,
 * and one of its full (mark-compact) GCs (both processes read the same clock).
 */
export function shareDuringGc(
  latencies: number[],
  sentAt: number[],
  spans: [number, number, number][],
  ms: number,
): { slow: number; duringGc: number; duringFullGc: number } {
  let slow = 0;
  let duringGc = 0;
  let duringFullGc = 0;
  latencies.forEach((latency, k) => {
    if (latency <= ms) return;
    slow++;
    const from = sentAt[k] as number;
    const overlapping = spans.filter(([start, end]) => start < from + latency && end > from);
    if (overlapping.length > 0) duringGc++;
    if (overlapping.some(([, , kind]) => kind === constants.NODE_PERFORMANCE_GC_MAJOR)) {
      duringFullGc++;
    }
  });
  const share = (n: number) => (slow ? n / slow : 0);
  return { slow, duringGc: share(duringGc), duringFullGc: share(duringFullGc) };
}
