/**
 * Run progress: the numbers the runner reports, a one-line TTY progress bar, and periodic
 * progress lines for logs (CI, nohup, a pipe), where a redrawn bar would print nothing useful.
 */
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
  /** Model calls without a price: the cost is unknown when any were made. */
  unpricedCalls: number;
  elapsedMs: number;
  /** Estimated time left, from this attempt's pace; null before the first episode finishes. */
  etaMs: number | null;
}

/** The record counts and spending a progress line shows. */
export type ProgressTotals = Pick<
  Progress,
  "success" | "failure" | "invalid" | "tokens" | "costUsd" | "unpricedCalls"
>;

/** Totals of no records. */
export function emptyTotals(): ProgressTotals {
  return { success: 0, failure: 0, invalid: 0, tokens: 0, costUsd: 0, unpricedCalls: 0 };
}

/** Add one record to running totals. */
export function addToTotals(totals: ProgressTotals, record: EpisodeRecord): void {
  if (record.status !== "missing") totals[record.status]++;
  totals.tokens += totalTokens(record.usage);
  totals.costUsd += record.usage.costUsd;
  totals.unpricedCalls += record.usage.unpricedCalls ?? 0;
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
  return `[${bar}] ${p.done}/${p.total} ETA ${eta} | success ${rate}${invalid} | ${formatCount(p.tokens)} tok | ${costText(p)}`;
}

/** "$0.42", or "cost ?" when model calls were made without a price. */
function costText(p: Progress): string {
  return p.unpricedCalls > 0 ? "cost ?" : `$${p.costUsd.toFixed(2)}`;
}

/** Success rate over scored episodes, with the counts: "60% of 5 scored" or "- (none scored)". */
function rateText(p: Progress): string {
  const scored = p.success + p.failure;
  return scored === 0
    ? "- (none scored)"
    : `${((100 * p.success) / scored).toFixed(0)}% of ${scored} scored`;
}

/**
 * One progress line for a log: "progress 12/588 episodes | success 42% of 10 scored | 2
 * invalid | elapsed 3m05s | ETA 1h02m | 12.3k tok | $0.42".
 */
export function renderProgressLine(p: Progress): string {
  const eta = p.etaMs === null ? "?" : formatDuration(p.etaMs);
  return [
    `progress ${p.done}/${p.total} episodes`,
    `success ${rateText(p)}`,
    `${p.invalid} invalid`,
    `elapsed ${formatDuration(p.elapsedMs)}`,
    `ETA ${eta}`,
    `${formatCount(p.tokens)} tok`,
    costText(p),
  ].join(" | ");
}

/** Time for periodic progress lines; tests inject one they advance by hand. */
export interface ProgressClock {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Call `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

/** The process's clock (its timer never keeps the process alive). */
export const SYSTEM_CLOCK: ProgressClock = {
  now: () => performance.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

/**
 * Progress for a stream that is not a terminal: a line every `everyMs` while the run lasts,
 * even when no episode finishes in between (a hung provider is visible as time passing with
 * nothing done). `update` takes each snapshot the runner reports; `stop` ends the lines.
 */
export function progressLines(
  write: (line: string) => void,
  everyMs: number,
  clock: ProgressClock = SYSTEM_CLOCK,
): { update(p: Progress): void; stop(): void } {
  let last: { progress: Progress; at: number } | undefined;
  const stop = clock.every(everyMs, () => {
    if (!last) return;
    const elapsedMs = last.progress.elapsedMs + (clock.now() - last.at);
    write(`${renderProgressLine({ ...last.progress, elapsedMs })}\n`);
  });
  return {
    update(progress) {
      last = { progress, at: clock.now() };
    },
    stop,
  };
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
