/** OpenEnv's simulation protocol over the WebSocket: messages, answers, errors, lifetimes. */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { collectGarbage } from "../../test/support/gc.ts";
import { startTestServer, type TestServer, wsConnect } from "../../test/support/serve.ts";
import { heldJson } from "../core/index.ts";
import { loadRun } from "../log/index.ts";
import { decisionOf } from "./episodes.ts";
import { WsOutgoing } from "./wire.ts";

const TASK = "cosmetics-t03/i5";
const OBSERVE = { kind: "tool", calls: [{ tool: "observe", args: {} }] };

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Wait until `check` holds (the server records asynchronously after a socket closes). */
async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(check()).toBe(true);
}

describe("the OpenEnv WebSocket", () => {
  it("answers with the bytes JSON.stringify gives, the trace's observation bytes spliced in", async () => {
    server = await startTestServer();
    const { hub } = server;
    const episode = await hub.open({ taskId: TASK });
    const same = (outcome?: Awaited<ReturnType<typeof hub.step>>) => {
      const data = hub.observationData(episode, outcome);
      expect(hub.observationJson(episode, outcome).toString()).toBe(JSON.stringify(data));
      expect(hub.observationJson(episode, outcome, true).toString()).toBe(
        JSON.stringify({ type: "observation", data }),
      );
    };
    same();
    // A step, an unusable reply (the observation shown again with a format-error event), the end.
    same(await hub.step(episode, decisionOf(OBSERVE)));
    same(await hub.step(episode, decisionOf({ kind: "tool", calls: "not a list" })));
    const STOP = { kind: "tool", calls: [{ tool: "stop", args: {} }] };
    const last = await hub.step(episode, decisionOf(STOP));
    same(last);
    expect(episode.session.ended?.endedBy).toBe("terminated");
    // The hub keeps the finished episode's record as bytes until someone reads it.
    const kept = hub.kept(episode.id);
    expect(kept && heldJson(kept, "record")).toBeInstanceOf(Uint8Array);
    expect(kept?.record).toEqual(last.finished?.record);
    expect(kept?.state).toMatchObject({ episode_id: episode.id, done: true, step_count: 3 });
  });

  it("answers reset, step, state and close in OpenEnv's shapes", async () => {
    server = await startTestServer();
    const ws = await wsConnect(server.url);
    const empty = await ws.ask({ type: "state" });
    expect(empty).toEqual({
      type: "state",
      data: { episode_id: null, step_count: 0, done: false },
    });
    const reset = WsOutgoing.parse(
      await ws.ask({ type: "reset", data: { task_id: TASK, seed: 3 } }),
    );
    expect(reset.type).toBe("observation");
    if (reset.type !== "observation") return;
    expect(reset.data.reward).toBeNull();
    expect(reset.data.done).toBe(false);
    expect(reset.data.metadata.card?.id).toBe(TASK);
    const id = reset.data.metadata.episode_id;
    const step = WsOutgoing.parse(await ws.ask({ type: "step", data: OBSERVE }));
    expect(step).toMatchObject({ type: "observation", data: { reward: 0, done: false } });
    const state = WsOutgoing.parse(await ws.ask({ type: "state" }));
    expect(state).toEqual({
      type: "state",
      data: { episode_id: id, step_count: 1, done: false, suite: "robograph", task_id: TASK },
    });
    const stop = await ws.ask({
      type: "step",
      data: { kind: "tool", calls: [{ tool: "stop", args: {} }] },
    });
    expect(WsOutgoing.parse(stop)).toMatchObject({
      data: { done: true, metadata: { ended_by: "terminated" } },
    });
    expect(stop.data.metadata.result.status).toBe("failure");
    const after = await ws.ask({ type: "step", data: OBSERVE });
    expect(after).toMatchObject({ type: "error", data: { code: "CONFLICT" } });
    ws.send({ type: "close" });
    expect(await ws.closed).toBe(1000);
    await server.close();
    const { records } = loadRun(join(server.outDir, "robograph"));
    expect(records.map((r) => [r.episodeId, r.endedBy, r.steps])).toEqual([[id, "terminated", 2]]);
  });

  it("lets a finished episode's session go while its socket stays open", async () => {
    server = await startTestServer();
    const ws = await wsConnect(server.url);
    const reset = await ws.ask({ type: "reset", data: { task_id: TASK } });
    const id = reset.data.metadata.episode_id;
    const session = new WeakRef(server.hub.get(id).session);
    const stop = await ws.ask({
      type: "step",
      data: { kind: "tool", calls: [{ tool: "stop", args: {} }] },
    });
    expect(stop.data.done).toBe(true);
    await eventually(() => {
      collectGarbage();
      return session.deref() === undefined;
    });
    // The socket still answers for the episode from its final public state.
    expect(await ws.ask({ type: "state" })).toEqual({
      type: "state",
      data: { episode_id: id, step_count: 1, done: true, suite: "robograph", task_id: TASK },
    });
    expect(await ws.ask({ type: "step", data: OBSERVE })).toMatchObject({
      type: "error",
      data: { code: "CONFLICT", message: expect.stringContaining(id) },
    });
  });

  it("reports protocol errors with OpenEnv's codes and keeps the socket open", async () => {
    server = await startTestServer();
    const ws = await wsConnect(server.url);
    const cases: [unknown, string, string?][] = [
      ["{oops", "INVALID_JSON"],
      [[1, 2], "VALIDATION_ERROR"],
      [{ type: "jump" }, "UNKNOWN_TYPE", "type"],
      [{ type: "state", extra: 1 }, "VALIDATION_ERROR", "extra"],
      [{ type: "step", data: OBSERVE }, "SESSION_ERROR"],
      [{ type: "reset", data: { task_id: 7 } }, "VALIDATION_ERROR", "data.task_id"],
      [{ type: "reset", data: { task_id: "nope" } }, "NOT_FOUND", "task"],
      [{ type: "reset", data: { access: "privileged" } }, "FORBIDDEN", "access"],
    ];
    for (const [message, code, path] of cases) {
      const answer = WsOutgoing.parse(await ws.ask(message));
      expect(answer, JSON.stringify(message)).toMatchObject({
        type: "error",
        data: { code, ...(path ? { path } : {}) },
      });
    }
    await ws.ask({ type: "reset", data: { task_id: TASK } });
    const missing = await ws.ask({ type: "step" });
    expect(missing.data).toMatchObject({ code: "VALIDATION_ERROR", path: "data" });
    // A malformed action is a format error of the agent, answered with an observation.
    const malformed = await ws.ask({ type: "step", data: { kind: "tool" } });
    expect(malformed.type).toBe("observation");
    expect(malformed.data.metadata.format_error).toMatch(/calls/);
    ws.close();
  });

  it("abandons the socket's episode when it disconnects or resets", async () => {
    server = await startTestServer();
    const ws = await wsConnect(server.url);
    const first = await ws.ask({ type: "reset", data: { task_id: TASK } });
    const second = await ws.ask({ type: "reset", data: { task_id: TASK } });
    expect(second.data.metadata.episode_id).not.toBe(first.data.metadata.episode_id);
    const firstResult = await server.call(
      "GET",
      `/episodes/${encodeURIComponent(first.data.metadata.episode_id)}/result`,
    );
    expect(firstResult.body.record.endedBy).toBe("abandoned");
    ws.close();
    await eventually(() => server?.hub.openCount === 0);
    const result = await server.call(
      "GET",
      `/episodes/${encodeURIComponent(second.data.metadata.episode_id)}/result`,
    );
    expect(result.body).toMatchObject({ done: true, record: { endedBy: "abandoned" } });
  });

  it("enforces the capacity and the frame size limit", async () => {
    server = await startTestServer({ capacity: 1, maxBodyBytes: 1024 });
    const a = await wsConnect(server.url);
    const b = await wsConnect(server.url);
    expect((await a.ask({ type: "reset", data: { task_id: TASK } })).type).toBe("observation");
    const full = await b.ask({ type: "reset", data: { task_id: TASK } });
    expect(full).toMatchObject({ type: "error", data: { code: "CAPACITY_REACHED" } });
    // A third socket is over the capacity of sockets too: told so, then closed.
    const c = await wsConnect(server.url);
    expect((await c.next()).data.code).toBe("CAPACITY_REACHED");
    expect(await c.closed).toBe(1013);
    a.send({ type: "step", data: { kind: "say", text: "x".repeat(2000) } });
    expect(await a.closed).toBe(1009);
    b.close();
  });

  it("picks tasks round-robin when none is named, and by the seed when one is given", async () => {
    server = await startTestServer();
    const ws = await wsConnect(server.url);
    const picked: string[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await ws.ask({ type: "reset", data: { subset: "baseline" } });
      picked.push(answer.data.metadata.card.id);
    }
    const rows = (await server.call("GET", "/tasks?subset=baseline")).body.tasks;
    expect(picked).toEqual(rows.slice(0, 3).map((r: { id: string }) => r.id));
    const seeded = await ws.ask({ type: "reset", data: { subset: "baseline", seed: "abc" } });
    const again = await ws.ask({ type: "reset", data: { subset: "baseline", seed: "abc" } });
    expect(seeded.data.metadata.card.id).toBe(again.data.metadata.card.id);
    ws.close();
  });
});
