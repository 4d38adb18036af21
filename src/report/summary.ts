/** The few lines `longhaul report` prints to the terminal. */
import type { Headline } from "../core/index.ts";
import type { FullReport } from "./build.ts";
import { agentText, formatHeadline, recordedText } from "./format.ts";

/** Error messages listed on the terminal before "... and N more". */
const SHOWN_ERRORS = 5;

/**
 * Run identity, counts by status, the generic and suite headlines, then why episodes failed:
 * unsuccessful episodes by category, and invalid ones grouped by error message (count, first
 * episode) so a setup problem shows as one line, not as hundreds of ERR.
 */
export function renderSummary(report: FullReport): string {
  const { run } = report;
  const lines = [
    `run ${run.runId} · suite ${run.suite} · agent ${agentText(run)}`,
    `episodes: ${recordedText(run)} (success ${run.success}, failure ${run.failure}, invalid ${run.invalid}, missing ${run.missing})`,
    headlineLine(report.generic.title, report.generic.headlines),
  ];
  if (report.suite) lines.push(headlineLine(report.suite.title, report.suite.headlines));
  lines.push(...failureLines(report.failures));
  return `${lines.join("\n")}\n`;
}

function failureLines({ categories, errors }: FullReport["failures"]): string[] {
  const lines: string[] = [];
  if (categories.length > 0) {
    lines.push(`failures by category: ${categories.map(([c, n]) => `${c} ${n}`).join(" · ")}`);
  }
  if (errors.length > 0) lines.push("invalid episodes by error:");
  for (const g of errors.slice(0, SHOWN_ERRORS)) {
    lines.push(`  ${g.episodes}x ${g.error} (first: ${g.first})`);
  }
  if (errors.length > SHOWN_ERRORS) {
    lines.push(`  ... and ${errors.length - SHOWN_ERRORS} more messages (see the report)`);
  }
  return lines;
}

function headlineLine(title: string, headlines: readonly Headline[]): string {
  return `${title}: ${headlines.map((h) => `${h.name} ${formatHeadline(h)}`).join(" · ")}`;
}
