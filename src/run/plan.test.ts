import { describe, expect, it } from "vitest";
import { gridSuite } from "../../test/fixtures/grid-suite.ts";
import { planEpisodes } from "./plan.ts";

const suite = gridSuite();

describe("planEpisodes", () => {
  it("plans every task once per epoch, epoch-major, with readable ids", () => {
    const plan = planEpisodes(suite, { epochs: 2 });
    expect(plan).toHaveLength(18);
    expect(plan.slice(0, 2).map((p) => p.episodeId)).toEqual(["grid/s3/0@0", "grid/s3/1@0"]);
    expect(plan[9]?.episodeId).toBe("grid/s3/0@1");
    expect(plan[9]?.epoch).toBe(1);
    expect(new Set(plan.map((p) => p.episodeId)).size).toBe(18);
  });

  it("selects by subset, tag filters (numbers compare as typed), family, id, task ids and limit", () => {
    const ids = (opts: Parameters<typeof planEpisodes>[1]) =>
      planEpisodes(suite, opts).map((p) => p.spec.id);
    expect(ids({ epochs: 1, subset: "test" })).toEqual(["grid/s3/0", "grid/s5/0", "grid/s8/0"]);
    expect(ids({ epochs: 1, filters: { size: "5", split: "dev" } })).toEqual([
      "grid/s5/1",
      "grid/s5/2",
    ]);
    expect(ids({ epochs: 1, filters: { family: "s8" }, limit: 1 })).toEqual(["grid/s8/0"]);
    expect(ids({ epochs: 1, filters: { id: "grid/s3/2" } })).toEqual(["grid/s3/2"]);
    expect(ids({ epochs: 1, subset: "small", taskIds: ["grid/s3/1", "grid/s5/1"] })).toEqual([
      "grid/s3/1",
    ]);
  });

  it("rejects unknown subsets, filter keys, task ids and bad epochs as usage errors", () => {
    expect(() => planEpisodes(suite, { epochs: 1, subset: "nope" })).toThrow(
      /unknown subset "nope".*dev, test, small/,
    );
    expect(() => planEpisodes(suite, { epochs: 1, filters: { colour: "red" } })).toThrow(
      /unknown filter key "colour".*family, horizon, id, size, split/,
    );
    expect(() => planEpisodes(suite, { epochs: 1, taskIds: ["grid/s9/0"] })).toThrow(
      /unknown task id\(s\).*grid\/s9\/0/,
    );
    expect(() => planEpisodes(suite, { epochs: 0 })).toThrow(/epochs/);
    try {
      planEpisodes(suite, { epochs: 1, subset: "nope" });
    } catch (e) {
      expect((e as { code: string }).code).toBe("USAGE");
    }
  });
});
