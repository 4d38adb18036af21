import { describe, expect, it } from "vitest";
import { type EpisodeRecord, emptyUsage } from "../../core/index.ts";
import { aggregateRecords, deltaSr, meanMetric, pooledRecovery } from "./aggregate.ts";

function record(
  scene: string,
  condition: string,
  metrics: Record<string, number | null>,
  domain = "tabletop",
): EpisodeRecord {
  return {
    episodeId: `${scene}/${condition}`,
    taskId: `${scene}/${condition}`,
    suite: "robograph",
    family: scene.split("-")[0] ?? scene,
    tags: { scene, condition, domain },
    epoch: 0,
    agent: "a",
    status: metrics.sr === 100 ? "success" : "failure",
    endedBy: "finished",
    steps: 10,
    invalidActions: 0,
    formatErrors: 0,
    wallMs: 0,
    usage: emptyUsage(),
    metrics,
  };
}

const records = [
  record("desk-t01", "base", {
    sr: 100,
    ssal: 0.5,
    rd_tp: 2,
    rd_fp: 0,
    rd_fn: 2,
    rg_correct: 1,
    rg_total: 2,
  }),
  record("desk-t01", "i5", {
    sr: 0,
    irr: 0,
    triggered: 1,
    rd_tp: 1,
    rd_fp: 1,
    rd_fn: 0,
    rg_correct: 1,
    rg_total: 1,
  }),
  record("desk-t02", "base", { sr: 0, ssal: 0 }),
  record("desk-t02", "i5", { sr: 100, irr: 100, triggered: 1, latency: 4 }),
  record("desk-t03", "i5", { sr: 100, irr: null, triggered: 0 }), // no paired baseline
];

describe("aggregate (golden)", () => {
  it("pairs interventions with their baseline for delta-SR", () => {
    // pairs: t01 (0 - 100), t02 (100 - 0) -> mean 0; t03 has no baseline.
    expect(deltaSr(records, "i5")).toBe(0);
    expect(deltaSr(records.slice(0, 2), "i5")).toBe(-100);
    expect(deltaSr(records, "i3")).toBeNull();
  });

  it("skips undefined metrics in means and pools recovery counts", () => {
    expect(meanMetric(records, "irr")).toBe(50);
    expect(meanMetric(records, "ssal")).toBe(0.25);
    // tp 3, fp 1, fn 2 -> F1 = 6 / 9; grounding 2 of 3.
    const pooled = pooledRecovery(records);
    expect(pooled.f1).toBeCloseTo(200 / 3, 10);
    expect(pooled.acc).toBeCloseTo(200 / 3, 10);
  });

  it("lays out Table 1 and Table 2", () => {
    const report = aggregateRecords(records);
    const t1 = report.tables[0]!;
    const row = t1.rows[0]!;
    expect(row.slice(0, 3)).toEqual(["a", "tabletop", 5]);
    expect(row[t1.columns.indexOf("SR")]).toBe(60);
    expect(row[t1.columns.indexOf("SSAL")]).toBe(0.25);
    const t2 = report.tables[1]!;
    expect(t2.rows).toEqual([["a", "I5", "tabletop", "2/3", 0, 50, 4]]);
  });
});
