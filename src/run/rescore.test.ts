import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { greedyAgent, noteTaker } from "../../test/fixtures/grid-agents.ts";
import { type GridPayload, gridSuite } from "../../test/fixtures/grid-suite.ts";
import { createAgent } from "../agents/index.ts";
import type { Agent, Suite } from "../core/index.ts";
import { loadRun, RUN_FILES, readCheckpoint, readTrace } from "../log/index.ts";
import { robographSuite } from "../suites/robograph/index.ts";
import { rescoreRun } from "./rescore.ts";
import { runSuite } from "./runner.ts";

const tmp = () => mkdtempSync(join(tmpdir(), "longhaul-rescore-"));
const text = (dir: string) => readFileSync(join(dir, RUN_FILES.episodes), "utf8");

/** Greedy everywhere except s8 tasks, where the agent throws at its third decision. */
const mixed: Agent = {
  id: "mixed",
  start(card, ctx) {
    if (!card.id.startsWith("grid/s8")) return greedyAgent().start(card, ctx);
    let n = 0;
    return {
      act: async () => {
        if (n++ >= 2) throw new Error("provider exploded");
        return { action: { kind: "wait" } };
      },
    };
  },
};

async function run<P>(suite: Suite<P>, agent: Agent, extra = {}): Promise<string> {
  const outDir = tmp();
  await runSuite({
    suite,
    agent,
    agentConfig: { name: agent.id },
    outDir,
    seed: "s",
    epochs: 1,
    concurrency: 2,
    ...extra,
  });
  return outDir;
}

describe("rescoreRun", () => {
  it("gives byte-identical records and equal traces when the scorer is unchanged", async () => {
    const suite = gridSuite();
    const dir = await run(suite, mixed);
    const out = join(tmp(), "rescored");
    const summary = await rescoreRun(suite, dir, out);
    expect(summary).toMatchObject({ episodes: 9, rescored: 6, kept: 3, changed: 0, changes: [] });
    expect(text(out)).toBe(text(dir));
    for (const r of loadRun(dir).records) {
      expect(readTrace(out, r.episodeId)).toEqual(readTrace(dir, r.episodeId));
    }
    expect(loadRun(out).header).toMatchObject({
      runId: loadRun(dir).header.runId,
      rescore: { from: dir, suiteVersion: "1.0.0" },
    });
    // Rescoring again into the same place is allowed; into the source or another run is not.
    await expect(rescoreRun(suite, dir, out)).resolves.toMatchObject({ changed: 0 });
    await expect(rescoreRun(suite, dir, dir)).rejects.toThrow(/never overwrites its source/);
    await expect(rescoreRun(suite, dir, await run(suite, greedyAgent()))).rejects.toThrow(
      /holds another run/,
    );
  });

  it("applies a changed scorer, lists what changed and leaves the source alone", async () => {
    const suite = gridSuite();
    const dir = await run(suite, greedyAgent());
    const before = text(dir);
    // A stricter scorer (and a new version): success needs an optimal walk.
    const strict: Suite<GridPayload> = {
      ...suite,
      version: "1.1.0",
      score(spec, outcome, trace) {
        const score = suite.score(spec, outcome, trace);
        const optimal = score.metrics.efficiency === 1;
        return optimal ? score : { ...score, success: false, category: "DETOUR" };
      },
    };
    const out = join(tmp(), "strict");
    const summary = await rescoreRun(strict, dir, out);
    const detours = loadRun(dir).records.filter(
      (r) => r.status === "success" && r.metrics.efficiency !== 1,
    );
    expect(detours.length).toBeGreaterThan(0);
    expect(summary.changes.map((c) => c.episodeId).sort()).toEqual(
      detours.map((r) => r.episodeId).sort(),
    );
    expect(summary.changes[0]).toMatchObject({
      before: { status: "success" },
      after: { status: "failure", category: "DETOUR" },
    });
    const rescored = loadRun(out).records.find((r) => r.episodeId === detours[0]?.episodeId);
    expect(rescored).toMatchObject({ status: "failure", category: "DETOUR" });
    expect(readTrace(out, detours[0]!.episodeId).score?.success).toBe(false);
    expect(text(dir)).toBe(before);
  });

  it("scores episodes whose scorer failed during the run once it is fixed", async () => {
    const suite = gridSuite();
    const broken: Suite<GridPayload> = {
      ...suite,
      score: () => {
        throw new Error("scorer bug");
      },
    };
    const dir = await run(broken, greedyAgent(), { limit: 2 });
    const logged = loadRun(dir).records;
    expect(logged.map((r) => [r.status, r.endedBy])).toEqual([
      ["invalid", "terminated"],
      ["invalid", "terminated"],
    ]);
    const summary = await rescoreRun(suite, dir, join(tmp(), "fixed"));
    expect(summary).toMatchObject({ rescored: 2, kept: 0, changed: 2 });
    expect(summary.changes.every((c) => c.after.status === "success")).toBe(true);
  });

  it("refuses a suite that no longer compiles the run's tasks", async () => {
    const dir = await run(gridSuite(), greedyAgent(), { limit: 1 });
    await expect(rescoreRun(gridSuite(2), dir, join(tmp(), "x"))).rejects.toThrow(
      /no longer compiles the run's tasks/,
    );
  });

  it("keeps a stream run's checkpoints in the rescored run", async () => {
    const suite = gridSuite(3, { streams: true });
    const dir = await run(suite, noteTaker());
    const out = join(tmp(), "streams");
    await rescoreRun(suite, dir, out);
    expect(text(out)).toBe(text(dir));
    expect(await readCheckpoint(out, "grid/s5@0", 2)).toEqual(
      await readCheckpoint(dir, "grid/s5@0", 2),
    );
  });

  it("gives identical records for a RoboGraph oracle run", async () => {
    // The example user family: its 7 conditions compile in a fraction of the built-in suite's time.
    const familyFile = fileURLToPath(
      new URL("../suites/robograph/examples/laundry.yaml", import.meta.url),
    );
    const { agent: oracle } = await createAgent("oracle", {}, robographSuite);
    const dir = await run(robographSuite, oracle, {
      compile: { familyFile },
    });
    const out = join(tmp(), "robograph");
    const summary = await rescoreRun(robographSuite, dir, out);
    expect(summary.episodes).toBeGreaterThanOrEqual(7);
    expect(summary).toMatchObject({ rescored: summary.episodes, changed: 0 });
    expect(text(out)).toBe(text(dir));
  });
});
