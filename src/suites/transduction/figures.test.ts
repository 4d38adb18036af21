import { describe, expect, it } from "vitest";
import type { ReportFigure } from "../../core/index.ts";
import { makeRecord } from "../../report/test-records.ts";
import { aggregateTransduction } from "./aggregate.ts";

/** A scored document: task, layout (format or table variant), difficulty, horizon, accuracy. */
function doc(task: string, layout: string, d: number, h: number, accuracy: number, extra = {}) {
  const layoutTag: Record<string, string> =
    task === "table" ? { variant: layout } : { format: layout };
  return makeRecord(`${task}/${layout}/d${d}/${h}k/s1`, {
    suite: "transduction",
    status: accuracy === 1 ? "success" : "failure",
    tags: { task, ...layoutTag, difficulty: d, horizonK: h },
    metrics: { accuracy, exact: accuracy === 1 ? 1 : 0, ...extra },
  });
}

// At 4K: arith ordered d1 1.0, arith unnumbered d2 0.5, table kv d1 0.8.
// At 8K: arith ordered d1 0.6, arith unnumbered d2 0.2, table kv d2 0.4.
const records = [
  doc("arith", "ordered", 1, 4, 1, { pos1: 1, pos10: 1, selfConsistency: 1 }),
  doc("arith", "unnumbered", 2, 4, 0.5, { pos1: 1, pos10: 0, selfConsistency: 0.75 }),
  doc("table", "kv", 1, 4, 0.8),
  doc("arith", "ordered", 1, 8, 0.6, { pos1: 0.8, pos10: 0.4, selfConsistency: 0.9 }),
  doc("arith", "unnumbered", 2, 8, 0.2, { pos1: 0.4, pos10: 0, selfConsistency: 0.5 }),
  doc("table", "kv", 2, 8, 0.4),
];
const figures = aggregateTransduction(records).figures ?? [];
const figure = (id: string) => figures.find((f) => f.id.startsWith(id)) as ReportFigure;

describe("transduction figures", () => {
  it("draws Figures 2a, 2b, 3, 4, 5a, 5b, 6, 8a and 8b", () => {
    expect(figures.map((f) => f.id.split("-")[0])).toEqual([
      "fig2a",
      "fig2b",
      "fig3",
      "fig4",
      "fig5a",
      "fig5b",
      "fig6",
      "fig8a",
      "fig8b",
    ]);
  });

  it("Figure 2a: cell-balanced accuracy and exact completion per horizon", () => {
    // Cells at 4K: arith|1 = 1, arith|2 = 0.5, table|1 = 0.8 -> (1 + 0.5 + 0.8) / 3.
    expect(figure("fig2a").data).toEqual([
      { horizon: "4K", measure: "item accuracy", value: (1 + 0.5 + 0.8) / 3 },
      { horizon: "4K", measure: "exact completion", value: 1 / 3 },
      { horizon: "8K", measure: "item accuracy", value: (0.6 + 0.2 + 0.4) / 3 },
      { horizon: "8K", measure: "exact completion", value: 0 },
    ]);
    expect(figure("fig2a").encoding.x.sort).toEqual(["4K", "8K"]);
  });

  it("Figures 2b, 3 and 4 read the largest horizon", () => {
    expect(figure("fig2b").title).toContain("8K");
    expect(figure("fig2b").data).toEqual([
      { task: "arith", accuracy: (0.6 + 0.2) / 2 },
      { task: "table", accuracy: 0.4 },
    ]);
    expect(figure("fig3").data).toEqual([
      { format: "ordered", accuracy: 0.6 },
      { format: "unnumbered", accuracy: 0.2 },
    ]);
    expect(figure("fig4").data).toEqual([
      { difficulty: "1", accuracy: 0.6 },
      { difficulty: "2", accuracy: (0.2 + 0.4) / 2 },
    ]);
  });

  it("Figure 5: accuracy by output position per format, and self-consistency per task", () => {
    const first = figure("fig5a").data.filter((r) => r.position === "10%");
    expect(first).toEqual([
      { format: "ordered", position: "10%", accuracy: (1 + 0.8) / 2 },
      { format: "unnumbered", position: "10%", accuracy: (1 + 0.4) / 2 },
    ]);
    expect(figure("fig5b").data).toEqual([
      { task: "arith", measure: "accuracy", value: (1 + 0.5 + 0.6 + 0.2) / 4 },
      { task: "arith", measure: "self-consistency", value: (1 + 0.75 + 0.9 + 0.5) / 4 },
    ]);
  });

  it("Figures 6 and 8: difficulty curves and the task x format cells at the largest horizon", () => {
    expect(figure("fig6").data).toEqual([
      { task: "arith", difficulty: "d1", accuracy: 0.6 },
      { task: "arith", difficulty: "d2", accuracy: 0.2 },
      { task: "table", difficulty: "d1", accuracy: null },
      { task: "table", difficulty: "d2", accuracy: 0.4 },
    ]);
    const cell = figure("fig8a").data.find((r) => r.format === "ordered");
    expect(cell).toEqual({ task: "arith", format: "ordered", accuracy: 0.6, decrease: null });
    expect(figure("fig8a").mark).toBe("heatmap");
    expect(figure("fig8b").encoding.color?.field).toBe("decrease");
  });
});
