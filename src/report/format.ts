/** Display formatting shared by the Markdown, HTML and text renderers. */
import type { Cell, CellFormat, Headline, ReportTable } from "../core/index.ts";
import type { RunInfo } from "./build.ts";

/** Shown for null, NaN and infinite values. */
export const EMPTY = "–";

/**
 * One cell as text: rates as percentages with one decimal, ints with digit groups, dollars,
 * durations in ms or s; unformatted numbers keep integers and show three significant digits
 * below 1 (two decimals up to 100, one above).
 */
export function formatValue(value: Cell, format: CellFormat = "number"): string {
  if (value === null) return EMPTY;
  if (typeof value === "string") return value;
  if (!Number.isFinite(value)) return EMPTY;
  switch (format) {
    case "rate":
      return `${(value * 100).toFixed(1)}%`;
    case "int":
      return groupDigits(Math.round(value).toString());
    case "usd":
      return `$${value.toFixed(Math.abs(value) < 1 ? 4 : 2)}`;
    case "ms":
      return Math.abs(value) >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(0)} ms`;
    default:
      return plainNumber(value);
  }
}

/** A signed difference: rates in percentage points, other numbers with their sign. */
export function formatDifference(value: number, format: CellFormat = "number"): string {
  if (!Number.isFinite(value)) return EMPTY;
  const sign = value > 0 ? "+" : value < 0 ? "-" : "";
  const size = Math.abs(value);
  if (format === "rate") return `${sign}${(size * 100).toFixed(1)} pp`;
  return `${sign}${formatValue(size, format)}`;
}

/** "[low, high]" in a format; EMPTY when either bound is absent. */
export function formatInterval(low: Cell, high: Cell, format?: CellFormat): string {
  if (typeof low !== "number" || typeof high !== "number") return EMPTY;
  return `[${formatValue(low, format)}, ${formatValue(high, format)}]`;
}

/** A headline's value, followed by its interval when it has one. */
export function formatHeadline(h: Headline): string {
  if (h.value === null && h.absent !== undefined) return h.absent;
  const value = formatValue(h.value, h.format);
  if (h.value === null || h.low === undefined || h.high === undefined) return value;
  return `${value} ${formatInterval(h.low, h.high, h.format)}`;
}

/** "llm:openai:m (model openai:m at 127.0.0.1:8000)": who played, naming the model. */
export function agentText(run: RunInfo): string {
  if (run.model === undefined) return run.agent;
  const at = run.endpoint !== undefined ? ` at ${run.endpoint}` : "";
  const memory =
    run.memory === undefined
      ? ""
      : `, memory ${run.memory}${run.memory.startsWith("oracle-state") ? ": privileged, the suite's revealed goals" : ""}`;
  return `${run.agent} (model ${run.model}${at}${memory})`;
}

/** "10 recorded of 12 planned, run interrupted": how complete a run's records are. */
export function recordedText(run: RunInfo): string {
  const planned = run.planned === null ? "" : ` of ${run.planned} planned`;
  return `${run.recorded} recorded${planned}${run.status ? `, run ${run.status}` : ""}`;
}

/** A table ready to print: header and cells as text, and which columns hold numbers. */
export interface TableView {
  header: string[];
  rows: string[][];
  numeric: boolean[];
  /** Columns whose cells are paths to link to ("link" format). */
  link?: boolean[];
}

/**
 * Formats every cell and merges each "high" column into the column before it as
 * "[low, high]"; the merged header drops a trailing "low" ("95% CI low" -> "95% CI", and a
 * bare "low" becomes "interval").
 */
export function tableView(table: ReportTable): TableView {
  const formats = table.formats ?? [];
  const keep: number[] = [];
  table.columns.forEach((_, i) => {
    if (formats[i] !== "high") keep.push(i);
  });
  const merged = (i: number) => formats[i + 1] === "high";
  return {
    header: keep.map((i) => {
      const name = table.columns[i] ?? "";
      return merged(i) ? name.replace(/\s*low$/i, "") || "interval" : name;
    }),
    rows: table.rows.map((row) =>
      keep.map((i) =>
        merged(i)
          ? formatInterval(row[i] ?? null, row[i + 1] ?? null, formats[i])
          : formatValue(row[i] ?? null, formats[i]),
      ),
    ),
    numeric: keep.map((i) =>
      formats[i] === undefined
        ? table.rows.some((row) => typeof row[i] === "number")
        : formats[i] !== "text" && formats[i] !== "link",
    ),
    link: keep.map((i) => formats[i] === "link"),
  };
}

function plainNumber(value: number): string {
  if (Number.isInteger(value)) return groupDigits(value.toString());
  const size = Math.abs(value);
  if (size >= 100) return groupDigits(value.toFixed(1));
  if (size >= 1) return value.toFixed(2);
  return Number(value.toPrecision(3)).toString();
}

/** 1234567.5 -> "1,234,567.5" without locale data, so output is the same everywhere. */
function groupDigits(text: string): string {
  const [whole = "", fraction] = text.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
