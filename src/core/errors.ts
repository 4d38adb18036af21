/** Errors a user can act on: a code, a message and, for bad input, the path of what is wrong. */
import type { z } from "zod";

/**
 * Error codes; USAGE maps to exit code 2, everything else to 1. CONFLICT: a request that does
 * not fit the current state (a decision submitted to an episode that has ended).
 */
export type ErrorCode =
  | "USAGE"
  | "INVALID_INPUT"
  | "NOT_FOUND"
  | "RUNTIME"
  | "PROVIDER"
  | "ABORTED"
  | "CONFLICT";

/** An error longhaul raises on purpose, printed without a stack unless --debug. */
export class LonghaulError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly path?: string,
  ) {
    super(path ? `${path}: ${message}` : message);
    this.name = "LonghaulError";
  }
}

/** "a.b[2].c" from a zod issue path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || "(root)";
}

/** One line per zod issue: "<path>: <message>". */
export function formatZodError(error: z.ZodError): string {
  return error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join("; ");
}

/** Parse `data` with `schema` or throw an INVALID_INPUT error naming `what` and the path. */
export function parseOrThrow<T>(schema: z.ZodType<T>, data: unknown, what: string): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  throw new LonghaulError("INVALID_INPUT", `invalid ${what}: ${formatZodError(result.error)}`);
}
