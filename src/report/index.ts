/** Public surface of reports: build a run's report, render it, compare two runs. */
export { buildReport, type FullReport, type RunInfo } from "./build.ts";
export { figureId, rateFigure } from "./chart.ts";
export {
  type CompareModel,
  type CompareOptions,
  type CompareSide,
  compareRuns,
  type MetricDifference,
} from "./compare.ts";
export { figureSpec, type VegaLiteSpec } from "./figure-spec.ts";
export {
  figureSvg,
  hasValues,
  type RenderedFigure,
  renderFigures,
  reportFigures,
  svgToPng,
  writeFigureFiles,
} from "./figures.ts";
export { agentText, formatHeadline, formatValue } from "./format.ts";
export {
  type ErrorGroup,
  errorText,
  type RunData,
  type StatusCounts,
  SUCCESS_RULE,
  statusCounts,
} from "./generic.ts";
export { figureHtml, renderHtml } from "./html.ts";
export { escapeHtml } from "./html-escape.ts";
export { renderMarkdown } from "./markdown.ts";
export { renderCompare } from "./render-compare.ts";
export { renderSummary } from "./summary.ts";
export { type WrittenReport, writeReport } from "./write.ts";
