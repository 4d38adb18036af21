/**
 * The paper's Figures 2-6 and 8 as report figures, drawn from the aggregate tables that hold
 * their numbers (aggregate.ts), so a figure always shows what its table says. Each figure is
 * the paper's for one agent: the paper draws one line or bar per model, a report is one run.
 */
import {
  type FigureChannel,
  meltTable,
  type ReportFigure,
  type ReportTable,
} from "../../core/index.ts";

/** The aggregate tables the figures read, by what they hold. */
export interface FigureTables {
  /** horizon, documents, accuracy, exact, exact rate, low, high */
  horizon: ReportTable;
  /** task, one column per horizon, all */
  task: ReportTable;
  /** format, one column per horizon, all */
  format: ReportTable;
  /** difficulty, one column per horizon, all */
  difficulty: ReportTable;
  /** task, one column per difficulty at the largest horizon, all */
  taskByDifficulty: ReportTable;
  /** task, format, accuracy, d<easiest>, d<hardest>, relative decrease */
  sensitivity: ReportTable;
  /** format, one column per tenth of the output */
  positions: ReportTable;
  /** task, format, documents, accuracy, self-consistency */
  consistency: ReportTable;
}

const ACCURACY: FigureChannel = {
  field: "accuracy",
  type: "quantitative",
  title: "item accuracy",
  format: "rate",
  domain: [0, 1],
};

/** Each row's key and its cell in the largest horizon's column (the last before "all"). */
function atLargest(table: ReportTable, key: string): ReportFigure["data"] {
  const j = table.columns.length - 2;
  if (j < 1) return [];
  return table.rows.map((row) => ({ [key]: row[0] ?? null, accuracy: row[j] ?? null }));
}

/** Figures 2a, 2b, 3, 4, 5 (two panels), 6 and 8 (two panels) for one run's tables. */
export function transductionFigures(t: FigureTables): ReportFigure[] {
  const horizons = t.horizon.rows.map((row) => String(row[0]));
  const largest = horizons.at(-1) ?? "";
  const difficulties = t.taskByDifficulty.columns.slice(1, -1);
  const tenths = t.positions.columns.slice(1);
  const figures: ReportFigure[] = [
    {
      id: "fig2a-accuracy-by-context-length",
      title: "Figure 2a: accuracy by context length",
      caption:
        "Item accuracy (task-difficulty cells weighted equally) and exact document completion per nominal horizon.",
      mark: "line",
      data: meltTable(t.horizon, ["horizon"], ["accuracy", "exact rate"], {
        column: "measure",
        value: "value",
      }).map((row) => ({
        ...row,
        measure: row.measure === "exact rate" ? "exact completion" : "item accuracy",
      })),
      encoding: {
        x: { field: "horizon", type: "ordinal", title: "context length", sort: horizons },
        y: { ...ACCURACY, field: "value", title: "rate" },
        color: { field: "measure", type: "nominal", title: "measure" },
      },
    },
    {
      id: "fig2b-accuracy-by-task",
      title: `Figure 2b: accuracy by task at ${largest}`,
      caption: "Difficulties (and formats or variants) weighted equally.",
      mark: "bar",
      data: atLargest(t.task, "task"),
      encoding: { x: { field: "task", type: "nominal", title: "task" }, y: ACCURACY },
    },
    {
      id: "fig3-accuracy-by-format",
      title: `Figure 3: accuracy by input format at ${largest}`,
      caption: "Line tasks; task-difficulty cells weighted equally.",
      mark: "bar",
      data: atLargest(t.format, "format"),
      encoding: {
        x: {
          field: "format",
          type: "nominal",
          title: "format",
          sort: ["ordered", "shuffled", "unnumbered"],
        },
        y: ACCURACY,
      },
    },
    {
      id: "fig4-accuracy-by-difficulty",
      title: `Figure 4: accuracy by local difficulty at ${largest}`,
      caption: "Tasks weighted equally, formats averaged.",
      mark: "line",
      data: atLargest(t.difficulty, "difficulty"),
      encoding: { x: { field: "difficulty", type: "ordinal", title: "difficulty" }, y: ACCURACY },
    },
    {
      id: "fig5a-accuracy-by-output-position",
      title: "Figure 5a: accuracy through the output",
      caption:
        "Accuracy of the records in each tenth of the required output, per format (line tasks; the paper plots unnumbered), cells weighted equally.",
      mark: "line",
      data: meltTable(t.positions, ["format"], tenths, { column: "position", value: "accuracy" }),
      encoding: {
        x: { field: "position", type: "ordinal", title: "position in the output", sort: tenths },
        y: ACCURACY,
        color: { field: "format", type: "nominal", title: "format" },
      },
    },
    {
      id: "fig5b-self-consistency",
      title: "Figure 5b: accuracy and self-consistency",
      caption:
        "Arithmetic and UUID sorting over all formats: records right against records consistent with themselves whatever they contain.",
      mark: "bar",
      data: meltTable(
        { ...t.consistency, rows: t.consistency.rows.filter((row) => row[1] === "all") },
        ["task"],
        ["accuracy", "self-consistency"],
        { column: "measure", value: "value" },
      ),
      encoding: {
        x: { field: "task", type: "nominal", title: "task" },
        y: { ...ACCURACY, field: "value", title: "rate" },
        color: { field: "measure", type: "nominal", title: "measure" },
      },
    },
    {
      id: "fig6-local-difficulty-curves",
      title: `Figure 6: local-difficulty curves at ${largest}`,
      caption: "Accuracy by difficulty per task; formats (tables: variants) weighted equally.",
      mark: "line",
      data: meltTable(t.taskByDifficulty, ["task"], difficulties, {
        column: "difficulty",
        value: "accuracy",
      }),
      encoding: {
        x: { field: "difficulty", type: "ordinal", title: "difficulty", sort: difficulties },
        y: ACCURACY,
        color: { field: "task", type: "nominal", title: "task" },
      },
    },
  ];
  const decrease = t.sensitivity.columns[5] as string;
  const cells = t.sensitivity.rows.map((row) => ({
    task: row[0] ?? null,
    format: row[1] ?? null,
    accuracy: row[2] ?? null,
    decrease: row[5] ?? null,
  }));
  const grid = {
    x: { field: "format", type: "nominal", title: "format or variant" },
    y: { field: "task", type: "nominal", title: "task" },
  } satisfies Partial<ReportFigure["encoding"]>;
  figures.push(
    {
      id: "fig8a-accuracy-by-task-and-format",
      title: `Figure 8a: accuracy by task and format at ${largest}`,
      caption: "Absolute performance of every task and format (tables: variant).",
      mark: "heatmap",
      data: cells,
      encoding: { ...grid, color: ACCURACY, label: ACCURACY },
    },
    {
      id: "fig8b-difficulty-sensitivity",
      title: `Figure 8b: difficulty sensitivity at ${largest}`,
      caption: `${decrease} of accuracy from the easiest to the hardest difficulty, per task and format.`,
      mark: "heatmap",
      data: cells,
      encoding: {
        ...grid,
        color: { field: "decrease", type: "quantitative", title: decrease, format: "rate" },
        label: { field: "decrease", type: "quantitative", format: "rate" },
      },
    },
  );
  return figures;
}
