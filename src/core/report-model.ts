/** The suite-neutral report model that `longhaul report` renders to Markdown, HTML and JSON. */

/** A cell of a report table. */
export type Cell = string | number | null;

/** One table: a caption, column names and rows. */
export interface ReportTable {
  title: string;
  caption?: string;
  columns: string[];
  rows: Cell[][];
}

/** A headline number with an optional 95% interval. */
export interface Headline {
  name: string;
  value: number | null;
  low?: number;
  high?: number;
  note?: string;
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
