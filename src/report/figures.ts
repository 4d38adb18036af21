/**
 * Figures drawn at report time: each ReportFigure compiles to vega-lite (figure-spec.ts) and
 * vega renders it to SVG in Node (a headless View, renderer "none"); PNG files come from that
 * SVG through resvg. vega and resvg load on first use, so reports without figures pay nothing.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ReportFigure, ReportModel } from "../core/index.ts";
import type { FullReport } from "./build.ts";
import { figureSpec } from "./figure-spec.ts";

/** A figure drawn: the model's fields, the section it belongs to and its SVG text. */
export interface RenderedFigure {
  id: string;
  title: string;
  caption?: string;
  /** Title of the report model (section) that declared it. */
  section: string;
  svg: string;
}

/** The field a figure's values are read from: the heatmap's color, else the quantitative axis. */
function valueField(figure: ReportFigure): string {
  const { x, y, color } = figure.encoding;
  if (figure.mark === "heatmap" && color) return color.field;
  return y.type !== "quantitative" && x.type === "quantitative" ? x.field : y.field;
}

/** Whether a figure has a number to draw (a run too small for it leaves it empty). */
export function hasValues(figure: ReportFigure): boolean {
  const field = valueField(figure);
  return figure.data.some((row) => typeof row[field] === "number" && Number.isFinite(row[field]));
}

/** Every figure of a report with a value to draw: the generic model's, then the suite's. */
export function reportFigures(report: FullReport): { section: string; figure: ReportFigure }[] {
  const models = [report.generic, report.suite].filter((m): m is ReportModel => m !== undefined);
  return models.flatMap((m) =>
    (m.figures ?? []).filter(hasValues).map((figure) => ({ section: m.title, figure })),
  );
}

/**
 * SVG text of one figure. Element ids vega writes (clip paths, gradients) get the figure id as
 * prefix, so several figures inlined in one page never share an id.
 */
export async function figureSvg(figure: ReportFigure): Promise<string> {
  const [vega, vegaLite] = await Promise.all([import("vega"), import("vega-lite")]);
  const compiled = vegaLite.compile(figureSpec(figure) as never).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  try {
    const svg = await view.toSVG();
    return svg
      .replace(/\bid="([^"]+)"/g, `id="${figure.id}-$1"`)
      .replace(/url\(#([^)]+)\)/g, `url(#${figure.id}-$1)`);
  } finally {
    view.finalize();
  }
}

/** Every figure of a report drawn, in report order. */
export async function renderFigures(report: FullReport): Promise<RenderedFigure[]> {
  const out: RenderedFigure[] = [];
  for (const { section, figure } of reportFigures(report)) {
    out.push({
      id: figure.id,
      title: figure.title,
      ...(figure.caption ? { caption: figure.caption } : {}),
      section,
      svg: await figureSvg(figure),
    });
  }
  return out;
}

/** Fonts resvg draws text with: the system's, DejaVu Sans where a family is not installed. */
const PNG_FONTS = {
  loadSystemFonts: true,
  defaultFontFamily: "DejaVu Sans",
  sansSerifFamily: "DejaVu Sans",
};

/** A PNG of an SVG at `scale` times its size (2 by default: sharp in print). */
export async function svgToPng(svg: string, scale = 2): Promise<Uint8Array> {
  const { Resvg } = await import("@resvg/resvg-js");
  const image = new Resvg(svg, { font: PNG_FONTS, fitTo: { mode: "zoom", value: scale } });
  return image.render().asPng();
}

/** Write `<id>.svg` and `<id>.png` per figure into `dir` (created if needed); returns the paths. */
export async function writeFigureFiles(dir: string, figures: RenderedFigure[]): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const paths: string[] = [];
  for (const figure of figures) {
    const svg = join(dir, `${figure.id}.svg`);
    const png = join(dir, `${figure.id}.png`);
    writeFileSync(svg, figure.svg);
    writeFileSync(png, await svgToPng(figure.svg));
    paths.push(svg, png);
  }
  return paths;
}
