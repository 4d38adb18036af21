/**
 * `longhaul serve` under load (issue 13's goals): RoboGraph episodes played over OpenEnv's
 * WebSocket by 64 concurrent sockets (steps/s and step latency; the server is one Node process,
 * so one core), then 1,000 episodes held open at once (the server's memory). The server runs in
 * its own process; this process is the clients. Each socket replays the explorer agent's
 * actions for its task (computed in process first), so episodes are realistic and end on their own.
 * The server is pinned to CPU 0 and the clients to CPU 1 (taskset), the saturated run is repeated
 * and its medians reported, and the paced run offers a stated rate the server sustains, after a
 * few unmeasured seconds at that rate; the same paced load against a server that does nothing
 * (bench/serve-null-server.ts) gives the measurement floor. The last lines print the goal
 * measures, and the paced run the server's GC pauses. Run: npx tsx bench/serve.bench.ts
 * (SERVE_PROF=FILE writes the server's CPU profile of the first saturated run to FILE;
 * SERVE_RATE=N paces at N steps/s; SERVE_REPEATS=N; SERVE_PIN=0; SERVE_NODE_FLAGS="..." starts
 * the server's Node with these flags instead of the ones `longhaul serve` runs under, "" none).
 */
import { constants, monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import {
  canPin,
  cpuBetween,
  explorerScripts,
  load,
  median,
  nodeFlags,
  PACED_WARM_UP_SECONDS,
  percentile,
  pin,
  ServerProcess,
  SOCKETS,
  shareDuringGc,
  show,
} from "./serve-load.ts";

const SECONDS = 8;
/**
 * The paced run's measured seconds (SERVE_PACED_SECONDS=N overrides): long enough to hold several
 * of the full GCs that the server's external memory starts (every ~7.5 s at 1,200 steps/s), each
 * of which slows tens of steps around it (an 8 s window held one or none, and its p99 varied with
 * that).
 */
const PACED_SECONDS = Number(process.env.SERVE_PACED_SECONDS) || 30;
const REPEATS = Number(process.env.SERVE_REPEATS) || 3;
const OPEN = 1000;
/** The paced run offers this share of the median saturated rate (SERVE_RATE=N overrides). */
const PACED_SHARE = 0.6;

const scripts = await explorerScripts();
const root = fileURLToPath(new URL("..", import.meta.url));
const server = await ServerProcess.start(root, nodeFlags(process.env.SERVE_NODE_FLAGS));
const { url } = server;
// The clients (this process) on CPU 1, never on the server's core (SERVE_PIN=0: no pinning).
const pinned = process.env.SERVE_PIN !== "0" && canPin && pin(process.pid, 1, true);
const usage = () => server.usage();

/** A paced run's step latencies and what explains them. */
interface PacedRun {
  latencies: number[];
  played: number;
  wall: number;
  gcPauses: number[];
  /** How many of those were full (mark-compact) GCs. */
  fullGcs: number;
  clientDelayP99: number;
  slow: ReturnType<typeof shareDuringGc>;
}

/**
 * 64 sockets on a steady schedule at `rate` steps/s: first unmeasured (PACED_WARM_UP_SECONDS), so
 * that the server's young generation has grown back after the quieter phase before and the
 * saturated phases' garbage is collected (a server's steady state at this rate), then measured on
 * the same sockets, without a forced GC in between.
 */
async function paced(target: ServerProcess, rate: number): Promise<PacedRun> {
  // The clients' own event-loop delay bounds what they can measure (they share CPU 1 with the
  // server's GC and writer threads).
  const clientDelay = monitorEventLoopDelay({ resolution: 1 });
  const latencies: number[] = [];
  const sentAt: number[] = [];
  const { steps, wall, from } = await load(target.url, scripts, {
    seconds: PACED_SECONDS,
    sockets: SOCKETS,
    latencies,
    sentAt,
    rate,
    warmUpSeconds: PACED_WARM_UP_SECONDS,
    onMeasure: () => clientDelay.enable(),
  });
  clientDelay.disable();
  // The server's GC pauses since its last usage answer that ended after measuring began.
  const gcSpans = (await target.usage(false)).gcSpans.filter(([, end]) => end > from);
  return {
    latencies,
    played: steps / wall,
    wall,
    gcPauses: gcSpans.map(([start, end]) => end - start),
    fullGcs: gcSpans.filter(([, , kind]) => kind === constants.NODE_PERFORMANCE_GC_MAJOR).length,
    clientDelayP99: clientDelay.percentile(99) / 1e6,
    slow: shareDuringGc(latencies, sentAt, gcSpans, 5),
  };
}

try {
  // The server's event loop (its main thread) alone on CPU 0 after the warm-up; its helper
  // threads (trace writer, thread pool, GC) beside the clients on CPU 1.
  await server.warmUp(scripts, pinned);
  // Saturated: every socket sends its next step as soon as the last is answered, REPEATS times.
  const perLoop: number[] = [];
  const perProcess: number[] = [];
  const wallRates: number[] = [];
  let saturated: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    const profile = r === 0 ? process.env.SERVE_PROF : undefined;
    const before = await usage();
    if (profile) await server.ask("profile");
    const latencies: number[] = [];
    const { steps, wall } = await load(url, scripts, {
      seconds: SECONDS,
      sockets: SOCKETS,
      latencies,
    });
    if (profile) await server.ask("profiled", { path: profile });
    const after = await usage();
    const { loop: main, process: cpu } = cpuBetween(before, after);
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
  await load(url, scripts, { seconds: 5, sockets: 1, latencies: single });
  console.log(`one socket: ${show(single)}`);
  // Below saturation: 64 sockets on a steady schedule at a rate the server sustains.
  const rate = Number(process.env.SERVE_RATE) || PACED_SHARE * median(wallRates);
  const pacedRun = await paced(server, rate);
  const { latencies: pacedLatencies, gcPauses, fullGcs, clientDelayP99, slow } = pacedRun;
  const gcMs = gcPauses.reduce((a, b) => a + b, 0);
  console.log(
    `${SOCKETS} sockets paced at ${rate.toFixed(0)} steps/s offered (${pacedRun.played.toFixed(0)} played): ${show(pacedLatencies)}; ` +
      `server GC pauses ${gcPauses.length}, ${fullGcs} of them full (${show(gcPauses)}), ${((100 * gcMs) / (1000 * pacedRun.wall)).toFixed(1)}% of the wall time; ` +
      `the clients' event-loop delay p99 ${clientDelayP99.toFixed(1)} ms; ` +
      `steps over 5 ms ${slow.slow} (${((100 * slow.slow) / pacedLatencies.length).toFixed(1)}%), ${(100 * slow.duringGc).toFixed(0)}% of them waited through a server GC pause, ${(100 * slow.duringFullGc).toFixed(0)}% through a full one`,
  );
  // The floor: the same clients, pinned the same way, against a server that does nothing.
  const nullServer = await ServerProcess.start(root, [], "serve-null-server.ts");
  let floor: PacedRun;
  try {
    await nullServer.warmUp(scripts, pinned);
    floor = await paced(nullServer, rate);
  } finally {
    nullServer.stop();
  }
  console.log(
    `measurement floor, the same load against bench/serve-null-server.ts: ${show(floor.latencies)}; ` +
      `the clients' event-loop delay p99 ${floor.clientDelayP99.toFixed(1)} ms`,
  );
  const range = (values: number[]) =>
    `median ${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`;
  console.log(`
GOALS (issue 13), ${pinned ? "server event loop pinned to CPU 0, its other threads and the clients to CPU 1" : "not pinned"}, ${REPEATS} runs of ${SECONDS} s:
  steps per CPU-second, ${SOCKETS} sockets (goal >= 5,000): event-loop thread ${range(perLoop)}; whole server process ${range(perProcess)}; wall ${range(wallRates)} steps/s
  p99 step latency, ${SOCKETS} sockets paced at ${rate.toFixed(0)} steps/s (goal < 5 ms): ${percentile(pacedLatencies, 99).toFixed(2)} ms (the measurement floor: ${percentile(floor.latencies, 99).toFixed(2)} ms)
  p99 step latency, one socket (goal < 5 ms): ${percentile(single, 99).toFixed(2)} ms
  saturated ${SOCKETS} sockets (last run, not a goal): ${show(saturated)}`);

  const idle = await usage();
  const opened: string[] = [];
  for (let i = 0; i < OPEN; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, OPEN - i) }, (_, j) =>
        fetch(`${url}/episodes`, {
          method: "POST",
          body: JSON.stringify({ task: scripts[(i + j) % scripts.length]?.task }),
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
  server.stop();
}
