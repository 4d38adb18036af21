/**
 * A Redis for tests: Debian's redis-server (installed by .ci/run) started on a free local port
 * with no persistence, stopped by its PID. Without redis-server the tests that need it fail
 * with a message saying so, unless LONGHAUL_REDIS_OPTIONAL=1, which skips them loudly.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe } from "vitest";

/** A running redis-server. */
export interface TestRedis {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const MISSING =
  "redis-server is not installed; .ci/run installs it (apt-get install -y redis-server). Set LONGHAUL_REDIS_OPTIONAL=1 to skip the Redis tests.";

/** Whether redis-server can be run here. */
export function redisAvailable(): boolean {
  return spawnSync("redis-server", ["--version"]).status === 0;
}

/** `describe`, or (only with LONGHAUL_REDIS_OPTIONAL=1 and no redis-server) a loud skip. */
export function describeWithRedis(name: string, body: () => void): void {
  if (!redisAvailable() && process.env.LONGHAUL_REDIS_OPTIONAL === "1") {
    process.stderr.write(`\n!!! SKIPPING "${name}": ${MISSING}\n\n`);
    describe.skip(name, body);
    return;
  }
  describe(name, body);
}

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Start redis-server on 127.0.0.1 at a free port; resolves once it accepts connections. */
export async function startRedis(): Promise<TestRedis> {
  if (!redisAvailable()) throw new Error(MISSING);
  const dir = mkdtempSync(join(tmpdir(), "longhaul-redis-"));
  const port = await freePort();
  const child: ChildProcess = spawn(
    "redis-server",
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) resolve();
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
  child.stdout?.removeAllListeners("data");
  child.stdout?.resume();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid as number,
    stop: async () => {
      process.kill(child.pid as number, "SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
