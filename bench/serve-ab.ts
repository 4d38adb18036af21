/**
 * Compare two checkouts' servers (or one checkout under two sets of Node flags) on the serve
 * bench's saturated load, interleaved: both servers run at once, and 64 sockets saturate one and
 * then the other for a few seconds each, several rounds, alternating which goes first. On a
 * shared (virtual) machine the CPU's speed drifts by tens of percent within minutes, so two
 * separate runs of bench/serve.bench.ts cannot show a 10 % change; interleaved phases see the same
 * drift, and the median of the per-round ratios can. Each server's event loop is pinned to CPU 0
 * while it is loaded (the other idles), the clients to CPU 1.
 *
 * Run: npx tsx bench/serve-ab.ts A_DIR B_DIR  (AB_FLAGS_A / AB_FLAGS_B: Node flags for each
 * server, "" for none, unset for those of `longhaul serve`; AB_ROUNDS, default 8; AB_SECONDS per
 * phase, default 3; AB_RATE=N paces the sockets at N steps/s in all and compares the phases' p99
 * step latencies too). A checkout needs its
 * node_modules (a symlink to this one's is enough) and bench/serve-server.ts.
 */
import { resolve } from "node:path";
import {
  canPin,
  cpuBetween,
  explorerScripts,
  load,
  median,
  nodeFlags,
  percentile,
  pin,
  ServerProcess,
  SOCKETS,
} from "./serve-load.ts";

const [a, b] = process.argv.slice(2);
if (!a || !b) {
  console.error("usage: npx tsx bench/serve-ab.ts A_DIR B_DIR");
  process.exit(2);
}
const rounds = Number(process.env.AB_ROUNDS) || 8;
const seconds = Number(process.env.AB_SECONDS) || 3;
const rate = Number(process.env.AB_RATE) || 0;

const scripts = await explorerScripts();
const servers = await Promise.all([
  ServerProcess.start(resolve(a), nodeFlags(process.env.AB_FLAGS_A)),
  ServerProcess.start(resolve(b), nodeFlags(process.env.AB_FLAGS_B)),
]);
try {
  const pinned = canPin && pin(process.pid, 1, true);
  for (const server of servers) await server.warmUp(scripts, pinned);
  /** Steps per CPU-second of each server's event loop, one entry per round; and of its process. */
  const rates: [number[], number[]] = [[], []];
  const processRates: [number[], number[]] = [[], []];
  /** With AB_RATE: each phase's p99 step latency (ms). */
  const p99s: [number[], number[]] = [[], []];
  for (let round = 0; round < rounds; round++) {
    for (const i of round % 2 ? [1, 0] : [0, 1]) {
      const server = servers[i] as ServerProcess;
      // Paced phases follow this server's idle one: a few unmeasured seconds at the rate on the
      // same sockets let its young generation grow back first (V8 shrinks it when allocation has
      // been low). No forced GC around a phase: it would shrink the young generation too.
      let before = server.usage(false);
      if (!rate) await before;
      const latencies: number[] = [];
      const { steps } = await load(server.url, scripts, {
        seconds,
        sockets: SOCKETS,
        latencies,
        rate,
        ...(rate ? { warmUpSeconds: 2, onMeasure: () => (before = server.usage(false)) } : {}),
      });
      const after = await server.usage(false);
      const cpu = cpuBetween(await before, after);
      (rates[i] as number[]).push(steps / cpu.loop);
      (processRates[i] as number[]).push(steps / cpu.process);
      (p99s[i] as number[]).push(percentile(latencies, 99));
    }
    const [ra, rb] = [rates[0].at(-1) as number, rates[1].at(-1) as number];
    const paced = rate
      ? `; p99 A ${p99s[0].at(-1)?.toFixed(1)}, B ${p99s[1].at(-1)?.toFixed(1)} ms`
      : "";
    console.log(
      `round ${round + 1}: A ${ra.toFixed(0)}, B ${rb.toFixed(0)} steps per event-loop CPU-second, B/A ${(rb / ra).toFixed(3)}${paced}`,
    );
  }
  const summary = ([ra, rb]: [number[], number[]], what: string) => {
    const ratios = ra.map((x, k) => (rb[k] as number) / x);
    return (
      `B/A ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}); ` +
      `A ${median(ra).toFixed(0)}, B ${median(rb).toFixed(0)} steps per ${what} CPU-second`
    );
  };
  console.log(`medians over ${rounds} rounds:
  event loop: ${summary(rates, "event-loop")}
  whole server process: ${summary(processRates, "process")}`);
  if (rate) {
    const ratios = p99s[0].map((a, k) => (p99s[1][k] as number) / a);
    console.log(
      `  p99 step latency at ${rate} steps/s: A ${median(p99s[0]).toFixed(1)} ms, B ${median(p99s[1]).toFixed(1)} ms, ` +
        `B/A ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)})`,
    );
  }
} finally {
  for (const server of servers) server.stop();
}
