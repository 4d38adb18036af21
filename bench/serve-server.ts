/**
 * The server side of bench/serve.bench.ts, run as its own process (node --expose-gc): starts
 * `longhaul serve`'s server on a free port, prints its URL, and answers IPC messages with its
 * CPU time, its GC pauses since the last such answer and its memory after a full GC, and starts
 * and stops a CPU profile of its main thread.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { startServer } from "../src/serve/index.ts";

const outDir = mkdtempSync(join(tmpdir(), "lh-bench-serve-"));
const server = await startServer({
  port: 0,
  suites: ["robograph"],
  suiteOptions: { cache: true },
  outDir,
  capacity: 4096,
  ttlMs: 0,
});
process.send?.({ url: server.url });

/**
 * CPU seconds of this process's main thread (the event loop: the "one core") from Linux's
 * per-thread statistics; gzip and file writes run on libuv's thread pool beside it.
 */
function mainThreadCpu(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}
/**
 * The main thread's GC pauses (ms) since the last usage answer, and when each ran (epoch ms, start
 * and end); the usage message's own full GC is left out.
 */
let pauses: number[] = [];
let spans: [number, number][] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const { flags } = (entry as unknown as { detail: { flags: number } }).detail;
    if (flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) continue;
    pauses.push(entry.duration);
    const start = performance.timeOrigin + entry.startTime;
    spans.push([start, start + entry.duration]);
  }
}).observe({ entryTypes: ["gc"] });
const inspector = new Session();
inspector.connect();
process.on("message", async (message: { cmd: string; path?: string }) => {
  if (message.cmd === "usage") {
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({
      cpu: process.cpuUsage(),
      mainCpu: mainThreadCpu(),
      memory: process.memoryUsage(),
      open: server.hub.openCount,
      gcPauses: pauses,
      gcSpans: spans,
    });
    pauses = [];
    spans = [];
  } else if (message.cmd === "profile") {
    await inspector.post("Profiler.enable");
    await inspector.post("Profiler.start");
    process.send?.({});
  } else if (message.cmd === "profiled" && message.path) {
    const { profile } = await inspector.post("Profiler.stop");
    writeFileSync(message.path, JSON.stringify(profile));
    process.send?.({});
  } else if (message.cmd === "stop") {
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
    process.exit(0);
  }
});
