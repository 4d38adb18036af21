/**
 * The paper's aggregate views (§2, appendix B): records are averaged within a document
 * (the per-episode accuracy), documents within a task-difficulty cell at one horizon, and
 * cells weigh equally in every view. Tables follow Figures 2-5.
 */
import type { Cell, EpisodeRecord, Headline, ReportModel, ReportTable } from "../../core/index.ts";
import { nestedBalancedMean, wilson } from "../../metrics/index.ts";
import { DIFFICULTIES, FORMATS, TASKS } from "./params.ts";
import { POSITION_BUCKETS } from "./verify.ts";

/** Metric name of the accuracy of tenth `b` (1-based) of a document's output. */
export function positionMetric(b: number): string {
  return `pos${b}`;
}

// A cell is a task-difficulty pair at one horizon, so views over several horizons weigh
// each horizon equally too.
const cellOf = (r: EpisodeRecord) => `${r.tags.task}|${r.tags.difficulty}|${r.tags.horizonK}`;
const horizonOf = (r: EpisodeRecord) => Number(r.tags.horizonK);

/** Cell-balanced mean of a metric, null where no record has it. */
function balanced(records: EpisodeRecord[], metric: string): number | null {
  const withValue = records.filter((r) => typeof r.metrics[metric] === "number");
  const value = nestedBalancedMean(withValue, [cellOf], (r) => r.metrics[metric] as number);
  return Number.isNaN(value) ? null : value;
}

function horizonColumns(horizons: number[]): string[] {
  return horizons.map((h) => `${h}K`);
}

/** Aggregate transduction episode records into the paper's report tables. */
export function aggregateTransduction(all: EpisodeRecord[]): ReportModel {
  const records = all.filter(
    (r) =>
      (r.status === "success" || r.status === "failure") && typeof r.metrics.accuracy === "number",
  );
  const horizons = [...new Set(records.map(horizonOf))].sort((a, b) => a - b);
  const atHorizon = (h: number) => records.filter((r) => horizonOf(r) === h);
  const largest = horizons.at(-1);
  const smallest = horizons[0];

  const grid = (
    title: string,
    caption: string,
    label: string,
    keys: readonly (string | number)[],
    keyOf: (r: EpisodeRecord) => string | number,
  ): ReportTable => {
    const rows: Cell[][] = keys
      .map((key) => {
        const group = records.filter((r) => keyOf(r) === key);
        if (group.length === 0) return undefined;
        return [
          String(key),
          ...horizons.map((h) =>
            balanced(
              group.filter((r) => horizonOf(r) === h),
              "accuracy",
            ),
          ),
          balanced(group, "accuracy"),
        ];
      })
      .filter((row): row is Cell[] => row !== undefined);
    return {
      title,
      caption,
      columns: [label, ...horizonColumns(horizons), "all"],
      rows,
      formats: ["text", ...horizons.map(() => "rate" as const), "rate"],
    };
  };

  const byHorizon: ReportTable = {
    title: "Accuracy by context length (Fig. 2a)",
    caption: "Item accuracy, task-difficulty cells weighted equally; exact completion per horizon.",
    columns: ["horizon", "documents", "accuracy", "exact", "exact rate", "low", "high"],
    formats: ["text", "int", "rate", "int", "rate", "rate", "high"],
    rows: horizons.map((h) => {
      const group = atHorizon(h);
      const exact = group.filter((r) => r.metrics.exact === 1).length;
      const interval = wilson(exact, group.length);
      return [
        `${h}K`,
        group.length,
        balanced(group, "accuracy"),
        exact,
        interval.rate,
        interval.low,
        interval.high,
      ];
    }),
  };

  const positions: ReportTable = {
    title: "Position-resolved accuracy (Fig. 5)",
    caption: "Accuracy by tenth of the required output, per format, cells weighted equally.",
    columns: ["format", ...Array.from({ length: POSITION_BUCKETS }, (_, i) => `${(i + 1) * 10}%`)],
    formats: ["text", ...Array.from({ length: POSITION_BUCKETS }, () => "rate" as const)],
    rows: FORMATS.filter((f) => records.some((r) => r.tags.format === f)).map((f) => {
      const group = records.filter((r) => r.tags.format === f);
      return [
        f,
        ...Array.from({ length: POSITION_BUCKETS }, (_, i) =>
          balanced(group, positionMetric(i + 1)),
        ),
      ];
    }),
  };

  const uuid = records.filter((r) => r.tags.task === "uuid");
  const consistency: ReportTable = {
    title: "UUID sorting: accuracy and self-consistency (Fig. 5)",
    caption: "Self-consistency: share of emitted lists in ascending order, whatever they contain.",
    columns: ["horizon", "documents", "accuracy", "self-consistency"],
    formats: ["text", "int", "rate", "rate"],
    rows: horizons
      .map((h) => uuid.filter((r) => horizonOf(r) === h))
      .filter((group) => group.length > 0)
      .map((group) => [
        `${horizonOf(group[0]!)}K`,
        group.length,
        balanced(group, "accuracy"),
        balanced(group, "selfConsistency"),
      ]),
  };

  const headlines: Headline[] = [
    { name: "accuracy", value: balanced(records, "accuracy"), format: "rate" },
  ];
  if (smallest !== undefined && largest !== undefined && smallest !== largest) {
    const first = balanced(atHorizon(smallest), "accuracy");
    const last = balanced(atHorizon(largest), "accuracy");
    headlines.push(
      { name: `accuracy at ${smallest}K`, value: first, format: "rate" },
      { name: `accuracy at ${largest}K`, value: last, format: "rate" },
      {
        name: `relative decrease ${smallest}K -> ${largest}K`,
        value: first !== null && last !== null && first > 0 ? (first - last) / first : null,
        format: "rate",
        note: "(accuracy at the smallest - at the largest) / at the smallest horizon (§4)",
      },
    );
  }
  if (largest !== undefined) {
    const group = atHorizon(largest);
    const exact = wilson(group.filter((r) => r.metrics.exact === 1).length, group.length);
    headlines.push({
      name: `exact completion at ${largest}K`,
      value: exact.rate,
      low: exact.low,
      high: exact.high,
      format: "rate",
    });
  }

  return {
    suite: "transduction",
    title: "Long-Transduction",
    episodes: records.length,
    headlines,
    tables: [
      byHorizon,
      grid(
        "Accuracy by task (Fig. 2b)",
        "Difficulties weighted equally; the largest horizon is Fig. 2b.",
        "task",
        TASKS,
        (r) => String(r.tags.task),
      ),
      grid(
        "Accuracy by format (Fig. 3)",
        "Task-difficulty cells weighted equally.",
        "format",
        FORMATS,
        (r) => String(r.tags.format),
      ),
      grid(
        "Accuracy by difficulty (Fig. 4)",
        "Tasks weighted equally.",
        "difficulty",
        DIFFICULTIES,
        (r) => Number(r.tags.difficulty),
      ),
      positions,
      consistency,
    ],
    notes:
      all.length > records.length
        ? [`${all.length - records.length} invalid or missing episodes left out`]
        : [],
  };
}
