/** Classification of the errors both official SDKs throw, for the retry loop. */
import { type HeaderLookup, kindOfStatus, type ProviderFailure, retryAfterMs } from "../retry.ts";

type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes an SDK exports (the OpenAI and Anthropic SDKs share these names). */
export interface SdkErrorClasses {
  APIError: ErrorClass;
  APIUserAbortError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
}

/** Abort, rate limit, retryable (timeouts, connection errors, 408/409/5xx) or fatal. */
export function classifySdkError(
  error: unknown,
  signal: AbortSignal,
  sdk: SdkErrorClasses,
): ProviderFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (signal.aborted || error instanceof sdk.APIUserAbortError) {
    return { kind: "abort", message: "the call was aborted" };
  }
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return { kind: "retryable", message: `timeout: ${message}` };
  }
  if (error instanceof sdk.APIConnectionError) {
    return { kind: "retryable", message: `connection error: ${message}` };
  }
  if (error instanceof sdk.APIError) {
    const { status, headers } = error as Error & { status?: number; headers?: HeaderLookup };
    if (typeof status === "number") {
      return {
        kind: kindOfStatus(status),
        status,
        message: `HTTP ${status}: ${message}`,
        retryAfterMs: retryAfterMs(headers, Date.now()),
      };
    }
  }
  return { kind: "fatal", message };
}
