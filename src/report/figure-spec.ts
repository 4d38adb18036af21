/**
 * A report figure (data + encodings, src/core/report-model.ts) as a vega-lite specification.
 * Pure: no vega import, so the spec can be tested and the viewer can show it as JSON.
 */
import type { FigureChannel, ReportFigure } from "../core/index.ts";

/** The vega-lite JSON a figure compiles from (a TopLevelSpec; kept as plain JSON here). */
export type VegaLiteSpec = Record<string, unknown>;

/** Panel size in pixels; band scales (categories on x) size themselves by step instead. */
const WIDTH = 360;
const PANEL_WIDTH = 220;
const HEIGHT = 220;
/** Band width per category of a bar chart, and heatmap cell size. */
const STEP = 28;
const CELL_WIDTH = 64;
const CELL_HEIGHT = 30;
const FONT = "DejaVu Sans, Liberation Sans, Helvetica, Arial, sans-serif";

/** Field names are read literally: vega-lite treats "." and "[" as nested access. */
function fieldName(field: string): string {
  return field.replace(/([.[\]\\])/g, "\\$1");
}

/** A d3 number format for a cell format, applied to axes, legends and labels. */
function numberFormat(format: FigureChannel["format"]): string | undefined {
  switch (format) {
    case "rate":
      return ".0%";
    case "int":
      return ",d";
    case "usd":
      return "$,.2f";
    default:
      return undefined;
  }
}

type Role = "axis" | "legend" | "header" | "none";

/** One channel as a vega-lite field definition. */
function channel(c: FigureChannel, role: Role): Record<string, unknown> {
  const def: Record<string, unknown> = {
    field: fieldName(c.field),
    type: c.type,
    title: c.title ?? c.field,
  };
  const format = numberFormat(c.format);
  if (format && role !== "none" && role !== "header") def[role] = { format };
  if (c.domain) def.scale = { domain: c.domain };
  // Vega-lite colours categories by their position in the scale's domain, which is otherwise the
  // categories present: a legend's listed categories keep their colours whichever are missing.
  else if (role === "legend" && c.type !== "quantitative" && c.sort) def.scale = { domain: c.sort };
  def.sort = c.sort ?? null;
  return def;
}

/** The label format of a heatmap cell's text. */
function labelChannel(c: FigureChannel): Record<string, unknown> {
  const format = numberFormat(c.format);
  return {
    field: fieldName(c.field),
    type: c.type,
    ...(format ? { format } : {}),
  };
}

/**
 * The axis that carries the values: y, unless only x is quantitative (horizontal bars). The
 * other axis holds the categories (or a second quantity, for points and lines).
 */
function valueAxis(figure: ReportFigure): "x" | "y" {
  const { x, y } = figure.encoding;
  return y.type !== "quantitative" && x.type === "quantitative" ? "x" : "y";
}

/** The category axis of a bar, point or heatmap chart: sized by step rather than by length. */
function bandAxis(figure: ReportFigure): "x" | "y" | undefined {
  if (figure.mark === "line") return undefined;
  const other = valueAxis(figure) === "y" ? "x" : "y";
  return figure.encoding[other].type === "quantitative" ? undefined : other;
}

/** The layers of one panel: the mark, then whiskers or cell labels. */
function layers(figure: ReportFigure): Record<string, unknown>[] {
  const { x, y, color, label } = figure.encoding;
  const value = valueAxis(figure);
  const band = bandAxis(figure);
  const grouped = figure.mark === "bar" && color !== undefined && !figure.stack;
  const base: Record<string, unknown> = { x: channel(x, "axis"), y: channel(y, "axis") };
  const offset = band === "y" ? "yOffset" : "xOffset";
  if (grouped && color && band) base[offset] = channel(color, "none");
  if (figure.mark === "heatmap") {
    const cells: Record<string, unknown> = {
      mark: { type: "rect" },
      encoding: {
        ...base,
        ...(color ? { color: { ...channel(color, "legend"), scale: colorScale(color) } } : {}),
      },
    };
    if (!label) return [cells];
    // Text turns white on the darker part of the color scale.
    const domain = color?.domain;
    const dark = domain && {
      condition: {
        test: `datum[${JSON.stringify(color.field)}] > ${domain[0] + 0.6 * (domain[1] - domain[0])}`,
        value: "white",
      },
      value: "black",
    };
    return [
      cells,
      {
        mark: { type: "text", fontSize: 11 },
        transform: [{ filter: `isValid(datum[${JSON.stringify(label.field)}])` }],
        encoding: {
          x: base.x,
          y: base.y,
          text: labelChannel(label),
          ...(dark ? { color: dark } : {}),
        },
      },
    ];
  }
  const mark =
    figure.mark === "line"
      ? { type: "line", point: true }
      : figure.mark === "point"
        ? { type: "point", filled: true, size: 60 }
        : { type: "bar" };
  const main: Record<string, unknown> = {
    mark,
    encoding: { ...base, ...(color ? { color: channel(color, "legend") } : {}) },
  };
  if (!figure.interval) return [main];
  const values = value === "y" ? y : x;
  const other = value === "y" ? "x" : "y";
  const whiskers: Record<string, unknown> = {
    mark: { type: "rule", color: "#1d1d1f" },
    encoding: {
      [other]: base[other],
      ...(base[offset] ? { [offset]: base[offset] } : {}),
      [value]: {
        ...channel({ ...values, field: figure.interval.low }, "axis"),
        title: values.title ?? values.field,
      },
      [`${value}2`]: { field: fieldName(figure.interval.high) },
    },
  };
  return [main, whiskers];
}

/** Heatmap colors: a sequential scheme over the channel's domain. */
function colorScale(c: FigureChannel): Record<string, unknown> {
  return { scheme: "blues", ...(c.domain ? { domain: c.domain } : {}) };
}

/**
 * The vega-lite specification of a figure: its data inline, one layered panel (the mark plus
 * interval whiskers or heatmap labels), faceted into columns when the figure has a column
 * channel. The title stays outside the chart (HTML and file names carry it).
 */
export function figureSpec(figure: ReportFigure): VegaLiteSpec {
  const band = bandAxis(figure);
  const heatmap = figure.mark === "heatmap";
  const panel: Record<string, unknown> = {
    width: heatmap
      ? { step: CELL_WIDTH }
      : band === "x"
        ? { step: STEP }
        : figure.encoding.column
          ? PANEL_WIDTH
          : WIDTH,
    height: heatmap ? { step: CELL_HEIGHT } : band === "y" ? { step: STEP } : HEIGHT,
    layer: layers(figure),
  };
  const top: VegaLiteSpec = {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    description: figure.title,
    data: { values: figure.data },
    config: {
      font: FONT,
      view: { stroke: "#ddd" },
      // Category labels under a band axis slant; a line's few ordered points read level.
      axisX: { labelAngle: band === "x" || heatmap ? -35 : 0 },
      axisXBand: { labelAlign: "right" },
    },
    background: "white",
    padding: 8,
  };
  const column = figure.encoding.column;
  if (!column) return { ...top, ...panel };
  return {
    ...top,
    facet: { column: channel(column, "header") },
    spec: panel,
    resolve: { scale: { x: "independent" } },
  };
}
