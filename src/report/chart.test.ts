import { describe, expect, it } from "vitest";
import type { ReportTable } from "../core/index.ts";
import { rateChart } from "./chart.ts";

const table: ReportTable = {
  title: "Success by <family>",
  columns: ["family", "valid", "success rate", "95% CI low", "95% CI high"],
  formats: ["text", "int", "rate", "rate", "high"],
  rows: [
    ["A & B", 10, 0.8, 0.4902, 0.9433],
    ["none valid", 0, null, null, null],
  ],
};

describe("rateChart", () => {
  const svg = rateChart(table) ?? "";

  it("draws one bar with a whisker per row that has a rate", () => {
    // 170 px of labels, 320 px for 0..100%: 80% is 256 px wide, the whisker runs 326.9..471.9
    expect(svg.match(/<rect /g)).toHaveLength(1);
    expect(svg).toContain('<rect x="170" y="4" width="256" height="12"');
    expect(svg).toContain('d="M326.9 10H471.9');
    expect(svg).toContain(">80.0%</text>");
  });

  it("labels every row, escaped", () => {
    expect(svg).toContain(">A &amp; B</text>");
    expect(svg).toContain(">none valid</text>");
    expect(svg).toContain('aria-label="Success by &lt;family&gt;: success rate with interval"');
    expect(svg).not.toContain("<family>");
  });

  it("skips tables without a rate interval or with too many rows", () => {
    expect(
      rateChart({ ...table, formats: ["text", "int", "rate", "rate", "rate"] }),
    ).toBeUndefined();
    expect(rateChart({ ...table, formats: undefined })).toBeUndefined();
    expect(rateChart({ ...table, rows: Array(41).fill(table.rows[0]) })).toBeUndefined();
  });
});
