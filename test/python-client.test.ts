/** The stdlib-only Python client, run with python3 against a live server. */
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { loadRun } from "../src/log/index.ts";
import { startTestServer, type TestServer } from "./support/serve.ts";

const CLIENT_DIR = join(dirname(fileURLToPath(import.meta.url)), "../clients/python");
const run = promisify(execFile);
const python = (args: string[]) => run("python3", args, { cwd: CLIENT_DIR });

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("clients/python/longhaul_client.py", () => {
  it("plays the example episode against a live server, which records it", async () => {
    server = await startTestServer({ token: "py-token" });
    const { stdout } = await python([
      "longhaul_client.py",
      "--url",
      server.url,
      "--task",
      "cosmetics-t03/i5",
      "--token",
      "py-token",
    ]);
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({
      episode_id: "cosmetics-t03/i5@0",
      steps: 2,
      return: 0,
      terminated: true,
      truncated: false,
      done: true,
      status: "failure",
    });
    await server.close();
    const { records } = loadRun(join(server.outDir, "robograph"));
    expect(records.map((r) => [r.episodeId, r.agent, r.steps])).toEqual([
      ["cosmetics-t03/i5@0", "python-example", 2],
    ]);
  });

  it("is a Gymnasium-like Env: reset, step, state, result, close, tasks; errors name the field", async () => {
    server = await startTestServer();
    const script = `
import json, sys
from longhaul_client import Env, LonghaulError, tool
env = Env(sys.argv[1], suite="robograph", subset="baseline")
out = {"tasks": len(env.tasks())}
obs, info = env.reset(seed=4)
out["first_step"] = obs["step"]
obs, reward, terminated, truncated, info = env.step(tool("observe"))
out["after"] = [obs["step"], reward, terminated, truncated, info["step_count"]]
out["state"] = env.state()["step_count"]
env.close()
out["closed"] = env.result()["record"]["endedBy"]
try:
    Env(sys.argv[1], suite="robograph", task="cosmetics-t03/i9").reset()
except LonghaulError as e:
    out["error"] = [e.status, e.code, e.path]
try:
    env.reset()
    env.step({"kind": "tool"})
    out["format_error"] = "ok"
except LonghaulError as e:
    out["format_error"] = e.code
print(json.dumps(out))
`;
    const { stdout } = await python(["-c", script, server.url]);
    expect(JSON.parse(stdout)).toEqual({
      tasks: 84,
      first_step: 0,
      after: [1, 0, false, false, 1],
      state: 1,
      closed: "abandoned",
      error: [404, "NOT_FOUND", "task"],
      format_error: "ok",
    });
  });

  it("exits 1 with the server's error when the task does not exist", async () => {
    server = await startTestServer();
    const failed = await python([
      "longhaul_client.py",
      "--url",
      server.url,
      "--task",
      "nope",
    ]).catch((e) => e);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/NOT_FOUND \(404\): unknown task "nope"/);
  });
});
