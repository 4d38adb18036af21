/** Markdown rendering of a full report. */
import type { ReportModel } from "../core/index.ts";
import type { FullReport } from "./build.ts";
import { agentText, formatHeadline, recordedText, type TableView, tableView } from "./format.ts";

/** The report as Markdown: a header, then each model's headlines, tables and notes. */
export function renderMarkdown(report: FullReport): string {
  const { run } = report;
  const lines = [
    `# longhaul report: ${inline(run.runId)}`,
    "",
    `- suite: ${inline(run.suiteTitle ?? run.suite)}${run.suiteVersion ? ` (v${inline(run.suiteVersion)})` : ""}`,
    `- agent: ${inline(agentText(run))}`,
    `- episodes: ${inline(recordedText(run))}`,
    "",
  ];
  for (const model of [report.generic, report.suite]) if (model) lines.push(...modelLines(model));
  lines.push(...episodeLines(report));
  return `${lines.join("\n").trimEnd()}\n`;
}

/** The episode listing, folded (GitHub and most viewers render <details>), at the end. */
function episodeLines(report: FullReport): string[] {
  const { episodes } = report;
  if (episodes.rows.length === 0) return [];
  return [
    `## ${inline(episodes.title)}`,
    "",
    `<details><summary>${episodes.rows.length} episodes: ${episodes.columns.join(", ")}</summary>`,
    "",
    ...markdownTable(tableView(episodes)),
    "",
    "</details>",
    "",
  ];
}

/** A Markdown table with numbers right-aligned; cell text is escaped for table syntax. */
export function markdownTable(view: TableView): string[] {
  const cell = (text: string, i: number) =>
    view.link?.[i] && text !== "–" ? `[${inline(text)}](${encodeURI(text)})` : inline(text);
  const row = (cells: string[]) => `| ${cells.map(cell).join(" | ")} |`;
  return [
    `| ${view.header.map(inline).join(" | ")} |`,
    `| ${view.numeric.map((n) => (n ? "---:" : "---")).join(" | ")} |`,
    ...view.rows.map(row),
  ];
}

function modelLines(model: ReportModel): string[] {
  const lines = [`## ${inline(model.title)}`, ""];
  for (const h of model.headlines) {
    lines.push(
      `- **${inline(h.name)}**: ${formatHeadline(h)}${h.note ? ` (${inline(h.note)})` : ""}`,
    );
  }
  if (model.headlines.length > 0) lines.push("");
  for (const table of model.tables) {
    lines.push(`### ${inline(table.title)}`, "");
    if (table.caption) lines.push(`_${inline(table.caption)}_`, "");
    lines.push(...(table.rows.length > 0 ? markdownTable(tableView(table)) : ["(no rows)"]), "");
  }
  for (const note of model.notes ?? []) lines.push(`> ${inline(note)}`, "");
  return lines;
}

/** One line of text safe inside Markdown tables: no line breaks, pipes, markup or raw HTML. */
function inline(text: string): string {
  return text.replace(/\r?\n/g, " ").replace(/([\\|*`<])/g, "\\$1");
}
