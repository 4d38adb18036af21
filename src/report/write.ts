/** Writing report.md and report.html into a run directory. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FullReport } from "./build.ts";
import { renderHtml } from "./html.ts";
import { renderMarkdown } from "./markdown.ts";

/** Writes report.md and report.html into `dir` (created if needed); returns their paths. */
export function writeReport(dir: string, report: FullReport): { markdown: string; html: string } {
  mkdirSync(dir, { recursive: true });
  const markdown = join(dir, "report.md");
  const html = join(dir, "report.html");
  writeFileSync(markdown, renderMarkdown(report));
  writeFileSync(html, renderHtml(report));
  return { markdown, html };
}
