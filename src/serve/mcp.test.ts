/**
 * MCP per episode: the official SDK's client over streamable HTTP (with and without MCP
 * sessions), plain JSON-RPC requests, the MCP inspector's CLI, and `longhaul mcp` over stdio.
 */
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { collectGarbage } from "../../test/support/gc.ts";
import { startTestServer, type TestServer } from "../../test/support/serve.ts";
import { loadRun } from "../log/index.ts";
import { EpisodeResult, ToolOutcome } from "./wire.ts";

const TASK = "cosmetics-t03/i5";
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
const run = promisify(execFile);

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** An SDK client connected to an episode's MCP endpoint. */
async function connect(url: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: "longhaul-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
}

describe("MCP per episode", () => {
  it("lists the card's tools plus observe, status and finish, and plays through them", async () => {
    server = await startTestServer({ token: "t0k" });
    const auth = { authorization: "Bearer t0k" };
    const created = await server.call("POST", "/episodes", { task: TASK }, auth);
    const { client, transport } = await connect(created.body.mcp.url, created.body.mcp.headers);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getInstructions()).toContain("Store the cosmetics");
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    const cardTools = created.body.card.tools.map((t: { name: string }) => t.name);
    // RoboGraph's card has its own `observe` (an action): the generic one is prefixed.
    expect(names).toEqual([...cardTools, "longhaul_observe", "status", "finish"]);
    const grab = tools.find((t) => t.name === "grab")!;
    expect(grab.inputSchema).toEqual(
      created.body.card.tools.find((t: { name: string }) => t.name === "grab").parameters,
    );
    expect(grab.outputSchema?.type).toBe("object");

    const looked = await client.callTool({ name: "longhaul_observe", arguments: {} });
    const seen = ToolOutcome.parse(looked.structuredContent);
    expect(seen).toMatchObject({ step_count: 0, reward: null, done: false });
    expect(JSON.parse((looked.content as { text: string }[])[0]!.text)).toEqual(seen);
    const acted = await client.callTool({ name: "observe", arguments: {} });
    expect(ToolOutcome.parse(acted.structuredContent)).toMatchObject({ step_count: 1, reward: 0 });
    // Arguments the tool does not take: typed feedback from the environment, flagged as an error.
    const bad = await client.callTool({ name: "grab", arguments: { object: 5 } });
    expect(bad.isError).toBe(true);
    expect(ToolOutcome.parse(bad.structuredContent).invalid?.code).toBe("bad-arguments");
    const unknown = await client.callTool({ name: "teleport", arguments: {} });
    expect(unknown.isError).toBe(true);
    const status = await client.callTool({ name: "status", arguments: {} });
    expect(EpisodeResult.parse(status.structuredContent)).toMatchObject({ done: false, reward: 0 });
    const stopped = await client.callTool({ name: "stop", arguments: {} });
    const last = ToolOutcome.parse(stopped.structuredContent);
    expect(last).toMatchObject({
      done: true,
      ended_by: "terminated",
      result: { status: "failure" },
    });
    const after = await client.callTool({ name: "observe", arguments: {} });
    expect(after.isError).toBe(true);
    expect((after.content as { text: string }[])[0]!.text).toContain("CONFLICT");
    const final = EpisodeResult.parse(
      (await client.callTool({ name: "status", arguments: {} })).structuredContent,
    );
    expect(final.record).toMatchObject({ steps: 4, invalidActions: 2, endedBy: "terminated" });
    await client.close();
  });

  it("lets a finished episode's session go while its MCP session stays open", async () => {
    server = await startTestServer();
    const created = await server.call("POST", "/episodes", { task: TASK });
    const id = created.body.episode_id;
    const session = new WeakRef(server.hub.get(id).session);
    const { client } = await connect(created.body.mcp.url);
    const stopped = await client.callTool({ name: "stop", arguments: {} });
    expect(ToolOutcome.parse(stopped.structuredContent).done).toBe(true);
    for (let i = 0; i < 200 && session.deref(); i++) {
      await new Promise((r) => setTimeout(r, 25));
      collectGarbage();
    }
    expect(session.deref() === undefined).toBe(true);
    // The session's read-only tools still answer: the final outcome and the verdict.
    const looked = await client.callTool({ name: "longhaul_observe", arguments: {} });
    expect(ToolOutcome.parse(looked.structuredContent)).toMatchObject({
      episode_id: id,
      step_count: 1,
      done: true,
      ended_by: "terminated",
    });
    const status = await client.callTool({ name: "status", arguments: {} });
    expect(EpisodeResult.parse(status.structuredContent)).toMatchObject({ done: true });
    await client.close();
  });

  it("works without MCP sessions: a stateless server, and bare JSON-RPC requests", async () => {
    server = await startTestServer({ mcpSessions: false });
    const created = await server.call("POST", "/episodes", { task: TASK });
    const { client, transport } = await connect(created.body.mcp.url);
    expect(transport.sessionId).toBeUndefined();
    const acted = await client.callTool({ name: "observe", arguments: {} });
    expect(ToolOutcome.parse(acted.structuredContent).step_count).toBe(1);
    await client.close();

    // A request that never initialized, with no session header: answered statelessly.
    const response = await fetch(created.body.mcp.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "longhaul_observe", arguments: {} },
      }),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as {
      result: { structuredContent: { step_count: number } };
    };
    expect(answer.result.structuredContent.step_count).toBe(1);
    const unknownSession = await fetch(created.body.mcp.url, {
      method: "POST",
      headers: { "content-type": "application/json", "mcp-session-id": "nope" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(unknownSession.status).toBe(404);
    const garbage = await fetch(created.body.mcp.url, { method: "POST", body: "{" });
    expect(garbage.status).toBe(400);
    expect(((await garbage.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it("is usable from the MCP inspector's CLI", async () => {
    server = await startTestServer({ token: "t0k" });
    const created = await server.call(
      "POST",
      "/episodes",
      { task: TASK },
      { authorization: "Bearer t0k" },
    );
    const require = createRequire(import.meta.url);
    const cli = join(
      dirname(require.resolve("@modelcontextprotocol/inspector-cli/package.json")),
      "build/cli.js",
    );
    const common = [
      cli,
      "--cli",
      created.body.mcp.url,
      "--transport",
      "http",
      "--header",
      "Authorization: Bearer t0k",
    ];
    // inspector-cli 1.0.3 looks for its package.json relative to the working directory.
    const options = { cwd: dirname(cli) };
    const listed = await run(process.execPath, [...common, "--method", "tools/list"], options);
    const names = JSON.parse(listed.stdout).tools.map((t: { name: string }) => t.name);
    expect(names).toContain("grab");
    expect(names).toContain("status");
    const called = await run(
      process.execPath,
      [...common, "--method", "tools/call", "--tool-name", "longhaul_observe"],
      options,
    );
    expect(JSON.parse(called.stdout).structuredContent).toMatchObject({
      step_count: 0,
      done: false,
    });
  });

  it("serves one episode over stdio with `longhaul mcp` and records it", async () => {
    const outDir = mkdtempSync(join(tmpdir(), "longhaul-mcp-"));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        "--import",
        "tsx",
        join(ROOT, "src/cli/bin.ts"),
        "mcp",
        "robograph",
        TASK,
        "--out",
        outDir,
      ],
      cwd: ROOT,
      env: { ...process.env } as Record<string, string>,
      stderr: "pipe",
    });
    const client = new Client({ name: "longhaul-test", version: "1.0.0" });
    await client.connect(transport);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("stop");
    const stopped = await client.callTool({ name: "stop", arguments: {} });
    expect(ToolOutcome.parse(stopped.structuredContent)).toMatchObject({ done: true });
    await client.close();
    for (let i = 0; i < 200; i++) {
      try {
        if (loadRun(join(outDir, "robograph")).header.status === "finished") break;
      } catch {
        // Not written yet.
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const { header, records } = loadRun(join(outDir, "robograph"));
    expect(header.status).toBe("finished");
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ episodeId: `${TASK}@0`, agent: "mcp-client", steps: 1 });
  });
});
