/** Text and Markdown rendering of a run comparison. */
import type { CompareModel } from "./compare.ts";
import { formatDifference, formatValue, type TableView } from "./format.ts";
import { markdownTable } from "./markdown.ts";

/** Episode ids listed per side before the rest is summarised as a count. */
const LISTED_IDS = 20;

/** The comparison as aligned plain text (terminal) or Markdown. */
export function renderCompare(model: CompareModel, format: "text" | "markdown"): string {
  const table = format === "markdown" ? markdownTable : textTable;
  const { a, b } = model;
  const lines = [
    format === "markdown" ? "# longhaul compare" : "longhaul compare",
    "",
    `A: ${a.runId} (suite ${a.suite}, agent ${a.agent}, ${a.episodes} episodes)`,
    `B: ${b.runId} (suite ${b.suite}, agent ${b.agent}, ${b.episodes} episodes)`,
    `paired episodes: ${model.paired} (${model.excluded} left out as invalid or missing in either run); only in A: ${model.onlyA.length}; only in B: ${model.onlyB.length}`,
    "",
    ...table(outcomeView(model)),
    `lost vs gained: exact McNemar p = ${formatP(model.mcnemarP)}`,
    "",
    ...table(metricView(model)),
    "",
    `B - A: mean paired difference; 95% percentile bootstrap over pairs (${formatValue(model.resamples, "int")} resamples, seed "${model.seed}").`,
  ];
  for (const [name, ids] of [
    ["only in A", model.onlyA],
    ["only in B", model.onlyB],
  ] as const) {
    if (ids.length === 0) continue;
    const more = ids.length > LISTED_IDS ? ` ... and ${ids.length - LISTED_IDS} more` : "";
    lines.push(`${name}: ${ids.slice(0, LISTED_IDS).join(", ")}${more}`);
  }
  return `${lines.join("\n")}\n`;
}

function formatP(p: number): string {
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}

function outcomeView(model: CompareModel): TableView {
  const o = model.outcomes;
  const share = (n: number) => formatValue(o.pairs > 0 ? n / o.pairs : null, "rate");
  const row = (name: string, meaning: string, n: number) => [name, meaning, String(n), share(n)];
  return {
    header: ["outcome", "A → B", "episodes", "share"],
    numeric: [false, false, true, true],
    rows: [
      row("retained", "solved → solved", o.retained),
      row("lost", "solved → unsolved", o.lost),
      row("gained", "unsolved → solved", o.gained),
      row("unsolved", "unsolved → unsolved", o.unsolved),
    ],
  };
}

function metricView(model: CompareModel): TableView {
  return {
    header: ["metric", "pairs", "A", "B", "B - A", "95% CI"],
    numeric: [false, true, true, true, true, true],
    rows: model.metrics.map((m) => [
      m.metric,
      String(m.pairs),
      formatValue(m.a, m.format),
      formatValue(m.b, m.format),
      formatDifference(m.difference, m.format),
      `[${formatDifference(m.low, m.format)}, ${formatDifference(m.high, m.format)}]`,
    ]),
  };
}

/** Columns padded to their widest cell; numbers right-aligned. */
function textTable(view: TableView): string[] {
  const widths = view.header.map((h, i) =>
    Math.max(h.length, ...view.rows.map((row) => (row[i] ?? "").length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) =>
        view.numeric[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0),
      )
      .join("  ")
      .trimEnd();
  return [line(view.header), line(widths.map((w) => "-".repeat(w))), ...view.rows.map(line)];
}
