import { describe, expect, it } from "vitest";
import type { EpisodeRecord } from "../core/index.ts";
import { compareRuns } from "./compare.ts";
import type { RunData } from "./generic.ts";
import { renderCompare } from "./render-compare.ts";
import { makeRecord } from "./test-records.ts";

function runOf(runId: string, agent: string, records: EpisodeRecord[]): RunData {
  return { runId, suite: "toy", agent, records };
}

const a = runOf("run-a", "old", [
  makeRecord("t1", { status: "success", steps: 10, metrics: { score: 1 } }),
  makeRecord("t2", { status: "success", steps: 20, metrics: { other: 1 } }),
  makeRecord("t3", { status: "failure", steps: 30 }),
  makeRecord("t4", { status: "failure", steps: 40 }),
  makeRecord("t5", { status: "invalid", category: "ERR", steps: 1 }),
  makeRecord("t6", { status: "success" }),
]);

const b = runOf("run-b", "new", [
  makeRecord("t1", { status: "success", steps: 12, metrics: { score: 0.5 } }),
  makeRecord("t2", { status: "failure", steps: 18 }),
  makeRecord("t3", { status: "success", steps: 35 }),
  makeRecord("t4", { status: "failure", steps: 40 }),
  makeRecord("t5", { status: "success", steps: 3 }),
  makeRecord("t7", { status: "failure" }),
]);

describe("compareRuns", () => {
  const model = compareRuns(a, b, { resamples: 2000 });
  const metric = (name: string) => model.metrics.find((m) => m.metric === name);

  it("pairs episodes, leaving out pairs with an invalid side and listing unpaired ones", () => {
    expect(model.paired).toBe(5);
    expect(model.excluded).toBe(1);
    expect(model.onlyA).toEqual(["t6@0"]);
    expect(model.onlyB).toEqual(["t7@0"]);
  });

  it("tabulates retained, lost, gained and unsolved", () => {
    expect(model.outcomes).toEqual({ retained: 1, lost: 1, gained: 1, unsolved: 1, pairs: 4 });
    expect(model.mcnemarP).toBe(1);
  });

  it("gives paired means and differences with intervals around them", () => {
    expect(metric("success")).toMatchObject({ pairs: 4, a: 0.5, b: 0.5, difference: 0 });
    const steps = metric("steps");
    // steps 10,20,30,40 -> 12,18,35,40: differences +2, -2, +5, 0
    expect(steps).toMatchObject({ pairs: 4, a: 25, b: 26.25, difference: 1.25 });
    expect(steps?.low).toBeGreaterThanOrEqual(-2);
    expect(steps?.low).toBeLessThanOrEqual(1.25);
    expect(steps?.high).toBeGreaterThanOrEqual(1.25);
    expect(steps?.high).toBeLessThanOrEqual(5);
  });

  it("compares scorer metrics only where both runs report them", () => {
    expect(metric("metric: score")).toMatchObject({
      pairs: 1,
      a: 1,
      b: 0.5,
      difference: -0.5,
      low: -0.5,
      high: -0.5,
    });
    expect(metric("metric: other")).toBeUndefined();
    expect(metric("sim time")).toBeUndefined();
  });

  it("pairs on task and epoch, not on the run-local episode id", () => {
    const renamed = runOf(
      "run-c",
      "new",
      b.records.map((r) => ({ ...r, episodeId: `new/${r.episodeId}` })),
    );
    const other = compareRuns(a, renamed, { resamples: 2000 });
    expect(other.outcomes).toEqual(model.outcomes);
    expect(other.onlyB).toEqual(["new/t7@0"]);
  });

  it("is deterministic for a seed", () => {
    expect(compareRuns(a, b, { resamples: 2000 })).toEqual(model);
    expect(compareRuns(a, b, { resamples: 2000, seed: "other" }).seed).toBe("other");
  });
});

describe("renderCompare", () => {
  const model = compareRuns(a, b, { resamples: 2000 });

  it("prints aligned text with outcomes, differences and unpaired episodes", () => {
    const text = renderCompare(model, "text");
    expect(text).toContain("paired episodes: 5 (1 left out as invalid or missing in either run)");
    expect(text).toMatch(/retained +solved → solved +1 +25\.0%/);
    expect(text).toMatch(/steps +4 +25 +26\.25 +\+1\.25 +\[/);
    expect(text).toMatch(/success +4 +50\.0% +50\.0% +0\.0 pp/);
    expect(text).toContain("lost vs gained: exact McNemar p = 1.000");
    expect(text).toContain("only in A: t6@0");
    expect(text).toContain("only in B: t7@0");
  });

  it("prints Markdown tables", () => {
    const md = renderCompare(model, "markdown");
    expect(md).toContain("| outcome | A → B | episodes | share |");
    expect(md).toContain("| retained | solved → solved | 1 | 25.0% |");
    expect(md).toContain("| metric | pairs | A | B | B - A | 95% CI |");
  });
});
