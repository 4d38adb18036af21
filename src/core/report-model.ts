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

/** One encoding channel of a figure: the data field it reads and how to read it. */
export interface FigureChannel {
  field: string;
  /** Numbers on a continuous scale, ordered categories, or unordered categories. */
  type: "quantitative" | "ordinal" | "nominal";
  /** Axis or legend title; the field name when left out. */
  title?: string;
  /** Display format of numbers: "rate" shows 0-1 values as percentages. */
  format?: CellFormat;
  /** Fixed extent of a quantitative scale, e.g. [0, 1] for rates. */
  domain?: [number, number];
  /**
   * Order of the categories of an ordinal or nominal channel (data order when left out); on a
   * color channel also their colours, the same in every figure that lists them, present or not.
   */
  sort?: (string | number)[];
}

/**
 * A chart of a report, declared as data rows and encodings (docs/figures.md); the report layer
 * draws it with vega-lite. `bar`: bars (stacked or grouped by color); `line`: a line with points
 * per color series; `point`: dots; `heatmap`: a colored cell per x/y pair, color = value.
 */
export interface ReportFigure {
  /** Unique within a report, kebab-case: the file name `report --figures` writes. */
  id: string;
  title: string;
  caption?: string;
  mark: "bar" | "line" | "point" | "heatmap";
  data: Record<string, string | number | null>[];
  encoding: {
    x: FigureChannel;
    y: FigureChannel;
    /** Series (line, point), stacked or grouped parts (bar), the cell value (heatmap). */
    color?: FigureChannel;
    /** Small multiples side by side, one panel per value. */
    column?: FigureChannel;
    /** Text in each heatmap cell. */
    label?: FigureChannel;
  };
  /** y whiskers: the fields holding each row's interval bounds. */
  interval?: { low: string; high: string };
  /** Bars with a color channel stack (parts of a whole) instead of standing side by side. */
  stack?: boolean;
}

/** A suite's aggregate view of a set of episode records. */
export interface ReportModel {
  suite: string;
  title: string;
  episodes: number;
  headlines: Headline[];
  tables: ReportTable[];
  /** The paper's figures over these records, drawn in report.html and the viewer. */
  figures?: ReportFigure[];
  notes?: string[];
}

/** A figure's data row. */
export type FigureRow = ReportFigure["data"][number];

/**
 * A wide table as figure rows, one per table row and column of `columns` ("melted"): the
 * row's `keys` columns kept, the column's name under `names.column` and its cell under
 * `names.value`. E.g. columns 4K, 8K of a task row -> {task, horizon: "4K", accuracy}.
 */
export function meltTable(
  table: ReportTable,
  keys: readonly string[],
  columns: readonly string[],
  names: { column: string; value: string },
): FigureRow[] {
  const index = (name: string) => {
    const i = table.columns.indexOf(name);
    if (i < 0) throw new Error(`table "${table.title}" has no column "${name}"`);
    return i;
  };
  const keyAt = keys.map(index);
  const valueAt = columns.map(index);
  return table.rows.flatMap((row) =>
    valueAt.map((j, c) => ({
      ...Object.fromEntries(keys.map((k, i) => [k, row[keyAt[i] as number] ?? null])),
      [names.column]: columns[c] as string,
      [names.value]: row[j] ?? null,
    })),
  );
}
