/** The few lines `longhaul report` prints to the terminal. */
import type { Headline } from "../core/index.ts";
import type { FullReport } from "./build.ts";
import { formatHeadline } from "./format.ts";

/** Run identity, counts by status, then the generic and suite headlines, one line each. */
export function renderSummary(report: FullReport): string {
  const { run } = report;
  const planned = run.planned === null ? "" : ` of ${run.planned} planned`;
  const lines = [
    `run ${run.runId} · suite ${run.suite} · agent ${run.agent}`,
    `episodes: ${run.recorded} recorded${planned} (success ${run.success}, failure ${run.failure}, invalid ${run.invalid}, missing ${run.missing})`,
    headlineLine(report.generic.title, report.generic.headlines),
  ];
  if (report.suite) lines.push(headlineLine(report.suite.title, report.suite.headlines));
  return `${lines.join("\n")}\n`;
}

function headlineLine(title: string, headlines: readonly Headline[]): string {
  return `${title}: ${headlines.map((h) => `${h.name} ${formatHeadline(h)}`).join(" · ")}`;
}
