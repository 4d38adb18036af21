import { describe, expect, it } from "vitest";
import { greedyAgent } from "../../test/fixtures/grid-agents.ts";
import { gridSuite } from "../../test/fixtures/grid-suite.ts";
import { playEpisode } from "./play.ts";

describe("playEpisode", () => {
  it("scores one episode as a run would, without a run directory", async () => {
    const suite = gridSuite(1);
    const spec = suite.compile()[0]!;
    const greedy = greedyAgent();
    const { record, trace } = await playEpisode(suite, spec, greedy, "s");
    expect(record).toMatchObject({ taskId: spec.id, status: "success", endedBy: "terminated" });
    expect(record.metrics.distanceLeft).toBe(0);
    expect(trace?.steps).toHaveLength(record.steps);
    const again = await playEpisode(suite, spec, greedy, "s");
    expect(again.record.steps).toBe(record.steps);
  });
});
