/**
 * The server side of bench/serve.bench.ts, run as its own process (node --expose-gc): starts
 * `longhaul serve`'s server on a free port and answers the bench over IPC (bench/serve-process.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../src/serve/index.ts";
import { serveBench } from "./serve-process.ts";

const outDir = mkdtempSync(join(tmpdir(), "lh-bench-serve-"));
const server = await startServer({
  port: 0,
  suites: ["robograph"],
  suiteOptions: { cache: true },
  outDir,
  capacity: 4096,
  ttlMs: 0,
});
serveBench({
  url: server.url,
  open: () => server.hub.openCount,
  close: async () => {
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  },
});
