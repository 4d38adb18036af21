/**
 * Figures 2, 3 and 4 of the paper as report figures, drawn from the aggregate tables that hold
 * their numbers (aggregate.ts), so a figure always shows what its table says: SR and GC by
 * horizon bucket with their intervals, the paired clean/variant outcomes per perturbation, and
 * the terminal outcome labels of failed episodes. The paper draws one bar or line per model; a
 * report is one run.
 */
import type { FigureChannel, ReportFigure, ReportTable } from "../../core/index.ts";

/** A rate axis read from `field`. */
const rate = (field: string, title: string): FigureChannel => ({
  field,
  title,
  type: "quantitative",
  format: "rate",
  domain: [0, 1],
});
const PANEL = ["retained", "lost", "gained", "unsolved"];

/** Figure 2 (SR and GC by bucket), 3 (paired panels) and 4 (terminal labels). */
export function magmaFigures(t: {
  buckets: ReportTable;
  paired: ReportTable;
  labels: ReportTable;
}): ReportFigure[] {
  const col = (table: ReportTable, name: string) => table.columns.indexOf(name);
  const b = t.buckets;
  const byBucket = (metric: "SR" | "GC") =>
    b.rows.map((row) => ({
      bucket: String(row[0]),
      metric,
      value: (row[col(b, metric)] as number | null) ?? null,
      low: (row[col(b, metric) + 1] as number | null) ?? null,
      high: (row[col(b, metric) + 2] as number | null) ?? null,
    }));
  const pairs = t.paired.rows.flatMap((row) => {
    const n = row[col(t.paired, "pairs")] as number;
    return PANEL.map((outcome) => ({
      perturbation: String(row[0]),
      outcome,
      share: n ? (row[col(t.paired, outcome)] as number) / n : null,
    }));
  });
  return [
    {
      id: "fig2-sr-gc-by-horizon",
      title: "Figure 2: SR and GC by nominal horizon bucket",
      caption:
        "Success rate (Wilson 95% interval) and goal completion (bootstrap 95% interval) per horizon bucket, over conditions and realizations.",
      mark: "line",
      data: [...byBucket("SR"), ...byBucket("GC")],
      encoding: {
        x: { field: "bucket", type: "ordinal", title: "horizon bucket" },
        y: rate("value", "rate"),
        color: { field: "metric", type: "nominal", title: "metric" },
      },
      interval: { low: "low", high: "high" },
    },
    {
      id: "fig3-paired-outcomes",
      title: "Figure 3: paired clean and perturbed outcomes",
      caption:
        "Per perturbation, the share of clean/variant pairs solved in both (retained), in the clean episode only (lost), in the variant only (gained), or in neither (unsolved).",
      mark: "bar",
      stack: true,
      data: pairs,
      encoding: {
        x: { field: "perturbation", type: "nominal", title: "perturbation" },
        y: rate("share", "fraction of pairs"),
        color: { field: "outcome", type: "nominal", title: "outcome", sort: PANEL },
      },
    },
    {
      id: "fig4-terminal-outcomes",
      title: "Figure 4: terminal outcome labels among failed episodes",
      caption: "Each label's share of the run's failed episodes.",
      mark: "bar",
      stack: true,
      data: t.labels.rows.map((row) => ({
        run: "this run",
        label: String(row[0]),
        share: (row[2] as number | null) ?? null,
      })),
      encoding: {
        x: { field: "run", type: "nominal", title: "" },
        y: rate("share", "fraction of failed episodes"),
        color: { field: "label", type: "nominal", title: "label" },
      },
    },
  ];
}
