/** Self-contained HTML rendering of a full report: inline styles, no scripts, all text escaped. */
import type { ReportModel } from "../core/index.ts";
import type { FullReport } from "./build.ts";
import type { RenderedFigure } from "./figures.ts";
import { agentText, formatHeadline, recordedText, type TableView, tableView } from "./format.ts";
import { escapeHtml } from "./html-escape.ts";

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; padding: 0 1rem; color: #1d1d1f; }
h1 { font-size: 1.5rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #ccc; } h3 { margin-top: 1.8rem; }
.meta { color: #555; }
.headlines { display: flex; flex-wrap: wrap; gap: .75rem; padding: 0; list-style: none; }
.headlines li { border: 1px solid #ddd; border-radius: 6px; padding: .5rem .8rem; min-width: 9rem; }
.headlines .name { font-size: .8rem; color: #555; } .headlines .value { font-size: 1.15rem; font-weight: 600; }
.headlines .note { font-size: .75rem; color: #777; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
caption { caption-side: top; text-align: left; color: #555; font-style: italic; padding-bottom: .3rem; }
th, td { border: 1px solid #ddd; padding: .25rem .6rem; text-align: left; }
th { background: #f4f4f6; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1rem 0 1.5rem; } figure svg { max-width: 100%; height: auto; }
figcaption { color: #555; font-size: .85rem; } figcaption b { color: #1d1d1f; }
tbody tr:nth-child(even) { background: #fafafa; }
.note { color: #555; }
`;

/** The report as one HTML page that needs no other file; `figures` (drawn SVG) go inline. */
export function renderHtml(report: FullReport, figures: readonly RenderedFigure[] = []): string {
  const { run } = report;
  const suite = `${run.suiteTitle ?? run.suite}${run.suiteVersion ? ` v${run.suiteVersion}` : ""}`;
  const body = [
    `<h1>longhaul report: ${escapeHtml(run.runId)}</h1>`,
    `<p class="meta">suite ${escapeHtml(suite)} · agent ${escapeHtml(agentText(run))} · episodes ${escapeHtml(recordedText(run))}</p>`,
    ...[report.generic, report.suite].flatMap((model) =>
      model
        ? [
            modelHtml(
              model,
              figures.filter((f) => f.section === model.title),
            ),
          ]
        : [],
    ),
    ...episodesHtml(report),
  ];
  return [
    "<!doctype html>",
    '<html lang="en">',
    '<head><meta charset="utf-8">',
    `<title>longhaul report: ${escapeHtml(run.runId)}</title>`,
    `<style>${STYLE}</style></head>`,
    `<body>\n${body.join("\n")}\n</body>`,
    "</html>",
    "",
  ].join("\n");
}

/** The episode listing, folded, with each trace linked. */
function episodesHtml(report: FullReport): string[] {
  const { episodes } = report;
  if (episodes.rows.length === 0) return [];
  const view = tableView(episodes);
  return [
    "<section>",
    `<h2>${escapeHtml(episodes.title)}</h2>`,
    `<details><summary>${episodes.rows.length} episodes: ${escapeHtml(episodes.columns.join(", "))}</summary>`,
    "<table>",
    `<thead><tr>${view.header.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr></thead>`,
    "<tbody>",
    ...view.rows.map((row) => `<tr>${row.map((text, i) => cellHtml(view, text, i)).join("")}</tr>`),
    "</tbody>",
    "</table>",
    "</details>",
    "</section>",
  ];
}

/** One table cell: numbers right-aligned, paths linked. */
function cellHtml(view: TableView, text: string, i: number): string {
  const body =
    view.link?.[i] && text !== "–"
      ? `<a href="${escapeHtml(encodeURI(text))}">${escapeHtml(text)}</a>`
      : escapeHtml(text);
  return `<td${view.numeric[i] ? ' class="num"' : ""}>${body}</td>`;
}

/** A drawn figure with its title and caption. */
export function figureHtml(figure: RenderedFigure): string {
  const caption = figure.caption ? ` ${escapeHtml(figure.caption)}` : "";
  return `<figure id="figure-${escapeHtml(figure.id)}">${figure.svg}<figcaption><b>${escapeHtml(figure.title)}.</b>${caption}</figcaption></figure>`;
}

function modelHtml(model: ReportModel, figures: readonly RenderedFigure[]): string {
  const parts = [`<section>`, `<h2>${escapeHtml(model.title)}</h2>`];
  if (model.headlines.length > 0) {
    parts.push('<ul class="headlines">');
    for (const h of model.headlines) {
      const note = h.note ? `<div class="note">${escapeHtml(h.note)}</div>` : "";
      parts.push(
        `<li><div class="name">${escapeHtml(h.name)}</div><div class="value">${escapeHtml(formatHeadline(h))}</div>${note}</li>`,
      );
    }
    parts.push("</ul>");
  }
  parts.push(...figures.map(figureHtml));
  for (const table of model.tables) {
    const view = tableView(table);
    const cell = (text: string, i: number) => cellHtml(view, text, i);
    parts.push(
      `<h3>${escapeHtml(table.title)}</h3>`,
      "<table>",
      table.caption ? `<caption>${escapeHtml(table.caption)}</caption>` : "",
      `<thead><tr>${view.header.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr></thead>`,
      "<tbody>",
      ...(view.rows.length > 0
        ? view.rows.map((row) => `<tr>${row.map(cell).join("")}</tr>`)
        : [`<tr><td colspan="${view.header.length}">(no rows)</td></tr>`]),
      "</tbody>",
      "</table>",
    );
  }
  for (const note of model.notes ?? []) parts.push(`<p class="note">${escapeHtml(note)}</p>`);
  parts.push("</section>");
  return parts.filter((p) => p !== "").join("\n");
}
