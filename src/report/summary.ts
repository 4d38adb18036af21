/** The few lines `longhaul report` prints to the terminal. */
import type { Headline } from "../core/index.ts";
import type { FullReport } from "./build.ts";
import { formatHeadline, recordedText } from "./format.ts";

/** Run identity, counts by status, then the generic and suite headlines, one line each. */
export function renderSummary(report: FullReport): string {
  const { run } = report;
  const lines = [
    `run ${run.runId} · suite ${run.suite} · agent ${run.agent}`,
    `episodes: ${recordedText(run)} (success ${run.success}, failure ${run.failure}, invalid ${run.invalid}, missing ${run.missing})`,
    headlineLine(report.generic.title, report.generic.headlines),
  ];
  if (report.suite) lines.push(headlineLine(report.suite.title, report.suite.headlines));
  return `${lines.join("\n")}\n`;
}

function headlineLine(title: string, headlines: readonly Headline[]): string {
  return `${title}: ${headlines.map((h) => `${h.name} ${formatHeadline(h)}`).join(" · ")}`;
}
