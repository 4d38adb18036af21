/**
 * The server side of bench/serve.bench.ts, run as its own process (node --expose-gc): starts
 * `longhaul serve`'s server on a free port, prints its URL, and answers IPC messages with its
 * CPU time and its memory after a full GC.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
process.on("message", async (message: { cmd: string }) => {
  if (message.cmd === "usage") {
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({
      cpu: process.cpuUsage(),
      mainCpu: mainThreadCpu(),
      memory: process.memoryUsage(),
      open: server.hub.openCount,
    });
  } else if (message.cmd === "stop") {
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
    process.exit(0);
  }
});
