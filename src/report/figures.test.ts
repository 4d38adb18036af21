import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { meltTable, type ReportFigure, type ReportTable } from "../core/index.ts";
import { figureId, rateFigure } from "./chart.ts";
import { figureSpec } from "./figure-spec.ts";
import { figureSvg, hasValues, svgToPng, writeFigureFiles } from "./figures.ts";

const table: ReportTable = {
  title: "Success by <family>",
  columns: ["family", "valid", "success rate", "95% CI low", "95% CI high"],
  formats: ["text", "int", "rate", "rate", "high"],
  rows: [
    ["A & B", 10, 0.8, 0.4902, 0.9433],
    ["none valid", 0, null, null, null],
  ],
};

/** Layers of a spec (the top level, or a faceted spec's inner one). */
type Layered = {
  layer: { mark: { type: string }; encoding: Record<string, Record<string, unknown>> }[];
};
const layersOf = (spec: Record<string, unknown>) => ((spec.spec ?? spec) as Layered).layer;

describe("rateFigure", () => {
  const figure = rateFigure(table)!;

  it("takes the first rate column with its interval, one row per table row", () => {
    expect(figure.id).toBe("success-by-family");
    expect(figure.data).toEqual([
      { group: "A & B", rate: 0.8, low: 0.4902, high: 0.9433 },
      { group: "none valid", rate: null, low: null, high: null },
    ]);
    expect(figure.encoding.x).toMatchObject({ field: "rate", format: "rate", domain: [0, 1] });
    expect(figure.encoding.y).toMatchObject({ field: "group", type: "nominal", title: "family" });
    expect(figure.interval).toEqual({ low: "low", high: "high" });
  });

  it("skips tables without a rate interval or with too many rows", () => {
    expect(
      rateFigure({ ...table, formats: ["text", "int", "rate", "rate", "rate"] }),
    ).toBeUndefined();
    expect(rateFigure({ ...table, formats: undefined })).toBeUndefined();
    expect(rateFigure({ ...table, rows: Array(41).fill(table.rows[0]) })).toBeUndefined();
    expect(figureId("Figure 2a: accuracy (%) by K")).toBe("figure-2a-accuracy-by-k");
  });
});

describe("figureSpec", () => {
  it("draws horizontal bars with whiskers from low to high", () => {
    const spec = figureSpec(rateFigure(table)!);
    expect(spec.data).toEqual({ values: rateFigure(table)!.data });
    const [bars, whiskers] = layersOf(spec);
    expect(bars?.mark.type).toBe("bar");
    expect(bars?.encoding.x).toMatchObject({
      field: "rate",
      type: "quantitative",
      axis: { format: ".0%" },
      scale: { domain: [0, 1] },
    });
    expect(whiskers?.mark.type).toBe("rule");
    expect(whiskers?.encoding.x).toMatchObject({ field: "low" });
    expect(whiskers?.encoding.x2).toEqual({ field: "high" });
    expect(spec.height).toEqual({ step: 28 });
  });

  const grouped: ReportFigure = {
    id: "g",
    title: "grouped",
    mark: "bar",
    data: [{ task: "a", measure: "m", "v.x": 1 }],
    encoding: {
      x: { field: "task", type: "nominal" },
      y: { field: "v.x", type: "quantitative" },
      color: { field: "measure", type: "nominal", sort: ["m", "n"] },
      column: { field: "task", type: "nominal", title: "panel" },
    },
  };

  it("groups bars by color side by side, or stacks them; facets by column", () => {
    const spec = figureSpec(grouped);
    expect(spec.facet).toEqual({
      column: { field: "task", type: "nominal", title: "panel", sort: null },
    });
    const [bars] = layersOf(spec);
    expect(bars?.encoding.xOffset).toMatchObject({ field: "measure" });
    expect(bars?.encoding.color).toMatchObject({ field: "measure", sort: ["m", "n"] });
    // A dot in a field name is a literal dot, not nested access.
    expect(bars?.encoding.y?.field).toBe("v\\.x");
    const stacked = layersOf(figureSpec({ ...grouped, stack: true }))[0];
    expect(stacked?.encoding.xOffset).toBeUndefined();
  });

  it("labels heatmap cells and colors them on the value's domain", () => {
    const spec = figureSpec({
      id: "h",
      title: "heat",
      mark: "heatmap",
      data: [{ x: "a", y: "b", v: 0.5 }],
      encoding: {
        x: { field: "x", type: "nominal" },
        y: { field: "y", type: "nominal" },
        color: { field: "v", type: "quantitative", format: "rate", domain: [0, 1] },
        label: { field: "v", type: "quantitative", format: "rate" },
      },
    });
    const [cells, text] = layersOf(spec);
    expect(cells?.mark.type).toBe("rect");
    expect(cells?.encoding.color).toMatchObject({
      field: "v",
      scale: { scheme: "blues", domain: [0, 1] },
    });
    expect(text?.encoding.text).toEqual({ field: "v", type: "quantitative", format: ".0%" });
    expect(text?.encoding.color).toMatchObject({
      condition: { test: 'datum["v"] > 0.6', value: "white" },
    });
  });
});

describe("drawing", () => {
  it("renders one bar per row with a number", async () => {
    const figure = rateFigure({ ...table, rows: [...table.rows, ["c", 5, 0.2, 0.05, 0.6]] })!;
    const svg = await figureSvg(figure);
    expect(svg.startsWith("<svg")).toBe(true);
    // vega draws a bar mark as one path per datum inside the mark group.
    const bars = /<g class="mark-rect role-mark[^"]*"[^>]*>(.*?)<\/g>/.exec(svg)?.[1] ?? "";
    expect(bars.match(/<path /g)).toHaveLength(2);
    expect(svg).toContain(">A &amp; B</text>");
  });

  it("keeps a listed category's colour when the categories before it are missing", async () => {
    const fillOf = async (data: ReportFigure["data"], measure: string) => {
      const svg = await figureSvg({
        id: "c",
        title: "colours",
        mark: "bar",
        data,
        encoding: {
          x: { field: "task", type: "nominal" },
          y: { field: "v", type: "quantitative" },
          color: { field: "measure", type: "nominal", sort: ["m", "n"] },
        },
      });
      const bars = /<g class="mark-rect role-mark[^"]*"[^>]*>(.*?)<\/g>/.exec(svg)?.[1] ?? "";
      const fills = [...bars.matchAll(/fill="(#[0-9a-f]{6})"/g)].map((m) => m[1]);
      return fills[data.findIndex((row) => row.measure === measure)];
    };
    const both = await fillOf(
      [
        { task: "a", measure: "m", v: 1 },
        { task: "a", measure: "n", v: 2 },
      ],
      "n",
    );
    const onlyN = await fillOf([{ task: "a", measure: "n", v: 2 }], "n");
    const onlyM = await fillOf([{ task: "a", measure: "m", v: 1 }], "m");
    expect(both).toMatch(/^#/);
    expect(onlyN).toBe(both);
    expect(onlyM).not.toBe(both);
  });

  it("prefixes element ids with the figure id, so figures share a page", async () => {
    const svg = await figureSvg({
      id: "heat",
      title: "heat",
      mark: "heatmap",
      data: [{ x: "a", y: "b", v: 0.5 }],
      encoding: {
        x: { field: "x", type: "nominal" },
        y: { field: "y", type: "nominal" },
        color: { field: "v", type: "quantitative", domain: [0, 1] },
      },
    });
    // The color legend's gradient is an element with an id, referenced by url(#id).
    const ids = svg.match(/\bid="[^"]+"/g) ?? [];
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id).toMatch(/^id="heat-/);
    for (const ref of svg.match(/url\(#[^)]+\)/g) ?? []) expect(ref).toMatch(/^url\(#heat-/);
  });

  it("writes SVG and PNG files", async () => {
    const dir = mkdtempSync(join(tmpdir(), "longhaul-figures-"));
    const svg = await figureSvg(rateFigure(table)!);
    const paths = await writeFigureFiles(dir, [{ id: "f", title: "t", section: "s", svg }]);
    expect(paths).toEqual([join(dir, "f.svg"), join(dir, "f.png")]);
    expect(readFileSync(paths[0]!, "utf8")).toBe(svg);
    const png = readFileSync(paths[1]!);
    expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join("")).toBe("PNG");
    // Twice the SVG's width: PNGs are drawn at scale 2.
    const width = Number(/width="(\d+)"/.exec(svg)?.[1]);
    expect(png.readUInt32BE(16)).toBe(2 * width);
    expect((await svgToPng(svg, 1)).length).toBeLessThan(png.length);
  });
});

describe("hasValues", () => {
  it("leaves out figures without a number to draw", () => {
    const figure = rateFigure(table)!;
    expect(hasValues(figure)).toBe(true);
    expect(
      hasValues({ ...figure, data: [{ group: "a", rate: null, low: null, high: null }] }),
    ).toBe(false);
  });
});

describe("meltTable", () => {
  it("turns columns into rows, keeping the key columns", () => {
    const wide: ReportTable = {
      title: "w",
      columns: ["task", "4K", "8K", "all"],
      rows: [["a", 0.5, 0.25, 0.4]],
    };
    expect(
      meltTable(wide, ["task"], ["4K", "8K"], { column: "horizon", value: "accuracy" }),
    ).toEqual([
      { task: "a", horizon: "4K", accuracy: 0.5 },
      { task: "a", horizon: "8K", accuracy: 0.25 },
    ]);
    expect(() => meltTable(wide, ["nope"], [], { column: "c", value: "v" })).toThrow(
      /no column "nope"/,
    );
  });
});
