/**
 * Embodied Playground's per-suite Pass@k (§6.1, Table 6) as a report figure: for each EP subset
 * a panel, in it one pair of bars per suite (Tower, Launch, ...), Pass@1 beside Pass@2. Drawn
 * from the "Suites by subset" table, whose columns are `suite` then `<subset> P@1`,
 * `<subset> P@2` per subset, so figure and table always agree. The playground's aggregate()
 * adds it: `figures: [passAtKBySuite(suiteTable)]`.
 */
import type { ReportFigure, ReportTable } from "../../core/index.ts";

const PASS = /^(.*) P@(\d+)$/;

/** The per-suite Pass@k figure of a "Suites by subset" table. */
export function passAtKBySuite(table: ReportTable): ReportFigure {
  const subsets: string[] = [];
  const data: ReportFigure["data"] = [];
  for (const row of table.rows) {
    table.columns.forEach((column, j) => {
      const m = PASS.exec(column);
      if (!m) return;
      const subset = m[1] as string;
      if (!subsets.includes(subset)) subsets.push(subset);
      data.push({ suite: row[0] ?? null, subset, k: `Pass@${m[2]}`, rate: row[j] ?? null });
    });
  }
  return {
    id: "pass-at-k-by-suite",
    title: "Pass@k by suite",
    caption:
      "Pass@1 and Pass@2 of each suite (conditions averaged within tasks, tasks within the suite), per EP subset (§6.1, Table 6).",
    mark: "bar",
    data,
    encoding: {
      x: { field: "suite", type: "nominal", title: "suite" },
      y: { field: "rate", type: "quantitative", title: "Pass@k", format: "rate", domain: [0, 1] },
      color: { field: "k", type: "nominal", title: "k" },
      column: { field: "subset", type: "nominal", title: "subset", sort: subsets },
    },
  };
}
