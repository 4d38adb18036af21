/** `longhaul serve`, `longhaul mcp` and `longhaul worker` as real processes: startup, signals, exit codes. */
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadRun } from "../src/log/index.ts";
import { SERVE_NODE_FLAGS } from "../src/serve/node-flags.ts";
import { spawnLonghaul } from "./support/longhaul-process.ts";
import { longhaul } from "./support/run-cli.ts";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

function cli(args: string[]): {
  child: ChildProcess;
  exit: Promise<number | null>;
  stdout: () => string;
} {
  const child = spawnLonghaul(args);
  children.push(child);
  let out = "";
  child.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.resume();
  return {
    child,
    exit: new Promise((resolve) => child.once("exit", (code) => resolve(code))),
    stdout: () => out,
  };
}

/** Wait until `ready` holds (polled every 50 ms, up to 30 s). */
async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !ready(); i++) await new Promise((r) => setTimeout(r, 50));
}

/** The serve address a `--json` server printed, once it has. */
async function address(server: ReturnType<typeof cli>): Promise<string> {
  await until(() => server.stdout().includes("\n"));
  return JSON.parse(server.stdout()).url;
}

/** The processes `pid` started (Linux's /proc), with their command lines. */
function childrenOf(pid: number): { pid: number; argv: string[] }[] {
  const ids = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean);
  return ids.map((id) => ({
    pid: Number(id),
    argv: readFileSync(`/proc/${id}/cmdline`, "utf8").split("\0"),
  }));
}

describe("the serving commands", () => {
  it("serve prints its address, and on SIGTERM records the open episodes and exits 0", async () => {
    const out = mkdtempSync(join(tmpdir(), "longhaul-serve-cli-"));
    const server = cli(["serve", "robograph", "--port", "0", "--out", out, "--json"]);
    await address(server);
    const { url, suites } = JSON.parse(server.stdout());
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(suites).toEqual(["robograph"]);
    const created = await fetch(`${url}/episodes`, {
      method: "POST",
      body: JSON.stringify({ task: "cosmetics-t03/i5" }),
    });
    expect(created.status).toBe(201);
    server.child.kill("SIGTERM");
    expect(await server.exit).toBe(0);
    const { header, records } = loadRun(join(out, "robograph"));
    expect(header.status).toBe("finished");
    expect(records.map((r) => r.endedBy)).toEqual(["abandoned"]);
  });

  it("refuses a public address without a token, and unknown tasks, as usage errors", async () => {
    const open = await longhaul("serve", "robograph", "--host", "0.0.0.0", "--port", "0");
    expect(open.code).toBe(2);
    expect(open.stderr).toMatch(/--token/);
    const task = await longhaul(
      "mcp",
      "robograph",
      "no-such-task",
      "--out",
      mkdtempSync(join(tmpdir(), "lh-")),
    );
    expect(task.code).toBe(2);
    expect(task.stderr).toMatch(/unknown task "no-such-task"/);
    const queue = await longhaul("worker", "--queue", "http://127.0.0.1:1");
    expect(queue.code).toBe(2);
    expect(queue.stderr).toMatch(/redis:\/\//);
    for (const args of [
      ["serve", "--help"],
      ["mcp", "--help"],
      ["worker", "--help"],
    ]) {
      expect((await longhaul(...args)).code, args.join(" ")).toBe(0);
    }
  });

  it("serve runs in a child Node started with its heap flags; the child records and stops if serve dies", async () => {
    const out = mkdtempSync(join(tmpdir(), "longhaul-serve-cli-"));
    const server = cli(["serve", "robograph", "--port", "0", "--out", out, "--json"]);
    const url = await address(server);
    const pid = server.child.pid as number;
    const [child, ...more] = childrenOf(pid);
    expect(more).toEqual([]);
    expect(child?.argv).toEqual(expect.arrayContaining([...SERVE_NODE_FLAGS, "serve"]));
    const created = await fetch(`${url}/episodes`, {
      method: "POST",
      body: JSON.stringify({ task: "cosmetics-t03/i5" }),
    });
    expect(created.status).toBe(201);
    server.child.kill("SIGKILL");
    await until(() => !existsSync(`/proc/${child?.pid}`));
    expect(existsSync(`/proc/${child?.pid}`)).toBe(false);
    const { header, records } = loadRun(join(out, "robograph"));
    expect(header.status).toBe("finished");
    expect(records.map((r) => r.endedBy)).toEqual(["abandoned"]);
  });

  it("serve --no-tuned-heap serves from its own process", async () => {
    const out = mkdtempSync(join(tmpdir(), "longhaul-serve-cli-"));
    const server = cli([
      "serve",
      "robograph",
      "--port",
      "0",
      "--out",
      out,
      "--json",
      "--no-tuned-heap",
    ]);
    const url = await address(server);
    expect(childrenOf(server.child.pid as number)).toEqual([]);
    expect((await fetch(`${url}/health`)).status).toBe(200);
    server.child.kill("SIGINT");
    expect(await server.exit).toBe(0);
  });
});
