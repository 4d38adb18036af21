/** Figures derived from report tables: a bar per row for a rate with its interval. */
import type { ReportFigure, ReportTable } from "../core/index.ts";
import { formatValue } from "./format.ts";

/** Tables with more rows than this stay tables only: a chart would not be readable. */
const MAX_BARS = 40;

/** A figure id from a title: lowercase words joined by dashes. */
export function figureId(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "figure"
  );
}

/**
 * A horizontal bar per row for the first rate column followed by an interval (a "rate" low column and a
 * "high" column), with whiskers from low to high; undefined when the table has no such column,
 * no rows or too many. Rates run from 0 to 100%.
 */
export function rateFigure(table: ReportTable): ReportFigure | undefined {
  const formats = table.formats ?? [];
  const j = formats.findIndex(
    (f, i) => f === "rate" && formats[i + 1] === "rate" && formats[i + 2] === "high",
  );
  if (j < 0 || table.rows.length === 0 || table.rows.length > MAX_BARS) return undefined;
  const key = table.columns[0] ?? "group";
  const rate = table.columns[j] ?? "rate";
  return {
    id: figureId(table.title),
    title: table.title,
    caption: `${rate} per ${key} with its interval (${table.columns[j + 1]} to ${table.columns[j + 2]}).`,
    mark: "bar",
    data: table.rows.map((row) => ({
      group: formatValue(row[0] ?? null, formats[0]),
      rate: row[j] ?? null,
      low: row[j + 1] ?? null,
      high: row[j + 2] ?? null,
    })),
    encoding: {
      x: { field: "rate", type: "quantitative", title: rate, format: "rate", domain: [0, 1] },
      y: { field: "group", type: "nominal", title: key },
    },
    interval: { low: "low", high: "high" },
  };
}
