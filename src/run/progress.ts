/** Run progress: the numbers the runner reports, and a one-line TTY progress bar. */
import { type EpisodeRecord, totalTokens } from "../core/index.ts";

/** A snapshot of a run's progress; counts include episodes kept from an earlier attempt. */
export interface Progress {
  done: number;
  total: number;
  success: number;
  failure: number;
  invalid: number;
  tokens: number;
  costUsd: number;
  elapsedMs: number;
  /** Estimated time left, from this attempt's pace; null before the first episode finishes. */
  etaMs: number | null;
}

/** The record counts and spending a progress line shows. */
export type ProgressTotals = Pick<
  Progress,
  "success" | "failure" | "invalid" | "tokens" | "costUsd"
>;

/** Totals of no records. */
export function emptyTotals(): ProgressTotals {
  return { success: 0, failure: 0, invalid: 0, tokens: 0, costUsd: 0 };
}

/** Add one record to running totals. */
export function addToTotals(totals: ProgressTotals, record: EpisodeRecord): void {
  if (record.status !== "missing") totals[record.status]++;
  totals.tokens += totalTokens(record.usage);
  totals.costUsd += record.usage.costUsd;
}

/** "1h02m", "3m05s", "12s". */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

/** "950", "12.3k", "4.1M". */
function formatCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1e6) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1e6).toFixed(1)}M`;
}

/** One line: bar, done/total, ETA, running success rate, tokens and cost. */
export function renderProgress(p: Progress, width = 24): string {
  const fraction = p.total === 0 ? 1 : p.done / p.total;
  const filled = Math.round(fraction * width);
  const bar = `${"#".repeat(filled)}${"-".repeat(width - filled)}`;
  const scored = p.success + p.failure;
  const rate = scored === 0 ? "-" : `${((100 * p.success) / scored).toFixed(0)}%`;
  const eta = p.etaMs === null ? "?" : formatDuration(p.etaMs);
  const invalid = p.invalid > 0 ? ` (${p.invalid} invalid)` : "";
  return `[${bar}] ${p.done}/${p.total} ETA ${eta} | success ${rate}${invalid} | ${formatCount(p.tokens)} tok | $${p.costUsd.toFixed(2)}`;
}

/** A progress callback that redraws one line on a TTY and does nothing on anything else. */
export function progressBar(stream: NodeJS.WriteStream): (p: Progress) => void {
  if (!stream.isTTY) return () => undefined;
  return (p) => {
    // Some terminals (and `script`) report 0 columns: treat that as unknown.
    const line = renderProgress(p).slice(0, Math.max(20, (stream.columns || 100) - 1));
    stream.write(`\r${line}\x1b[K${p.done === p.total ? "\n" : ""}`);
  };
}
