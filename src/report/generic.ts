/** The suite-neutral part of a report: statuses, failure categories, success rates, effort, usage. */
import {
  type Cell,
  type EpisodeRecord,
  type Headline,
  printable,
  type ReportModel,
  type ReportTable,
  totalTokens,
} from "../core/index.ts";
import { traceFile } from "../log/format.ts";
import { mean, passAtK, wilson } from "../metrics/index.ts";
import { rateFigure } from "./chart.ts";
import { type GroupKey, groupBy, NO_VALUE, naturalCompare, tagOf } from "./group.ts";

/** A run's identity and records, as read from a run directory. */
export interface RunData {
  runId: string;
  suite: string;
  agent: string;
  /** Episodes the run planned; those without a record count as missing. */
  planned?: number;
  /** The run header's status (started, finished, interrupted), shown beside the counts. */
  status?: string;
  /** The model the agent prompted, as provider:model (from the agent's config). */
  model?: string;
  /** The host of the endpoint the user gave the model (never its credentials). */
  endpoint?: string;
  /** The llm agent's state-tracking strategy when not the full history (`--memory`). */
  memory?: string;
  records: EpisodeRecord[];
}

/** Episode counts by status; `valid` = success + failure, the success-rate denominator. */
export interface StatusCounts {
  recorded: number;
  success: number;
  failure: number;
  invalid: number;
  missing: number;
  valid: number;
}

/** The counting rule every success rate in a report follows. */
export const SUCCESS_RULE =
  "Success rates are success / (success + failure): invalid episodes (provider or runtime faults) " +
  "are left out of every denominator and counted separately; missing = planned - recorded.";

/** Counts by status; missing adds records marked missing and planned episodes never recorded. */
export function statusCounts(run: RunData): StatusCounts {
  const count = (status: EpisodeRecord["status"]) =>
    run.records.filter((r) => r.status === status).length;
  const success = count("success");
  const failure = count("failure");
  const unrecorded = Math.max(0, (run.planned ?? 0) - run.records.length);
  return {
    recorded: run.records.length,
    success,
    failure,
    invalid: count("invalid"),
    missing: count("missing") + unrecorded,
    valid: success + failure,
  };
}

/**
 * The generic report model of a run, with success tables per family and per `dimensions` tag.
 * Every success rate is success / (success + failure): invalid episodes (ERR: provider or
 * runtime faults) are excluded from denominators and counted on their own, as EP §5.4 keeps
 * an incomplete evaluation record apart from an unsuccessful attempt; missing = planned -
 * recorded. Usage and effort count every recorded episode, since invalid ones spent too.
 */
export function genericModel(run: RunData, dimensions: readonly string[]): ReportModel {
  const counts = statusCounts(run);
  const records = run.records;
  const tables: ReportTable[] = [
    statusTable(counts),
    categoryTable(records),
    ...errorTable(records),
    successTable(
      "Success by family",
      "family",
      groupBy(records, (r) => r.family),
    ),
    ...dimensions.map((dim) =>
      successTable(
        `Success by ${dim}`,
        dim,
        groupBy(records, (r) => tagOf(r, dim)),
      ),
    ),
    ...passAtKTable(records),
    effortTable(records),
    usageTable(records),
    ...metricsTable(records),
  ];
  return {
    suite: run.suite,
    title: "Run overview",
    episodes: records.length,
    headlines: headlines(run, counts),
    tables,
    figures: tables.flatMap((table) => rateFigure(table) ?? []),
    notes: [SUCCESS_RULE],
  };
}

function headlines(run: RunData, counts: StatusCounts): Headline[] {
  const rate = wilson(counts.success, counts.valid);
  const usage = run.records.map((r) => r.usage);
  const uncachedCalls = sum(usage.map((u) => u.calls - u.cachedCalls));
  return [
    {
      name: "success rate",
      value: counts.valid > 0 ? rate.rate : null,
      ...(counts.valid > 0 ? { low: rate.low, high: rate.high } : {}),
      format: "rate",
      note: `${counts.success} of ${counts.valid} valid episodes, Wilson 95% interval`,
    },
    {
      name: "episodes",
      value: counts.recorded,
      format: "int",
      note: run.planned === undefined ? "recorded" : `recorded of ${run.planned} planned`,
    },
    { name: "invalid", value: counts.invalid, format: "int" },
    { name: "missing", value: counts.missing, format: "int" },
    { name: "tokens", value: sum(usage.map(totalTokens)), format: "int", note: "input + output" },
    costHeadline(usage),
    {
      name: "mean latency",
      value: uncachedCalls > 0 ? sum(usage.map((u) => u.latencyMs)) / uncachedCalls : null,
      format: "ms",
      note: "per model call, cached calls excluded",
    },
  ];
}

/** Model calls made without a price; any makes the run's cost unknown. */
function unpricedCalls(usage: readonly EpisodeRecord["usage"][]): number {
  return sum(usage.map((u) => u.unpricedCalls ?? 0));
}

function costHeadline(usage: readonly EpisodeRecord["usage"][]): Headline {
  const unpriced = unpricedCalls(usage);
  if (unpriced === 0)
    return { name: "cost", value: sum(usage.map((u) => u.costUsd)), format: "usd" };
  const calls = sum(usage.map((u) => u.calls));
  return {
    name: "cost",
    value: null,
    format: "usd",
    absent: "unknown",
    note: `${unpriced} of ${calls} model calls had no price; give a price table (--prices)`,
  };
}

/** Cost text of one episode's usage: dollars, or "unknown" when a call had no price. */
function episodeCost(usage: EpisodeRecord["usage"]): Cell {
  return (usage.unpricedCalls ?? 0) > 0 ? "unknown" : usage.costUsd;
}

/** Longest error message shown; longer ones are cut (they are grouped by what is shown). */
const ERROR_TEXT_LENGTH = 200;

/** An error message as reports group and show it: its first line, printable and bounded. */
export function errorText(error: string | undefined): string {
  return printable((error ?? "(no message)").split("\n")[0] ?? "", ERROR_TEXT_LENGTH);
}

/** Invalid episodes sharing one error message. */
export interface ErrorGroup {
  error: string;
  episodes: number;
  /** The id of the first of them, in record order. */
  first: string;
}

/**
 * Records in a stable order, whatever order episodes finished in: by epoch, then task id with
 * numbers compared as numbers.
 */
function inEpisodeOrder(records: readonly EpisodeRecord[]): EpisodeRecord[] {
  return [...records].sort((a, b) => a.epoch - b.epoch || naturalCompare(a.taskId, b.taskId));
}

/** Invalid episodes grouped by error message, most frequent first, with the first episode's id. */
export function errorGroups(records: readonly EpisodeRecord[]): ErrorGroup[] {
  const groups = new Map<string, ErrorGroup>();
  for (const r of inEpisodeOrder(records)) {
    if (r.status !== "invalid") continue;
    const error = errorText(r.error);
    const group = groups.get(error);
    if (group) group.episodes++;
    else groups.set(error, { error, episodes: 1, first: r.episodeId });
  }
  return [...groups.values()].sort((a, b) => b.episodes - a.episodes);
}

/** Unsuccessful episodes by category, most frequent first. */
export function categoryCounts(records: readonly EpisodeRecord[]): [string, number][] {
  const unsuccessful = records.filter((r) => r.status === "failure" || r.status === "invalid");
  return groupBy(unsuccessful, (r) => r.category ?? NO_VALUE)
    .map(([category, group]): [string, number] => [String(category), group.length])
    .sort((a, b) => b[1] - a[1]);
}

function errorTable(records: readonly EpisodeRecord[]): ReportTable[] {
  const groups = errorGroups(records);
  if (groups.length === 0) return [];
  return [
    {
      title: "Invalid episodes by error",
      caption: "Episodes that could not be played or scored, grouped by error message.",
      columns: ["error", "episodes", "first episode"],
      formats: ["text", "int", "text"],
      rows: groups.map((g) => [g.error, g.episodes, g.first]),
    },
  ];
}

/**
 * Every episode by epoch and task id: id, status, category, steps, tokens, cost and its trace file
 * (relative to the run directory). Reports show it folded at the end, since runs are long.
 */
export function episodeTable(records: readonly EpisodeRecord[]): ReportTable {
  return {
    title: "Episodes",
    caption: `All ${records.length} recorded episodes; each trace is a gzip'd JSON file in the run directory.`,
    columns: ["episode", "status", "category", "steps", "tokens", "cost", "trace"],
    formats: ["text", "text", "text", "int", "int", "usd", "link"],
    rows: inEpisodeOrder(records).map((r) => [
      r.episodeId,
      r.status,
      r.category ?? null,
      r.steps,
      totalTokens(r.usage),
      episodeCost(r.usage),
      traceFile(r.episodeId),
    ]),
  };
}

function statusTable(counts: StatusCounts): ReportTable {
  const slots = counts.success + counts.failure + counts.invalid + counts.missing;
  const share = (n: number) => (slots > 0 ? n / slots : null);
  return {
    title: "Episodes by status",
    caption: `${slots} episodes: those recorded plus those planned but never recorded.`,
    columns: ["status", "episodes", "share"],
    formats: ["text", "int", "rate"],
    rows: (["success", "failure", "invalid", "missing"] as const).map((s) => [
      s,
      counts[s],
      share(counts[s]),
    ]),
  };
}

function categoryTable(records: readonly EpisodeRecord[]): ReportTable {
  const unsuccessful = records.filter((r) => r.status === "failure" || r.status === "invalid");
  const groups = groupBy(unsuccessful, (r) => r.category ?? NO_VALUE);
  groups.sort((a, b) => b[1].length - a[1].length);
  return {
    title: "Failure categories",
    caption: "One category per unsuccessful episode; share of failed plus invalid episodes.",
    columns: ["category", "failure", "invalid", "total", "share"],
    formats: ["text", "int", "int", "int", "rate"],
    rows: groups.map(([category, group]) => {
      const invalid = group.filter((r) => r.status === "invalid").length;
      return [
        category,
        group.length - invalid,
        invalid,
        group.length,
        group.length / unsuccessful.length,
      ];
    }),
  };
}

function successTable(
  title: string,
  keyName: string,
  groups: [GroupKey, EpisodeRecord[]][],
): ReportTable {
  return {
    title,
    caption: "Rates over valid episodes with Wilson 95% intervals.",
    columns: [
      keyName,
      "valid",
      "successes",
      "success rate",
      "95% CI low",
      "95% CI high",
      "invalid",
    ],
    formats: ["text", "int", "int", "rate", "rate", "high", "int"],
    rows: groups.map(([key, group]) => {
      const successes = group.filter((r) => r.status === "success").length;
      const valid = successes + group.filter((r) => r.status === "failure").length;
      const invalid = group.filter((r) => r.status === "invalid").length;
      if (valid === 0) return [key, 0, 0, null, null, null, invalid];
      const ci = wilson(successes, valid);
      return [key, valid, successes, ci.rate, ci.low, ci.high, invalid];
    }),
  };
}

/** Largest k reported; beyond it pass@k adds little over repeated epochs. */
const MAX_PASS_K = 10;

function passAtKTable(records: readonly EpisodeRecord[]): ReportTable[] {
  const valid = records.filter((r) => r.status === "success" || r.status === "failure");
  const tasks = groupBy(valid, (r) => `${r.suite}\u0000${r.taskId}`).map(([, group]) => ({
    n: group.length,
    c: group.filter((r) => r.status === "success").length,
  }));
  const maxK = Math.min(
    MAX_PASS_K,
    extreme(
      tasks.map((t) => t.n),
      Math.max,
    ) ?? 0,
  );
  if (maxK < 2) return [];
  const rows: Cell[][] = [];
  for (let k = 1; k <= maxK; k++) {
    const eligible = tasks.filter((t) => t.n >= k);
    rows.push([k, eligible.length, mean(eligible.map((t) => passAtK(t.n, t.c, k)))]);
  }
  return [
    {
      title: "pass@k over epochs",
      caption:
        "Unbiased pass@k from each task's valid epochs, averaged over tasks with at least k of them.",
      columns: ["k", "tasks", "pass@k"],
      formats: ["int", "int", "rate"],
      rows,
    },
  ];
}

function effortTable(records: readonly EpisodeRecord[]): ReportTable {
  const rows = [
    measureRow(records, "steps", (r) => r.steps),
    measureRow(records, "invalid actions", (r) => r.invalidActions),
    measureRow(records, "format errors", (r) => r.formatErrors),
    measureRow(records, "wall time (s)", (r) => r.wallMs / 1000),
  ];
  const timed = records.filter((r) => r.simTime !== undefined);
  if (timed.length > 0) rows.push(measureRow(timed, "sim time (s)", (r) => r.simTime ?? 0));
  return {
    title: "Effort",
    caption: "Over recorded episodes; the successes column is EP's Time@S for wall time (§5.5).",
    columns: ["measure", "total", "mean", "mean over successes", "max"],
    formats: ["text", "number", "number", "number", "number"],
    rows,
  };
}

function usageTable(records: readonly EpisodeRecord[]): ReportTable {
  const field = (name: string, of: (r: EpisodeRecord) => number) =>
    measureRow(records, name, of).slice(0, 4);
  return {
    title: "Usage",
    caption:
      "Model usage over recorded episodes, invalid ones included; total tokens over successes is EP's Tok@S.",
    columns: ["quantity", "total", "mean per episode", "mean over successes"],
    formats: ["text", "number", "number", "number"],
    rows: [
      field("model calls", (r) => r.usage.calls),
      field("cached calls", (r) => r.usage.cachedCalls),
      field("retries", (r) => r.usage.retries),
      field("input tokens", (r) => r.usage.inputTokens),
      field("cached input tokens", (r) => r.usage.cachedInputTokens),
      field("output tokens", (r) => r.usage.outputTokens),
      field("reasoning tokens", (r) => r.usage.reasoningTokens),
      field("total tokens", (r) => totalTokens(r.usage)),
      unpricedCalls(records.map((r) => r.usage)) > 0
        ? ["cost (USD)", "unknown", "unknown", "unknown"]
        : field("cost (USD)", (r) => r.usage.costUsd),
    ],
  };
}

function metricsTable(records: readonly EpisodeRecord[]): ReportTable[] {
  const valid = records.filter((r) => r.status === "success" || r.status === "failure");
  const names = [...new Set(valid.flatMap((r) => Object.keys(r.metrics)))].sort(naturalCompare);
  if (names.length === 0) return [];
  return [
    {
      title: "Episode metrics",
      caption: "Plain means of each scorer metric over valid episodes that report it.",
      columns: ["metric", "episodes", "mean", "min", "max"],
      formats: ["text", "int", "number", "number", "number"],
      rows: names.map((name) => {
        const values = valid
          .map((r) => r.metrics[name])
          .filter((v): v is number => typeof v === "number");
        if (values.length === 0) return [name, 0, null, null, null];
        return [
          name,
          values.length,
          mean(values),
          extreme(values, Math.min),
          extreme(values, Math.max),
        ];
      }),
    },
  ];
}

/** [name, total, mean, mean over successes, max] of one per-episode quantity. */
function measureRow(
  records: readonly EpisodeRecord[],
  name: string,
  of: (r: EpisodeRecord) => number,
): Cell[] {
  const values = records.map(of);
  const successes = records.filter((r) => r.status === "success").map(of);
  return [
    name,
    sum(values),
    finiteOrNull(mean(values)),
    finiteOrNull(mean(successes)),
    extreme(values, Math.max),
  ];
}

/** Min or max without spreading (large runs would overflow the call stack); null when empty. */
function extreme(values: readonly number[], pick: (a: number, b: number) => number): number | null {
  return values.length > 0 ? values.reduce((a, b) => pick(a, b)) : null;
}

function sum(xs: readonly number[]): number {
  let total = 0;
  for (const x of xs) total += x;
  return total;
}

function finiteOrNull(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}
