import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { greedyAgent } from "../../../test/fixtures/grid-agents.ts";
import { gridSuite } from "../../../test/fixtures/grid-suite.ts";
import { readTrace, tracePath } from "../../log/index.ts";
import { runSuite } from "../../run/index.ts";
import { createReplayAgent, traceActions } from "./index.ts";

const tmp = () => mkdtempSync(join(tmpdir(), "longhaul-replay-"));

describe("replay agent", () => {
  it("replays a whole run episode by episode, reproducing every outcome", async () => {
    const source = tmp();
    const original = await runSuite({
      suite: gridSuite(),
      agent: greedyAgent(),
      agentConfig: {},
      outDir: source,
      seed: "s",
      epochs: 1,
      concurrency: 2,
    });
    const replayDir = tmp();
    const replayed = await runSuite({
      suite: gridSuite(),
      agent: createReplayAgent({ trace: source }),
      agentConfig: { trace: source },
      outDir: replayDir,
      seed: "other",
      epochs: 1,
      concurrency: 2,
    });
    const essentials = (rs: typeof original.records) =>
      rs.map((r) => [r.episodeId, r.status, r.steps, r.metrics.moves]);
    expect(essentials(replayed.records)).toEqual(essentials(original.records));
    const id = "grid/s8/1@0";
    expect(traceActions(readTrace(replayDir, id))).toEqual(traceActions(readTrace(source, id)));
  });

  it("replays one trace file, skipping unusable outputs, then finishes", async () => {
    const dir = tmp();
    await runSuite({
      suite: gridSuite(),
      agent: greedyAgent(),
      agentConfig: {},
      outDir: dir,
      seed: "s",
      epochs: 1,
      concurrency: 1,
      limit: 1,
    });
    const id = "grid/s3/0@0";
    const actions = traceActions(readTrace(dir, id));
    const agent = createReplayAgent({ trace: tracePath(dir, id) });
    const session = await agent.start(readTrace(dir, id).card, {} as never);
    const obs = { step: 0, events: [], view: null };
    for (const action of actions) expect((await session.act(obs)).action).toEqual(action);
    expect((await session.act(obs)).action).toEqual({ kind: "finish" });
    const byEpisode = await createReplayAgent({ trace: dir, episode: id }).start(
      readTrace(dir, id).card,
      {} as never,
    );
    expect((await byEpisode.act(obs)).action).toEqual(actions[0]);
  });

  it("rejects missing traces and bad options up front", () => {
    expect(() => createReplayAgent({})).toThrow(/invalid replay agent options: trace/);
    expect(() => createReplayAgent({ trace: "/no/such/file.json.gz" })).toThrow(/no such trace/);
    const dir = tmp();
    expect(() => createReplayAgent({ trace: dir, episode: "x@0" })).toThrow(/cannot read trace/);
  });
});
