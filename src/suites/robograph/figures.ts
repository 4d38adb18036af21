/**
 * Figure 4 of the paper as report figures: per agent, Normalized Goal Progress, the
 * termination distribution (correct, premature, neither) and the average steps per
 * trajectory, tabletop and indoor side by side. Drawn from the tables that hold the numbers
 * (Table 1 and the termination table), so figure and table always agree.
 */
import { meltTable, type ReportFigure, type ReportTable } from "../../core/index.ts";

const AGENT = { field: "Agent", type: "nominal", title: "agent" } as const;
const DOMAIN = { field: "Domain", type: "nominal", title: "domain" } as const;
const TERMINATIONS = ["Correct %", "Premature %", "Neither %"];

/** Figure 4a-c from Table 1 (for NGP) and the termination table. */
export function figure4(table1: ReportTable, termination: ReportTable): ReportFigure[] {
  const pick = (table: ReportTable, columns: string[]) =>
    table.rows.map((row) =>
      Object.fromEntries(columns.map((c) => [c, row[table.columns.indexOf(c)] ?? null])),
    );
  return [
    {
      id: "fig4a-normalized-goal-progress",
      title: "Figure 4a: Normalized Goal Progress",
      caption:
        "Mean NGP (%), the normalized fraction of task subgoals completed, per agent and domain.",
      mark: "bar",
      data: pick(table1, ["Agent", "Domain", "NGP"]),
      encoding: {
        x: AGENT,
        y: { field: "NGP", type: "quantitative", title: "NGP (%)", domain: [0, 100] },
        column: DOMAIN,
      },
    },
    {
      id: "fig4b-termination-distribution",
      title: "Figure 4b: termination distribution",
      caption:
        "Share of episodes (%) that stop correctly, stop prematurely, or neither (run out of steps), per agent and domain.",
      mark: "bar",
      stack: true,
      data: meltTable(termination, ["Agent", "Domain"], TERMINATIONS, {
        column: "termination",
        value: "share",
      }).map((row) => ({
        ...row,
        termination: String(row.termination).replace(" %", "").toLowerCase(),
      })),
      encoding: {
        x: AGENT,
        y: { field: "share", type: "quantitative", title: "episodes (%)", domain: [0, 100] },
        color: {
          field: "termination",
          type: "nominal",
          title: "termination",
          sort: ["correct", "premature", "neither"],
        },
        column: DOMAIN,
      },
    },
    {
      id: "fig4c-average-steps",
      title: "Figure 4c: average steps",
      caption: "Mean agent execution steps per trajectory, per agent and domain.",
      mark: "bar",
      data: pick(termination, ["Agent", "Domain", "Avg steps"]),
      encoding: {
        x: AGENT,
        y: { field: "Avg steps", type: "quantitative", title: "steps" },
        column: DOMAIN,
      },
    },
  ];
}
