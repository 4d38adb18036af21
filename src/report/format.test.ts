import { describe, expect, it } from "vitest";
import { formatDifference, formatHeadline, formatValue, tableView } from "./format.ts";

describe("formatValue", () => {
  it("formats by column kind", () => {
    expect(formatValue(0.8, "rate")).toBe("80.0%");
    expect(formatValue(0.12345, "rate")).toBe("12.3%");
    expect(formatValue(1234567, "int")).toBe("1,234,567");
    expect(formatValue(0.0123, "usd")).toBe("$0.0123");
    expect(formatValue(12.5, "usd")).toBe("$12.50");
    expect(formatValue(812.4, "ms")).toBe("812 ms");
    expect(formatValue(2500, "ms")).toBe("2.50 s");
    expect(formatValue("kitchen", "rate")).toBe("kitchen");
  });

  it("shows plain numbers compactly and absent values as a dash", () => {
    expect(formatValue(42)).toBe("42");
    expect(formatValue(12345.678)).toBe("12,345.7");
    expect(formatValue(3.14667)).toBe("3.15");
    expect(formatValue(0.41666)).toBe("0.417");
    expect(formatValue(null)).toBe("–");
    expect(formatValue(Number.NaN, "rate")).toBe("–");
  });

  it("signs differences, rates in percentage points", () => {
    expect(formatDifference(0.05, "rate")).toBe("+5.0 pp");
    expect(formatDifference(-1.25)).toBe("-1.25");
    expect(formatDifference(0)).toBe("0");
  });
});

describe("formatHeadline", () => {
  it("appends the interval when there is one", () => {
    expect(
      formatHeadline({ name: "SR", value: 0.8, low: 0.4902, high: 0.9433, format: "rate" }),
    ).toBe("80.0% [49.0%, 94.3%]");
    expect(formatHeadline({ name: "n", value: 3 })).toBe("3");
    expect(formatHeadline({ name: "SR", value: null, low: 0, high: 1 })).toBe("–");
  });
});

describe("tableView", () => {
  it("merges low/high column pairs into one interval column", () => {
    const view = tableView({
      title: "t",
      columns: ["family", "rate", "95% CI low", "95% CI high"],
      formats: ["text", "rate", "rate", "high"],
      rows: [
        ["A", 0.8, 0.4902, 0.9433],
        ["B", null, null, null],
      ],
    });
    expect(view.header).toEqual(["family", "rate", "95% CI"]);
    expect(view.rows).toEqual([
      ["A", "80.0%", "[49.0%, 94.3%]"],
      ["B", "–", "–"],
    ]);
    expect(view.numeric).toEqual([false, true, true]);
    const bare = tableView({
      title: "t",
      columns: ["low", "high"],
      formats: ["rate", "high"],
      rows: [[0.1, 0.2]],
    });
    expect(bare.header).toEqual(["interval"]);
    expect(bare.rows).toEqual([["[10.0%, 20.0%]"]]);
  });

  it("renders tables without formats plainly", () => {
    const view = tableView({ title: "t", columns: ["x", "y"], rows: [["a", 0.5]] });
    expect(view).toEqual({
      header: ["x", "y"],
      rows: [["a", "0.5"]],
      numeric: [false, true],
      link: [false, false],
    });
  });
});
