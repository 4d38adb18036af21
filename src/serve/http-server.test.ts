/** Episodes over HTTP: the endpoints, their errors, safety limits, recording and restarts. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { longhaul } from "../../test/support/run-cli.ts";
import {
  episodePath,
  remoteAgentSession,
  startTestServer,
  type TestServer,
  wsConnect,
} from "../../test/support/serve.ts";
import { createAgent } from "../agents/index.ts";
import { privilegedKeys } from "../check/index.ts";
import { loadRun, safeFileName } from "../log/index.ts";
import { getSuite } from "../suites/index.ts";
import { findRunDirs, RunCatalog } from "../web/index.ts";
import { ObservationData } from "./wire.ts";

const TASK = "cosmetics-t03/i5";
const STOP = { kind: "tool", calls: [{ tool: "stop", args: {} }] };
const OBSERVE = { kind: "tool", calls: [{ tool: "observe", args: {} }] };

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  server = await startTestServer(options);
  return server;
}

describe("episodes over HTTP", () => {
  it("creates, steps, finishes and records an episode; the result carries the record", async () => {
    const s = await serve();
    const created = await s.call("POST", "/episodes", { task: TASK, agent: "curl" });
    expect(created.status).toBe(201);
    const id = created.body.episode_id;
    expect(id).toBe(`${TASK}@0`);
    expect(created.body.card.id).toBe(TASK);
    expect(created.body.observation.step).toBe(0);
    expect(created.body.mcp.url).toBe(`${s.url}${episodePath(id, "/mcp")}`);
    expect(created.body.mcp.headers).toEqual({});
    // The card names the access granted (`privileged: false`); nothing else is a privileged key.
    expect(privilegedKeys(created.body)).toEqual(["$.card.access.privileged"]);

    const state = await s.call("GET", episodePath(id));
    expect(state.body).toEqual({
      episode_id: id,
      step_count: 0,
      done: false,
      suite: "robograph",
      task_id: TASK,
    });
    const stepped = await s.call("POST", episodePath(id, "/step"), { action: OBSERVE });
    expect(stepped.status).toBe(200);
    expect(ObservationData.parse(stepped.body).metadata).toMatchObject({
      episode_id: id,
      step_count: 1,
      terminated: false,
    });
    const pending = await s.call("GET", episodePath(id, "/result"));
    expect(pending.body).toEqual({
      episode_id: id,
      done: false,
      reward: 0,
      components: { environment: 0 },
    });
    const stopped = await s.call("POST", episodePath(id, "/step"), {
      action: { ...STOP, metadata: { note: "giving up" } },
    });
    expect(stopped.body.done).toBe(true);
    expect(stopped.body.metadata.ended_by).toBe("terminated");
    expect(stopped.body.metadata.result.status).toBe("failure");
    const result = await s.call("GET", episodePath(id, "/result"));
    expect(result.body).toMatchObject({ done: true, reward: 0, components: { success: 0 } });
    expect(result.body.record).toMatchObject({ episodeId: id, agent: "curl", steps: 2 });
    expect(result.body.metrics).toEqual(result.body.record.metrics);

    // Stepping a finished episode is a conflict; deleting it answers its result.
    const late = await s.call("POST", episodePath(id, "/step"), { action: STOP });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe("CONFLICT");
    const deleted = await s.call("DELETE", episodePath(id));
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ...result.body, ended_by: "terminated" });
    expect((await s.call("GET", episodePath(id))).body).toEqual({
      episode_id: id,
      step_count: 2,
      done: true,
      suite: "robograph",
      task_id: TASK,
    });
    // What the hub keeps of a finished episode is its record and public state, not its session
    // (environment, world, trace): plain data, small whatever the episode's length.
    const kept = s.hub.kept(id);
    expect(Object.keys(kept ?? {}).sort()).toEqual(["record", "return", "state"]);
    expect(JSON.parse(JSON.stringify(kept))).toEqual(kept);
    expect(JSON.stringify(kept).length).toBeLessThan(4096);

    await s.close();
    const run = loadRun(join(s.outDir, "robograph"));
    expect(run.records.map((r) => r.episodeId)).toEqual([id]);
    expect(run.header).toMatchObject({ planned: 1, status: "finished", agent: { id: "client" } });
    const lines = readFileSync(join(s.outDir, "robograph", "episodes.jsonl"), "utf8");
    expect(lines.trim().split("\n")).toHaveLength(1);
  });

  it("plays a whole episode with the explorer agent exactly as a local run would", async () => {
    const s = await serve();
    const suite = await getSuite("robograph", { cache: true });
    const spec = suite.compile().find((t) => t.id === TASK)!;
    const { agent } = await createAgent("explorer", {}, suite);
    const { playEpisode } = await import("../run/index.ts");
    const local = await playEpisode(suite, spec, agent);

    const created = await s.call("POST", "/episodes", { task: TASK, agent: agent.id });
    const session = await remoteAgentSession(agent, created.body.card, created.body.episode_id);
    let observation = created.body.observation;
    let answer: { done: boolean; metadata: { result?: unknown } } | undefined;
    while (!answer?.done) {
      const decision = await session.act(observation);
      const { status, body } = await s.call("POST", episodePath(created.body.episode_id, "/step"), {
        action: { ...decision.action, metadata: { note: decision.note, extra: decision.extra } },
      });
      expect(status).toBe(200);
      answer = body;
      observation = body.observation;
    }
    const { body } = await s.call("GET", episodePath(created.body.episode_id, "/result"));
    const { wallMs: _a, ...served } = body.record;
    const { wallMs: _b, ...expected } = local.record;
    expect(served).toEqual(expected);
    expect(local.record.status).toBe("success");
    expect(body.reward).toBe(1);

    // The served run directory is a run: `longhaul report` and the viewer read it as they are.
    await s.close();
    const dir = join(s.outDir, "robograph");
    const report = await longhaul("report", dir, "--json");
    expect(report.code, report.stderr).toBe(0);
    expect(JSON.parse(report.stdout).run).toMatchObject({ recorded: 1, success: 1 });
    const catalog = new RunCatalog(findRunDirs([s.outDir]));
    expect(catalog.summaries()).toMatchObject([{ suite: "robograph", recorded: 1, success: 1 }]);
    expect(catalog.index(0)?.rows.map((r) => r.id)).toEqual([body.record.episodeId]);
    const episode = await catalog.episode(0, safeFileName(body.record.episodeId));
    expect(episode?.trace.record).toEqual(body.record);
    // The suite still hashes as the served run recorded it: the scene graph replays.
    expect(episode?.inspection).toBeDefined();
  });

  it("rejects bad requests with the path of what is wrong", async () => {
    const s = await serve({ maxBodyBytes: 2048 });
    const typed = await s.call("POST", "/episodes", { task: 5 });
    expect(typed).toMatchObject({ status: 400, body: { code: "VALIDATION_ERROR", path: "task" } });
    const extra = await s.call("POST", "/episodes", { task: TASK, colour: "red" });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toContain("colour");
    const json = await s.call("POST", "/episodes", "{not json");
    expect(json).toMatchObject({ status: 400, body: { code: "INVALID_JSON" } });
    const task = await s.call("POST", "/episodes", { task: "cosmetics-t03/i9" });
    expect(task).toMatchObject({ status: 404, body: { code: "NOT_FOUND", path: "task" } });
    expect(task.body.message).toContain('did you mean "cosmetics-t03/i');
    const suite = await s.call("POST", "/episodes", { suite: "robgraph", task: TASK });
    expect(suite.body.message).toContain('did you mean "robograph"');
    const subset = await s.call("POST", "/episodes", { subset: "nope" });
    expect(subset).toMatchObject({ status: 404, body: { path: "subset" } });
    const big = await s.call("POST", "/episodes", { task: TASK, agent: "x".repeat(4000) });
    expect(big).toMatchObject({ status: 413, body: { code: "PAYLOAD_TOO_LARGE" } });
    const unknown = await s.call("POST", episodePath("nope@0", "/step"), { action: STOP });
    expect(unknown).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
    const method = await s.call("PUT", "/episodes");
    expect(method).toMatchObject({ status: 405, body: { code: "METHOD_NOT_ALLOWED" } });
    const route = await s.call("GET", "/nowhere");
    expect(route.status).toBe(404);
    const created = await s.call("POST", "/episodes", { task: TASK });
    const action = await s.call("POST", episodePath(created.body.episode_id, "/step"), {
      action: "stop",
    });
    expect(action).toMatchObject({ status: 400, body: { path: "action" } });
    // A malformed action is the agent's format error: shown again with the reason, and counted.
    const malformed = await s.call("POST", episodePath(created.body.episode_id, "/step"), {
      action: { kind: "tool", calls: [] },
    });
    expect(malformed.status).toBe(200);
    expect(malformed.body.metadata.format_error).toMatch(/calls/);
    expect(malformed.body.observation.events.at(-1).type).toBe("format-error");
    const taken = await s.call("POST", "/episodes", {
      task: TASK,
      episode_id: created.body.episode_id,
    });
    expect(taken).toMatchObject({ status: 409, body: { code: "CONFLICT", path: "episode_id" } });
  });

  it("refuses episodes past the capacity (429) until one is closed", async () => {
    const s = await serve({ capacity: 2 });
    const a = await s.call("POST", "/episodes", { task: TASK });
    await s.call("POST", "/episodes", { task: TASK });
    const full = await s.call("POST", "/episodes", { task: TASK });
    expect(full).toMatchObject({ status: 429, body: { code: "CAPACITY_REACHED" } });
    expect(full.headers.get("retry-after")).toBe("1");
    const closed = await s.call("DELETE", episodePath(a.body.episode_id));
    expect(closed.body).toMatchObject({ done: true, ended_by: "abandoned" });
    expect(closed.body.record.status).toBe("failure");
    expect((await s.call("POST", "/episodes", { task: TASK })).status).toBe(201);
  });

  it("requires the bearer token everywhere but /health, and refuses foreign web origins", async () => {
    const s = await serve({ token: "s3cret" });
    expect((await s.call("GET", "/health")).body).toEqual({ status: "healthy" });
    const none = await s.call("GET", "/metadata");
    expect(none).toMatchObject({ status: 401, body: { code: "UNAUTHORIZED" } });
    expect(none.headers.get("www-authenticate")).toBe("Bearer");
    const wrong = await s.call("GET", "/metadata", undefined, { authorization: "Bearer nope" });
    expect(wrong.status).toBe(401);
    const auth = { authorization: "Bearer s3cret" };
    expect((await s.call("GET", "/metadata", undefined, auth)).status).toBe(200);
    const created = await s.call("POST", "/episodes", { task: TASK }, auth);
    expect(created.body.mcp.headers).toEqual({ Authorization: "Bearer s3cret" });
    const foreign = await s.call("GET", "/metadata", undefined, {
      ...auth,
      origin: "https://evil.example",
    });
    expect(foreign).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
    await expect(wsConnect(s.url)).rejects.toThrow(/401/);
    const ws = await wsConnect(s.url, auth);
    expect((await ws.ask({ type: "state" })).type).toBe("state");
    ws.close();
    await expect(startTestServer({ host: "0.0.0.0", outDir: s.outDir })).rejects.toThrow(/--token/);
  });

  it("keeps privileged data off the wire unless --allow-privileged", async () => {
    const s = await serve();
    // A scene where a node is hidden from the first view.
    const HIDING = "buffet-i01/base";
    const denied = await s.call("POST", "/episodes", { task: HIDING, access: "privileged" });
    expect(denied).toMatchObject({ status: 403, body: { code: "FORBIDDEN", path: "access" } });
    const plain = await s.call("POST", "/episodes", { task: HIDING });
    const latent = await s.call("GET", episodePath(plain.body.episode_id, "/latent"));
    expect(latent.status).toBe(403);
    // Nothing the suite hides appears in what a non-privileged client receives.
    const suite = await getSuite("robograph", { cache: true });
    const { EpisodeSession } = await import("../run/index.ts");
    const spec = suite.compile().find((t) => t.id === HIDING)!;
    const probe = await EpisodeSession.open({
      suite,
      spec,
      agent: "probe",
      access: { level: "privileged", privileged: true, grants: ["latent"] },
    });
    const hidden = suite.hidden!(probe.latent()!, spec);
    await probe.close();
    expect(hidden.length).toBeGreaterThan(0);
    const { leakedValues } = await import("../check/index.ts");
    expect(leakedValues(plain.body, hidden)).toEqual([]);
    await s.close();

    const open = await serve({ allowPrivileged: true, outDir: s.outDir });
    const granted = await open.call("POST", "/episodes", { task: TASK, access: "privileged" });
    expect(granted.status).toBe(201);
    expect(granted.body.privileged.spec.id).toBe(TASK);
    const state = await open.call("GET", episodePath(granted.body.episode_id, "/latent"));
    expect(state.status).toBe(200);
    expect(state.body.latent).toBeTruthy();
    await open.close();
    // Privileged episodes are recorded in their own run directory.
    expect(loadRun(join(s.outDir, "robograph-privileged")).header.access.privileged).toBe(true);
  });

  it("closes idle episodes after the TTL and records them as abandoned", async () => {
    const s = await serve({ ttlMs: 100 });
    const created = await s.call("POST", "/episodes", { task: TASK });
    const id = created.body.episode_id;
    let result = await s.call("GET", episodePath(id, "/result"));
    for (let i = 0; i < 100 && !result.body.done; i++) {
      await new Promise((r) => setTimeout(r, 50));
      result = await s.call("GET", episodePath(id, "/result"));
    }
    expect(result.body.record).toMatchObject({ endedBy: "abandoned", status: "failure" });
    expect((await s.call("POST", episodePath(id, "/step"), { action: STOP })).status).toBe(409);
    expect(s.hub.openCount).toBe(0);
  });

  it("records open episodes at shutdown and resumes numbering after a restart", async () => {
    const s = await serve();
    await s.call("POST", "/episodes", { task: TASK });
    await s.call("POST", "/episodes", { task: TASK });
    await s.close();
    const first = loadRun(join(s.outDir, "robograph"));
    // Open episodes are finished together at shutdown: records land in the order their writes end.
    const ended = first.records.map((r) => [r.episodeId, r.endedBy]).sort();
    expect(ended).toEqual([
      [`${TASK}@0`, "abandoned"],
      [`${TASK}@1`, "abandoned"],
    ]);
    expect(first.header.status).toBe("finished");

    const again = await serve({ outDir: s.outDir });
    const next = await again.call("POST", "/episodes", { task: TASK });
    expect(next.body.episode_id).toBe(`${TASK}@2`);
    const reused = await again.call("POST", "/episodes", { task: TASK, episode_id: `${TASK}@0` });
    expect(reused.status).toBe(409);
    await again.close();
    const second = loadRun(join(s.outDir, "robograph"));
    expect(second.header.runId).toBe(first.header.runId);
    expect(second.header.planned).toBe(3);
    await expect(startTestServer({ outDir: s.outDir, budgets: { maxSteps: 5 } })).rejects.toThrow(
      /budgets/,
    );
  });

  it("lists tasks as JSON and JSON Lines, without payloads", async () => {
    const s = await serve();
    const json = await s.call("GET", "/tasks?suite=robograph&subset=baseline");
    expect(json.body.count).toBe(84);
    expect(Object.keys(json.body.tasks[0]).sort()).toEqual(["family", "id", "suite", "tags"]);
    const lines = await s.call("GET", "/tasks?subset=baseline&format=jsonl");
    const rows = String(lines.body)
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows).toEqual(json.body.tasks);
    expect(lines.headers.get("content-type")).toBe("application/jsonl");
    expect((await s.call("GET", "/tasks?format=xml")).status).toBe(400);
  });

  it("answers OpenEnv's HTTP endpoints, keeping the episode alive by its id", async () => {
    const s = await serve();
    expect((await s.call("GET", "/health")).body).toEqual({ status: "healthy" });
    const metadata = await s.call("GET", "/metadata");
    expect(metadata.body).toMatchObject({ name: "longhaul", version: expect.any(String) });
    const schema = await s.call("GET", "/schema");
    expect(Object.keys(schema.body).sort()).toEqual(["action", "observation", "state"]);
    expect(schema.body.action.oneOf ?? schema.body.action.anyOf).toHaveLength(4);
    expect(schema.body.observation.properties).toHaveProperty("done");
    expect(schema.body.state.properties).toHaveProperty("step_count");

    const reset = await s.call("POST", "/reset", { task_id: TASK, seed: 7 });
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ reward: null, done: false });
    const id = reset.body.metadata.episode_id;
    expect(reset.body.metadata.card.id).toBe(TASK);
    const step = await s.call("POST", "/step", { episode_id: id, action: OBSERVE });
    expect(step.body).toMatchObject({ reward: 0, done: false, metadata: { step_count: 1 } });
    const state = await s.call("GET", `/state?episode_id=${encodeURIComponent(id)}`);
    expect(state.body).toMatchObject({ episode_id: id, step_count: 1, done: false });
    expect((await s.call("GET", "/state")).body.path).toBe("episode_id");
    const missing = await s.call("POST", "/step", { action: OBSERVE });
    expect(missing.body).toMatchObject({ code: "VALIDATION_ERROR", path: "episode_id" });
    // No task named: one is picked by the seed, the same one for the same seed.
    const a = await s.call("POST", "/reset", { seed: 11, subset: "baseline" });
    const b = await s.call("POST", "/reset", { seed: 11, subset: "baseline" });
    expect(a.body.metadata.card.id).toBe(b.body.metadata.card.id);
    expect(a.body.metadata.card.id).toMatch(/\/base$/);
  });
});
