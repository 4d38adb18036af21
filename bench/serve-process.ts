/**
 * The IPC side of a bench server process (bench/serve-server.ts, bench/serve-null-server.ts):
 * reports its URL, then answers the bench's messages with its CPU time, its GC pauses since the
 * last such answer and its memory (after a full GC unless asked not to), starts and stops a CPU
 * profile of its main thread, and stops.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { constants, PerformanceObserver } from "node:perf_hooks";

/** What a bench server process is: its URL, how many episodes it holds open, how it stops. */
export interface BenchServer {
  url: string;
  open: () => number;
  close: () => Promise<void>;
}

/**
 * CPU seconds of this process's main thread (the event loop: the "one core") from Linux's
 * per-thread statistics; gzip and file writes run on other threads beside it.
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

/** Serve the bench's IPC messages for `server` (run in the forked process). */
export function serveBench(server: BenchServer): void {
  process.send?.({ url: server.url });
  // The main thread's GC pauses (ms) since the last usage answer, and when each ran (epoch ms,
  // start and end) and its kind; the usage message's own full GC is left out.
  let pauses: number[] = [];
  let spans: [number, number, number][] = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { flags, kind } = (entry as unknown as { detail: { flags: number; kind: number } })
        .detail;
      if (flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) continue;
      pauses.push(entry.duration);
      const start = performance.timeOrigin + entry.startTime;
      spans.push([start, start + entry.duration, kind]);
    }
  }).observe({ entryTypes: ["gc"] });
  const inspector = new Session();
  inspector.connect();
  process.on("message", async (message: { cmd: string; path?: string; collect?: boolean }) => {
    if (message.cmd === "usage") {
      // A full GC makes the memory reading exact, but after a quiet phase it also shrinks V8's
      // young generation, which the next phase then pays for: a bench can ask without it.
      if (message.collect !== false) (globalThis as { gc?: () => void }).gc?.();
      process.send?.({
        cpu: process.cpuUsage(),
        mainCpu: mainThreadCpu(),
        memory: process.memoryUsage(),
        open: server.open(),
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
      process.exit(0);
    }
  });
}
