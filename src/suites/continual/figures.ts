/**
 * The paper's results as report figures, drawn from the aggregate tables that hold their
 * numbers (aggregate.ts), so a figure always shows what its table says: Table 1 as bars with
 * Wilson whiskers (the main results, the plot a reader of §4.2 draws first), Figure 4a/4b
 * (SR and gain by atomic goals), Figure 5 (SR by learning samples), Figure 6 (change of the
 * selection rates against zero shot) and Figure 7 (SR by extra steps). The paper draws one bar
 * or line per harness; a report is one run, so each figure shows that run's agent.
 */
import {
  type FigureChannel,
  meltTable,
  type ReportFigure,
  type ReportTable,
} from "../../core/index.ts";

/** The aggregate tables the figures read; studies absent from a run are null. */
export interface FigureTables {
  /** Task, Setting, Phase, Episodes, SR (%), 95% CI, high */
  table1: ReportTable;
  /** Setting, Optimal (%), ..., Δ optimal, Δ suboptimal, Δ invalid */
  selection: ReportTable;
  /** Atomic goals, Zero-shot, ICL, Skill, ICL gain, Skill gain */
  complexity: ReportTable | null;
  /** k, ICL SR (%), Skill SR (%) */
  k: ReportTable | null;
  /** Extra steps, Zero-shot, ICL, Skill */
  extra: ReportTable | null;
}

const SR: FigureChannel = {
  field: "SR",
  type: "quantitative",
  title: "success rate (%)",
  domain: [0, 100],
};
const SETTING: FigureChannel = { field: "setting", type: "nominal", title: "setting" };
const SETTINGS = ["Zero-shot", "ICL", "Skill"];

/** Short setting names for legends (the tables spell them out). */
const SHORT: Record<string, string> = {
  "In-context learning": "ICL",
  "Skill learning": "Skill",
  "ICL SR (%)": "ICL",
  "Skill SR (%)": "Skill",
  "ICL gain": "ICL",
  "Skill gain": "Skill",
};
const short = (name: unknown) => SHORT[String(name)] ?? String(name);

/** A line over an ordered x (a study's levels), one series per setting. */
function studyLine(
  id: string,
  title: string,
  caption: string,
  table: ReportTable,
  x: string,
  columns: string[],
  y: FigureChannel,
): ReportFigure {
  return {
    id,
    title,
    caption,
    mark: "line",
    data: meltTable(table, [x], columns, { column: "setting", value: y.field }).map((row) => ({
      ...row,
      setting: short(row.setting),
    })),
    encoding: {
      x: { field: x, type: "ordinal", title: x.toLowerCase() },
      y,
      color: { ...SETTING, sort: SETTINGS },
    },
  };
}

/** The figures of one run, in the paper's order; a study absent from the run has none. */
export function continualFigures(t: FigureTables): ReportFigure[] {
  const col = (table: ReportTable, name: string) => table.columns.indexOf(name);
  const tests = t.table1.rows.filter((row) => row[col(t.table1, "Phase")] === "test");
  const figures: ReportFigure[] = [
    {
      id: "table1-success-rate",
      title: "Table 1: success rate by task level and setting",
      caption:
        "SR (%) of the testing phase with 95% Wilson intervals: basic tasks zero shot, advanced tasks zero shot, after in-context learning and after skill learning (k = 2, 3 extra steps).",
      mark: "bar",
      data: tests.map((row) => ({
        task: row[col(t.table1, "Task")] ?? null,
        setting: short(row[col(t.table1, "Setting")]),
        SR: row[col(t.table1, "SR (%)")] ?? null,
        low: row[col(t.table1, "95% CI")] ?? null,
        high: row[col(t.table1, "high")] ?? null,
      })),
      encoding: {
        x: { field: "task", type: "nominal", title: "task level", sort: ["Basic", "Advanced"] },
        y: SR,
        color: { ...SETTING, sort: SETTINGS },
      },
      interval: { low: "low", high: "high" },
    },
  ];
  if (t.complexity) {
    figures.push(
      studyLine(
        "fig4a-sr-by-complexity",
        "Figure 4a: success rate by compositional complexity",
        "SR (%) of advanced tasks by atomic goals per task (3 to 6), per setting.",
        t.complexity,
        "Atomic goals",
        SETTINGS,
        SR,
      ),
      studyLine(
        "fig4b-gain-by-complexity",
        "Figure 4b: gain over zero shot by compositional complexity",
        "SR of ICL or skill learning minus that of zero shot (points), paired by advanced task.",
        t.complexity,
        "Atomic goals",
        ["ICL gain", "Skill gain"],
        { field: "gain", type: "quantitative", title: "gain over zero shot (points)" },
      ),
    );
  }
  if (t.k)
    figures.push(
      studyLine(
        "fig5-sr-by-learning-samples",
        "Figure 5: success rate by the number of learning samples",
        "SR (%) of advanced tasks after k basic tasks; k = 0 is zero shot, the common start of both curves.",
        t.k,
        "k",
        ["ICL SR (%)", "Skill SR (%)"],
        SR,
      ),
    );
  figures.push({
    id: "fig6-selection-change",
    title: "Figure 6: change of the selection rates against zero shot",
    caption:
      "Change (points) in the share of selections that were optimal (success path), suboptimal (valid detour) or invalid, advanced tasks.",
    mark: "bar",
    data: meltTable(
      {
        ...t.selection,
        rows: t.selection.rows.filter((row) => row[0] !== "Zero-shot"),
      },
      ["Setting"],
      ["Δ optimal", "Δ suboptimal", "Δ invalid"],
      { column: "action", value: "change" },
    ).map((row) => ({
      action: String(row.action).replace("Δ ", ""),
      setting: short(row.Setting),
      change: row.change ?? null,
    })),
    encoding: {
      x: {
        field: "action",
        type: "nominal",
        title: "action type",
        sort: ["optimal", "suboptimal", "invalid"],
      },
      y: { field: "change", type: "quantitative", title: "change in selection rate (points)" },
      // All three settings, so that ICL and Skill have the colours they have in Figures 5 and 7.
      color: { ...SETTING, sort: SETTINGS },
    },
  });
  if (t.extra)
    figures.push(
      studyLine(
        "fig7-step-budget",
        "Figure 7: step budget sensitivity",
        "SR (%) of advanced tasks with the shortest path plus e extra steps, per setting.",
        t.extra,
        "Extra steps",
        SETTINGS,
        SR,
      ),
    );
  return figures;
}
