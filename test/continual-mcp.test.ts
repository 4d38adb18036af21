/**
 * The continual suite through the serving layer's per-episode MCP (the authors' evaluation
 * surface: observe / select_option / status): an agent harness sees exactly the card's
 * `select_option` plus the free `observe` and `status`, an invalid selection uses a step and
 * changes nothing, and the success path ends the episode with the goal reached and recorded.
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { loadRun } from "../src/log/index.ts";
import { EpisodeResult, ToolOutcome } from "../src/serve/wire.ts";
import type { ContinualLatent, ContinualView } from "../src/suites/continual/environment.ts";
import { startTestServer, type TestServer } from "./support/serve.ts";

const TASK = "zero-shot/L2-child-001";
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("continual over MCP", () => {
  it("select_option, observe and status play an episode to its goal; invalid choices stay put", async () => {
    server = await startTestServer({ suites: ["continual"], allowPrivileged: true });
    const created = await server.call("POST", "/episodes", { task: TASK, access: "privileged" });
    expect(created.status).toBe(201);
    const client = new Client({ name: "continual-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(created.body.mcp.url), {
        requestInit: { headers: created.body.mcp.headers },
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["select_option", "observe", "status", "latent"]);
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      client.callTool({ name, arguments: args });
    const latent = async () =>
      ((await call("latent")).structuredContent as { latent: ContinualLatent }).latent;
    const pick = async (role: string) =>
      (await latent()).choices.find((c) => c.role === role)?.label as string;

    const first = ToolOutcome.parse((await call("observe")).structuredContent);
    const view = first.observation?.view as unknown as ContinualView;
    expect(view.choices.map((c) => c.label)).toEqual(["A", "B", "C", "D"]);
    expect(first).toMatchObject({ step_count: 0, reward: null, done: false });

    const before = (await latent()).state;
    const failed = await call("select_option", { option: await pick("invalid"), reason: "try" });
    expect(failed.isError).toBe(true);
    expect(ToolOutcome.parse(failed.structuredContent)).toMatchObject({ step_count: 1 });
    expect((await latent()).state).toBe(before);

    let last = ToolOutcome.parse(failed.structuredContent);
    for (let i = 0; i < 6 && !last.done; i++)
      last = ToolOutcome.parse(
        (await call("select_option", { option: await pick("success_path"), reason: "next" }))
          .structuredContent,
      );
    expect(last).toMatchObject({ done: true, step_count: 7, result: { status: "success" } });
    const status = EpisodeResult.parse((await call("status")).structuredContent);
    expect(status.record).toMatchObject({ status: "success", steps: 7 });
    expect(status.record?.metrics).toMatchObject({ optimal: 6, invalid: 1, extra_used: 1 });
    await client.close();
    await server.close();
    const { records } = loadRun(join(server.outDir, "continual-privileged"));
    expect(records.map((r) => [r.episodeId, r.status])).toEqual([[`${TASK}@0`, "success"]]);
    server = undefined;
  });
});
