/** Writing report.md and report.html (with its figures drawn) into a run directory. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FullReport } from "./build.ts";
import { type RenderedFigure, renderFigures } from "./figures.ts";
import { renderHtml } from "./html.ts";
import { renderMarkdown } from "./markdown.ts";

/** Paths of the files written. */
export interface WrittenReport {
  markdown: string;
  html: string;
}

/**
 * Writes report.md and report.html into `dir` (created if needed), with `figures` inline in
 * the HTML: the report's figures drawn here when the caller has not drawn them already.
 */
export async function writeReport(
  dir: string,
  report: FullReport,
  drawn?: RenderedFigure[],
): Promise<WrittenReport> {
  mkdirSync(dir, { recursive: true });
  const figures = drawn ?? (await renderFigures(report));
  const markdown = join(dir, "report.md");
  const html = join(dir, "report.html");
  writeFileSync(markdown, renderMarkdown(report));
  writeFileSync(html, renderHtml(report, figures));
  return { markdown, html };
}
