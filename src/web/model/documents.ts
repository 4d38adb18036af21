/**
 * The viewer's data documents: what the server answers and the static export writes, one
 * JavaScript file per document (`data/<key>.js` calling `longhaulData(key, json)`), so the
 * same page loads them over HTTP and from file:// (where fetch is refused). No I/O, no DOM.
 */
import type { EpisodeInspection, EpisodeRecord, Trace } from "../../core/index.ts";
import type { FullReport, RenderedFigure } from "../../report/index.ts";

/** The global function every data file calls. */
export const DATA_CALLBACK = "longhaulData";

/** A run as the runs page lists it: header fields and headline numbers. */
export interface RunSummary {
  /** Position in the viewer's run list: the run's address in data keys and routes. */
  index: number;
  /** The run directory as given (or found under a given directory). */
  name: string;
  runId: string;
  suite: string;
  agent: string;
  status: string;
  planned: number;
  recorded: number;
  success: number;
  failure: number;
  invalid: number;
  /** success / (success + failure); null without valid episodes. */
  successRate: number | null;
  tokens: number;
  costUsd: number;
  startedAt: string;
  updatedAt: string;
}

/** One episode as the episode table shows, filters and sorts it. */
export interface IndexRow {
  id: string;
  family: string;
  epoch: number;
  status: EpisodeRecord["status"];
  category: string | null;
  endedBy: string;
  steps: number;
  invalidActions: number;
  formatErrors: number;
  wallMs: number;
  tokens: number;
  costUsd: number;
  tags: Record<string, string | number>;
  metrics: Record<string, number | null>;
  /** The episode document's file stem (data/run/<i>/episode/<file>.js). */
  file: string;
}

/** A tag with few enough values to filter by, and those values. */
export interface Dimension {
  name: string;
  values: string[];
}

/** A run's episode index, from episodes.jsonl only. */
export interface IndexDoc {
  run: number;
  rows: IndexRow[];
  dimensions: Dimension[];
  families: string[];
  categories: string[];
  /** Metric names with a number in some episode: the score ranges one can filter on. */
  metrics: string[];
  /** The metric with a number in the most episodes (the table's score column by default). */
  primaryMetric: string | null;
}

/** A run's report with its figures drawn. */
export interface ReportDoc {
  report: FullReport;
  figures: RenderedFigure[];
}

/** One episode's trace and what its suite adds for the replay. */
export interface EpisodeDoc {
  trace: Trace;
  inspection?: EpisodeInspection;
}

/** Data keys (and file paths under data/, without ".js"). */
export const dataKeys = {
  runs: "runs",
  index: (run: number) => `run/${run}/index`,
  report: (run: number) => `run/${run}/report`,
  episode: (run: number, file: string) => `run/${run}/episode/${file}`,
};

/** The text of a data file: one call of the data callback with the document as JSON text. */
export function dataScript(key: string, doc: unknown): string {
  return `${DATA_CALLBACK}(${JSON.stringify(key)},${JSON.stringify(JSON.stringify(doc))});\n`;
}

/** Tags with at most this many distinct values are offered as filters. */
const MAX_DIMENSION_VALUES = 60;

/** The index row of a record; `file` is its trace's file stem. */
export function indexRow(r: EpisodeRecord, file: string): IndexRow {
  const u = r.usage;
  return {
    id: r.episodeId,
    family: r.family,
    epoch: r.epoch,
    status: r.status,
    category: r.category ?? null,
    endedBy: r.endedBy,
    steps: r.steps,
    invalidActions: r.invalidActions,
    formatErrors: r.formatErrors,
    wallMs: r.wallMs,
    tokens: u.inputTokens + u.cachedInputTokens + u.outputTokens,
    costUsd: u.costUsd,
    tags: r.tags,
    metrics: r.metrics,
    file,
  };
}

const collator = new Intl.Collator("en", { numeric: true });
const byText = (a: string, b: string) => collator.compare(a, b);

/**
 * The index document of a run's rows, sorted by episode id in natural order (the table's
 * default order), with the filterable dimensions and metrics they hold.
 */
export function indexDoc(run: number, unsorted: IndexRow[]): IndexDoc {
  const rows = [...unsorted].sort((a, b) => byText(a.id, b.id));
  const tagValues = new Map<string, Set<string>>();
  const metrics = new Map<string, number>();
  for (const row of rows) {
    for (const [k, v] of Object.entries(row.tags)) {
      const values = tagValues.get(k) ?? new Set<string>();
      tagValues.set(k, values);
      if (values.size <= MAX_DIMENSION_VALUES) values.add(String(v));
    }
    for (const [k, v] of Object.entries(row.metrics)) {
      if (typeof v === "number") metrics.set(k, (metrics.get(k) ?? 0) + 1);
    }
  }
  const dimensions = [...tagValues]
    .filter(([, values]) => values.size > 1 && values.size <= MAX_DIMENSION_VALUES)
    .map(([name, values]) => ({ name, values: [...values].sort(byText) }));
  const distinct = (pick: (row: IndexRow) => string | null) =>
    [...new Set(rows.map(pick).filter((v): v is string => v !== null))].sort(byText);
  return {
    run,
    rows,
    dimensions,
    families: distinct((r) => r.family),
    categories: distinct((r) => r.category),
    metrics: [...metrics.keys()].sort(byText),
    primaryMetric: [...metrics].sort((a, b) => b[1] - a[1] || byText(a[0], b[0]))[0]?.[0] ?? null,
  };
}
