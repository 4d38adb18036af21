/** Inline SVG bar charts of rates with their intervals, for the HTML report. */
import type { ReportTable } from "../core/index.ts";
import { formatValue } from "./format.ts";
import { escapeHtml } from "./html-escape.ts";

/** Tables with more rows than this stay tables only: a chart would not be readable. */
const MAX_BARS = 40;
const LABEL_WIDTH = 170;
const BAR_WIDTH = 320;
const VALUE_WIDTH = 60;
const ROW_HEIGHT = 20;
const AXIS_HEIGHT = 22;
const MAX_LABEL = 26;

/**
 * A horizontal bar per row for the first rate column followed by an interval (a "rate" low
 * column and a "high" column), with the interval drawn as a whisker; undefined when the
 * table has no such column or too many rows. Bars run from 0 to 100%.
 */
export function rateChart(table: ReportTable): string | undefined {
  const formats = table.formats ?? [];
  const j = formats.findIndex(
    (f, i) => f === "rate" && formats[i + 1] === "rate" && formats[i + 2] === "high",
  );
  if (j < 0 || table.rows.length === 0 || table.rows.length > MAX_BARS) return undefined;
  const x = (rate: number) => round(LABEL_WIDTH + Math.min(1, Math.max(0, rate)) * BAR_WIDTH);
  const width = LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH;
  const height = table.rows.length * ROW_HEIGHT + AXIS_HEIGHT;
  const parts: string[] = [];
  table.rows.forEach((row, k) => {
    const top = k * ROW_HEIGHT;
    const middle = top + ROW_HEIGHT / 2;
    const label = formatValue(row[0] ?? null, formats[0]);
    const shown = label.length > MAX_LABEL ? `${label.slice(0, MAX_LABEL - 1)}…` : label;
    parts.push(
      `<text x="${LABEL_WIDTH - 6}" y="${middle + 4}" text-anchor="end">${escapeHtml(shown)}</text>`,
    );
    const [value, low, high] = [row[j], row[j + 1], row[j + 2]];
    if (typeof value !== "number" || !Number.isFinite(value)) return;
    parts.push(
      `<rect x="${LABEL_WIDTH}" y="${top + 4}" width="${round(x(value) - LABEL_WIDTH)}" height="${ROW_HEIGHT - 8}" fill="#7aa6d6"/>`,
    );
    if (typeof low === "number" && typeof high === "number") {
      parts.push(
        `<path d="M${x(low)} ${middle}H${x(high)}M${x(low)} ${middle - 4}v8M${x(high)} ${middle - 4}v8" stroke="#1d1d1f" fill="none"/>`,
      );
    }
    parts.push(
      `<text x="${LABEL_WIDTH + BAR_WIDTH + 6}" y="${middle + 4}">${escapeHtml(formatValue(value, "rate"))}</text>`,
    );
  });
  const axis = table.rows.length * ROW_HEIGHT + 2;
  parts.push(`<path d="M${LABEL_WIDTH} ${axis}H${LABEL_WIDTH + BAR_WIDTH}" stroke="#888"/>`);
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(
      `<path d="M${x(tick)} ${axis}v4" stroke="#888"/>`,
      `<text x="${x(tick)}" y="${axis + 16}" text-anchor="middle" fill="#555">${tick * 100}%</text>`,
    );
  }
  const name = `${table.title}: ${table.columns[j] ?? "rate"} with interval`;
  return [
    `<svg class="chart" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(name)}" font-size="12">`,
    ...parts,
    "</svg>",
  ].join("\n");
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
