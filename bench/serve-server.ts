/**
 * The server side of bench/serve.bench.ts and bench/serve-ab.ts, run as its own process (node
 * --expose-gc). Like `longhaul serve`, it runs the server on a thread with the server's young
 * generation (serverWorker): the process relays IPC to that thread, which starts the server on a
 * free port, says its URL and its Linux thread id, and answers with its CPU time (the event loop:
 * the "one core"), its GC pauses since the last such answer and its memory after a full GC, and
 * starts and stops a CPU profile of itself.
 */
import { mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { isMainThread, parentPort } from "node:worker_threads";
import { startServer } from "../src/serve/index.ts";
import { serverWorker } from "../src/serve/server-thread.ts";

if (isMainThread) {
  const thread = serverWorker(new URL(import.meta.url));
  thread.on("message", (message) => process.send?.(message));
  process.on("message", (message) => thread.postMessage(message));
  thread.on("exit", (code) => process.exit(code));
} else {
  await serve(parentPort as NonNullable<typeof parentPort>);
}

/** CPU seconds of this thread (user and system) from Linux's per-thread statistics. */
function threadCpu(): number | undefined {
  try {
    const stat = readFileSync("/proc/thread-self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

async function serve(parent: NonNullable<typeof parentPort>): Promise<void> {
  const outDir = mkdtempSync(join(tmpdir(), "lh-bench-serve-"));
  const server = await startServer({
    port: 0,
    suites: ["robograph"],
    suiteOptions: { cache: true },
    outDir,
    capacity: 4096,
    ttlMs: 0,
  });
  parent.postMessage({ url: server.url, tid: Number(basename(readlinkSync("/proc/thread-self"))) });
  /** GC pauses (ms) since the last usage answer; the usage message's own full GC is left out. */
  let pauses: number[] = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { flags } = (entry as unknown as { detail: { flags: number } }).detail;
      if (!(flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED)) pauses.push(entry.duration);
    }
  }).observe({ entryTypes: ["gc"] });
  const inspector = new Session();
  inspector.connect();
  parent.on("message", async (message: { cmd: string; path?: string }) => {
    if (message.cmd === "usage") {
      (globalThis as { gc?: () => void }).gc?.();
      parent.postMessage({
        cpu: process.cpuUsage(),
        mainCpu: threadCpu(),
        memory: process.memoryUsage(),
        open: server.hub.openCount,
        gcPauses: pauses,
      });
      pauses = [];
    } else if (message.cmd === "profile") {
      await inspector.post("Profiler.enable");
      await inspector.post("Profiler.start");
      parent.postMessage({});
    } else if (message.cmd === "profiled" && message.path) {
      const { profile } = await inspector.post("Profiler.stop");
      writeFileSync(message.path, JSON.stringify(profile));
      parent.postMessage({});
    } else if (message.cmd === "stop") {
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
}
