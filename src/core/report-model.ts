/** The suite-neutral report model that `longhaul report` renders to Markdown, HTML and JSON. */

/** A cell of a report table. */
export type Cell = string | number | null;

/**
 * How renderers show a number: "rate" as a percentage, "int" with digit groups, "usd" as
 * dollars, "ms" as a duration, "number" plainly. "high" marks the upper bound of an interval
 * whose lower bound is the previous column: renderers merge the two into one "[low, high]"
 * cell in the previous column's format, while the JSON model keeps both numbers. "link" is a
 * path relative to the report (e.g. an episode's trace), linked where the format allows.
 */
export type CellFormat = "text" | "int" | "number" | "rate" | "usd" | "ms" | "high" | "link";

/** One table: a caption, column names and rows. */
export interface ReportTable {
  title: string;
  caption?: string;
  columns: string[];
  rows: Cell[][];
  /** Per-column display format; a renderer shows numbers plainly where it is left out. */
  formats?: CellFormat[];
}

/** A headline number with an optional 95% interval. */
export interface Headline {
  name: string;
  value: number | null;
  low?: number;
  high?: number;
  note?: string;
  /** Display format of value, low and high; plain numbers when left out. */
  format?: CellFormat;
  /** Shown instead of a null value, e.g. "unknown" for a cost without prices (else "–"). */
  absent?: string;
}

/** A suite's aggregate view of a set of episode records. */
export interface ReportModel {
  suite: string;
  title: string;
  episodes: number;
  headlines: Headline[];
  tables: ReportTable[];
  notes?: string[];
}
