/**
 * The one retry layer of the llm agent (the SDK clients run with maxRetries 0): which
 * failures are retried, and how long to wait before the next attempt.
 */
import type { Rng } from "../../core/index.ts";

/** How a provider call failed, as the retry loop needs to know it. */
export interface ProviderFailure {
  /** abort: the caller cancelled; never retried. fatal: a 4xx or a bug; never retried. */
  kind: "abort" | "rate-limit" | "retryable" | "fatal";
  message: string;
  status?: number;
  /** The wait the server asked for (Retry-After / retry-after-ms), if any. */
  retryAfterMs?: number;
}

/** Headers as both SDKs expose them on API errors. */
export interface HeaderLookup {
  get(name: string): string | null;
}

/** Longest backoff between attempts when the server names no wait. */
const MAX_BACKOFF_MS = 30_000;
/** Longest server-requested wait honoured, so a bogus header cannot stall a run for hours. */
const MAX_RETRY_AFTER_MS = 600_000;

/** The failure kind of an HTTP status: 429 rate-limit; 408, 409 and 5xx retryable; else fatal. */
export function kindOfStatus(status: number): ProviderFailure["kind"] {
  if (status === 429) return "rate-limit";
  if (status === 408 || status === 409 || status >= 500) return "retryable";
  return "fatal";
}

/** The wait a response asks for: retry-after-ms, else Retry-After in seconds or as an HTTP date. */
export function retryAfterMs(headers: HeaderLookup | undefined, nowMs: number): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms)) && Number(ms) >= 0) {
    return Math.min(Number(ms), MAX_RETRY_AFTER_MS);
  }
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds))
    return seconds >= 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - nowMs), MAX_RETRY_AFTER_MS);
}

/**
 * The wait before retry number `retry` (0-based): the server's Retry-After when given, else
 * exponential backoff with "equal jitter" (half fixed, half uniform from the seeded stream).
 */
export function backoffMs(
  failure: ProviderFailure,
  retry: number,
  baseMs: number,
  rng: Rng,
): number {
  if (failure.retryAfterMs !== undefined) return failure.retryAfterMs;
  const ceiling = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** retry);
  return ceiling / 2 + (ceiling / 2) * rng.next();
}

/** Sleep `ms`, rejecting early with the signal's reason when it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
