/**
 * The paper's aggregate views (§2, §4, appendices B and C): records are averaged within a
 * document (the per-episode accuracy), documents within a task-difficulty cell at one
 * horizon, and cells weigh equally in every view. Tables follow Figures 2-8; formats are
 * compared over the line tasks only, as the paper compares them (tables have variants).
 */
import type { Cell, EpisodeRecord, Headline, ReportModel, ReportTable } from "../../core/index.ts";
import { nestedBalancedMean, wilson } from "../../metrics/index.ts";
import { transductionFigures } from "./figures.ts";
import { DIFFICULTIES, FORMATS, TABLE_VARIANTS, TASKS } from "./params.ts";
import { POSITION_BUCKETS } from "./verify.ts";

/** Metric name of the accuracy of tenth `b` (1-based) of a document's output. */
export function positionMetric(b: number): string {
  return `pos${b}`;
}

// A cell is a task-difficulty pair at one horizon, so views over several horizons weigh
// each horizon equally too.
const cellOf = (r: EpisodeRecord) => `${r.tags.task}|${r.tags.difficulty}|${r.tags.horizonK}`;
const horizonOf = (r: EpisodeRecord) => Number(r.tags.horizonK);
const taskOf = (r: EpisodeRecord) => String(r.tags.task);
const difficultyOf = (r: EpisodeRecord) => Number(r.tags.difficulty);
/** The format of a line task, the variant of a table. */
const layoutOf = (r: EpisodeRecord) => String(r.tags.format ?? r.tags.variant);

/** Cell-balanced mean of a metric, null where no record has it. */
function balanced(records: EpisodeRecord[], metric = "accuracy"): number | null {
  const withValue = records.filter((r) => typeof r.metrics[metric] === "number");
  const value = nestedBalancedMean(withValue, [cellOf], (r) => r.metrics[metric] as number);
  return Number.isNaN(value) ? null : value;
}

/** (from - to) / from: the paper's relative decrease; null when undefined. */
function decrease(from: number | null, to: number | null): number | null {
  return from !== null && to !== null && from > 0 ? (from - to) / from : null;
}

/** The relative decreases §4 and the abstract quote, averaged over the paper's models. */
const PAPER = {
  horizon: 0.628,
  formatSpread: 0.365,
  unnumbered: 0.162,
  unnumberedUuid: 0.643,
  unnumberedLookup: 0.664,
  difficulty: 0.399,
};

/** Aggregate transduction episode records into the paper's report tables. */
export function aggregateTransduction(all: EpisodeRecord[]): ReportModel {
  const records = all.filter(
    (r) =>
      (r.status === "success" || r.status === "failure") && typeof r.metrics.accuracy === "number",
  );
  const horizons = [...new Set(records.map(horizonOf))].sort((a, b) => a - b);
  // Every token figure depends on the encoding the documents were sized with: name it.
  const tokenizers = [...new Set(records.flatMap((r) => r.tags.tokenizer ?? []))].map(String);
  const atHorizon = (h: number | undefined) => records.filter((r) => horizonOf(r) === h);
  const largest = horizons.at(-1);
  const smallest = horizons[0];
  const last = atHorizon(largest);
  const lines = records.filter((r) => r.tags.format !== undefined);
  const where = (group: EpisodeRecord[], test: (r: EpisodeRecord) => boolean) => group.filter(test);
  const present = <K>(keys: readonly K[], keyOf: (r: EpisodeRecord) => K, group = records) =>
    keys.filter((k) => group.some((r) => keyOf(r) === k));

  /** Accuracy of each key per horizon and over all horizons (Figures 2b, 3, 4). */
  const byHorizon = (
    title: string,
    caption: string,
    label: string,
    keys: readonly (string | number)[],
    keyOf: (r: EpisodeRecord) => string | number,
  ): ReportTable => ({
    title,
    caption,
    columns: [label, ...horizons.map((h) => `${h}K`), "all"],
    formats: ["text", ...horizons.map(() => "rate" as const), "rate"],
    rows: present(keys, keyOf).map((key) => {
      const group = where(records, (r) => keyOf(r) === key);
      return [
        String(key),
        ...horizons.map((h) => balanced(where(group, (r) => horizonOf(r) === h))),
        balanced(group),
      ];
    }),
  });

  const horizonTable: ReportTable = {
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
        balanced(group),
        exact,
        interval.rate,
        interval.low,
        interval.high,
      ];
    }),
  };

  const positions: ReportTable = {
    title: "Position-resolved accuracy (Fig. 5)",
    caption:
      "Accuracy by tenth of the required output, per format (line tasks), cells weighted equally.",
    columns: ["format", ...Array.from({ length: POSITION_BUCKETS }, (_, i) => `${(i + 1) * 10}%`)],
    formats: ["text", ...Array.from({ length: POSITION_BUCKETS }, () => "rate" as const)],
    rows: present(FORMATS, layoutOf, lines).map((f) => {
      const group = where(lines, (r) => layoutOf(r) === f);
      return [
        f,
        ...Array.from({ length: POSITION_BUCKETS }, (_, i) =>
          balanced(group, positionMetric(i + 1)),
        ),
      ];
    }),
  };

  const consistent = where(records, (r) => typeof r.metrics.selfConsistency === "number");
  const consistency: ReportTable = {
    title: "Accuracy and self-consistency (Fig. 5)",
    caption:
      "Self-consistency: share of emitted records consistent with themselves whatever they contain (arithmetic: the value of the written expression; UUID sorting: identifiers in ascending order).",
    columns: ["task", "format", "documents", "accuracy", "self-consistency"],
    formats: ["text", "text", "int", "rate", "rate"],
    rows: present(TASKS, taskOf, consistent).flatMap((task) =>
      [...present(FORMATS, layoutOf, consistent), "all" as const].flatMap((f) => {
        const group = where(
          consistent,
          (r) => r.tags.task === task && (f === "all" || layoutOf(r) === f),
        );
        if (group.length === 0) return [];
        return [[task, f, group.length, balanced(group), balanced(group, "selfConsistency")]];
      }),
    ),
  };

  const at = largest === undefined ? "" : ` at ${largest}K`;
  const taskByFormat: ReportTable = {
    title: `Accuracy by task and format${at} (Fig. 7)`,
    caption: "Line tasks; difficulties weighted equally. Tables have variants instead (Fig. 8).",
    columns: ["task", ...present(FORMATS, layoutOf, lines), "all"],
    formats: ["text", ...present(FORMATS, layoutOf, lines).map(() => "rate" as const), "rate"],
    rows: present(
      TASKS,
      taskOf,
      where(last, (r) => r.tags.format !== undefined),
    ).map((task) => {
      const group = where(last, (r) => r.tags.task === task);
      return [
        task,
        ...present(FORMATS, layoutOf, lines).map((f) =>
          balanced(where(group, (r) => layoutOf(r) === f)),
        ),
        balanced(group),
      ];
    }),
  };

  const difficulties = present(DIFFICULTIES, difficultyOf, last);
  const taskByDifficulty: ReportTable = {
    title: `Accuracy by task and difficulty${at} (Fig. 6)`,
    caption: "Formats (tables: variants) weighted equally within each task-difficulty cell.",
    columns: ["task", ...difficulties.map((d) => `d${d}`), "all"],
    formats: ["text", ...difficulties.map(() => "rate" as const), "rate"],
    rows: present(TASKS, taskOf, last).map((task) => {
      const group = where(last, (r) => r.tags.task === task);
      return [
        task,
        ...difficulties.map((d) => balanced(where(group, (r) => difficultyOf(r) === d))),
        balanced(group),
      ];
    }),
  };

  const easiest = difficulties[0];
  const hardest = difficulties.at(-1);
  const sensitivity: ReportTable = {
    title: `Absolute accuracy and difficulty sensitivity${at} (Fig. 8)`,
    caption:
      "Every task and format (tables: variant): accuracy, accuracy at the easiest and hardest difficulty, and the relative decrease between them.",
    columns: [
      "task",
      "format",
      "accuracy",
      `d${easiest ?? "-"}`,
      `d${hardest ?? "-"}`,
      "relative decrease",
    ],
    formats: ["text", "text", "rate", "rate", "rate", "rate"],
    rows: present(TASKS, taskOf, last).flatMap((task) =>
      present([...FORMATS, ...TABLE_VARIANTS], layoutOf, last).flatMap((f) => {
        const group = where(last, (r) => r.tags.task === task && layoutOf(r) === f);
        if (group.length === 0) return [];
        const first = balanced(where(group, (r) => difficultyOf(r) === easiest));
        const end = balanced(where(group, (r) => difficultyOf(r) === hardest));
        return [[task, f, balanced(group), first, end, decrease(first, end)]];
      }),
    ),
  };

  // The decreases §4 quotes, each at the horizon the paper measures it.
  const lastLines = where(last, (r) => r.tags.format !== undefined);
  const formatAccuracy = present(FORMATS, layoutOf, lastLines).map((f) =>
    balanced(where(lastLines, (r) => layoutOf(r) === f)),
  );
  const known = formatAccuracy.filter((x): x is number => x !== null);
  const unnumbered = (task?: string) => {
    const group = where(lastLines, (r) => task === undefined || r.tags.task === task);
    return decrease(
      balanced(where(group, (r) => layoutOf(r) === "ordered")),
      balanced(where(group, (r) => layoutOf(r) === "unnumbered")),
    );
  };
  const first = balanced(atHorizon(smallest));
  const end = balanced(last);
  const byDifficulty = decrease(
    balanced(where(last, (r) => difficultyOf(r) === easiest)),
    balanced(where(last, (r) => difficultyOf(r) === hardest)),
  );
  const decreaseRows: Cell[][] = [
    [
      `context length ${smallest ?? "-"}K -> ${largest ?? "-"}K`,
      "all tasks",
      smallest === largest ? null : decrease(first, end),
      PAPER.horizon,
    ],
    [
      `input format, best -> worst${at}`,
      "line tasks",
      known.length > 1 ? decrease(Math.max(...known), Math.min(...known)) : null,
      PAPER.formatSpread,
    ],
    [`ordered -> unnumbered${at}`, "line tasks", unnumbered(), PAPER.unnumbered],
    [`ordered -> unnumbered${at}`, "uuid", unnumbered("uuid"), PAPER.unnumberedUuid],
    [`ordered -> unnumbered${at}`, "lookup", unnumbered("lookup"), PAPER.unnumberedLookup],
    [`ordered -> unnumbered${at}`, "arith", unnumbered("arith"), null],
    [
      `difficulty ${easiest ?? "-"} -> ${hardest ?? "-"}${at}`,
      "all tasks",
      byDifficulty,
      PAPER.difficulty,
    ],
  ];
  const decreases: ReportTable = {
    title: "Relative decreases (§4)",
    caption:
      "(accuracy before - after) / before. The paper's values are means over its models; it does not give the formula of the format spread, read here as best to worst format.",
    columns: ["change", "over", "relative decrease", "paper"],
    formats: ["text", "text", "rate", "rate"],
    rows: decreaseRows,
  };

  const taskTable = byHorizon(
    "Accuracy by task (Fig. 2b)",
    "Difficulties weighted equally; the largest horizon is Fig. 2b.",
    "task",
    TASKS,
    taskOf,
  );
  const formatTable = byHorizon(
    "Accuracy by format (Fig. 3)",
    "Line tasks; task-difficulty cells weighted equally; the largest horizon is Fig. 3.",
    "format",
    FORMATS,
    (r) => String(r.tags.format),
  );
  const difficultyTable = byHorizon(
    "Accuracy by difficulty (Fig. 4)",
    "Tasks weighted equally; the largest horizon is Fig. 4.",
    "difficulty",
    DIFFICULTIES,
    difficultyOf,
  );

  const headlines: Headline[] = [{ name: "accuracy", value: balanced(records), format: "rate" }];
  if (smallest !== undefined && largest !== undefined && smallest !== largest) {
    headlines.push(
      { name: `accuracy at ${smallest}K`, value: first, format: "rate" },
      { name: `accuracy at ${largest}K`, value: end, format: "rate" },
      {
        name: `relative decrease ${smallest}K -> ${largest}K`,
        value: decrease(first, end),
        format: "rate",
        note: "(accuracy at the smallest - at the largest) / at the smallest horizon (§4)",
      },
    );
  }
  if (largest !== undefined) {
    const exact = wilson(last.filter((r) => r.metrics.exact === 1).length, last.length);
    headlines.push(
      {
        name: `exact completion at ${largest}K`,
        value: exact.rate,
        low: exact.low,
        high: exact.high,
        format: "rate",
      },
      {
        name: `relative decrease ordered -> unnumbered at ${largest}K`,
        value: unnumbered(),
        format: "rate",
        note: "line tasks (§4)",
      },
      {
        name: `relative decrease by difficulty at ${largest}K`,
        value: byDifficulty,
        format: "rate",
        note: `difficulty ${easiest} -> ${hardest} (§4, Fig. 4)`,
      },
    );
  }

  return {
    suite: "transduction",
    title: "Long-Transduction",
    episodes: records.length,
    headlines,
    tables: [
      horizonTable,
      taskTable,
      formatTable,
      difficultyTable,
      taskByDifficulty,
      taskByFormat,
      sensitivity,
      positions,
      consistency,
      decreases,
    ],
    figures: transductionFigures({
      horizon: horizonTable,
      task: taskTable,
      format: formatTable,
      difficulty: difficultyTable,
      taskByDifficulty,
      sensitivity,
      positions,
      consistency,
    }),
    notes: [
      ...(all.length > records.length
        ? [`${all.length - records.length} invalid or missing episodes left out`]
        : []),
      ...(tokenizers.length > 0 ? [`documents sized with ${tokenizers.join(", ")}`] : []),
    ],
  };
}
