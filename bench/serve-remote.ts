/**
 * Issue 13's latency goals measured against a `longhaul serve` that is already running, on this
 * machine or another: one socket, then 64 sockets paced at SERVE_RATE steps/s (10 s unmeasured on
 * the same sockets, then SERVE_PACED_SECONDS measured), with the same explorer-replay clients as
 * bench/serve.bench.ts. serve.bench.ts starts its own server beside its clients, and on a 2-core
 * machine they share a CPU with the server's GC helper threads (bench/RESULTS.md, sessions 6-11);
 * run from a second machine, this measures the server alone. It reads only what a client sees (no
 * server CPU or GC spans).
 *
 * Run: on the server machine `longhaul serve robograph --host 0.0.0.0 --token T`, then here
 * `SERVE_URL=http://HOST:8000 SERVE_TOKEN=T npx tsx bench/serve-remote.ts`.
 */
import {
  explorerScripts,
  load,
  PACED_WARM_UP_SECONDS,
  percentile,
  SOCKETS,
  show,
} from "./serve-load.ts";

const url = process.env.SERVE_URL;
if (!url) {
  console.error("usage: SERVE_URL=http://HOST:PORT [SERVE_TOKEN=T] npx tsx bench/serve-remote.ts");
  process.exit(2);
}
const token = process.env.SERVE_TOKEN;
const rate = Number(process.env.SERVE_RATE) || 1200;
const seconds = Number(process.env.SERVE_PACED_SECONDS) || 30;

/** A latency summary with the share of steps over the goal's 5 ms. */
const withSlow = (values: number[]) =>
  `${show(values)}, ${((100 * values.filter((v) => v > 5).length) / values.length).toFixed(2)} % over 5 ms`;

const scripts = await explorerScripts();
const single: number[] = [];
await load(url, scripts, { seconds: 5, sockets: 1, latencies: single, warmUpSeconds: 2, token });
console.log(`one socket: ${withSlow(single)}`);
const paced: number[] = [];
const { steps, wall } = await load(url, scripts, {
  seconds,
  sockets: SOCKETS,
  latencies: paced,
  rate,
  warmUpSeconds: PACED_WARM_UP_SECONDS,
  token,
});
console.log(
  `${SOCKETS} sockets paced at ${rate} steps/s offered (${(steps / wall).toFixed(0)} played, ${seconds} s): ${withSlow(paced)}`,
);
console.log(`
GOALS (issue 13) against ${url}:
  p99 step latency, ${SOCKETS} sockets paced at ${rate} steps/s (goal < 5 ms): ${percentile(paced, 99).toFixed(2)} ms
  p99 step latency, one socket (goal < 5 ms): ${percentile(single, 99).toFixed(2)} ms`);
