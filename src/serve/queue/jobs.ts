/**
 * What travels through the queue: one BullMQ job per episode (everything a worker needs to play
 * it), and the job's return value (the record, the gzip'd trace and, in a stream, the memory
 * handed to the next episode). Job ids are derived from the run id and the episode id, so
 * enqueueing an episode twice is a no-op (BullMQ keeps one job per id).
 */
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import { z } from "zod";
import {
  AccessProfile,
  Budgets,
  EpisodeRecord,
  jsonText,
  LonghaulError,
  StreamPosition,
  sha256,
  type Trace,
} from "../../core/index.ts";
import { parseTrace } from "../../log/index.ts";

/** The queue name when none is given. */
export const DEFAULT_QUEUE_NAME = "longhaul";

/** One episode to play, as a worker receives it. */
export const EpisodeJob = z
  .object({
    runId: z.string(),
    suite: z.object({ id: z.string(), version: z.string(), hash: z.string() }).strict(),
    compile: z.record(z.string(), z.unknown()).optional(),
    episodeId: z.string(),
    taskId: z.string(),
    epoch: z.number().int().nonnegative(),
    stream: StreamPosition.optional(),
    seed: z.string(),
    access: AccessProfile,
    budgets: Budgets.optional(),
    maxConsecutiveFormatErrors: z.number().int().positive(),
    /** The agent as the worker creates it: a name and JSON options without secrets. */
    agent: z.object({ name: z.string(), options: z.record(z.string(), z.unknown()) }).strict(),
    /** In a stream: the memory the previous episode handed forward. */
    memory: z.unknown().optional(),
  })
  .strict();
export type EpisodeJob = z.infer<typeof EpisodeJob>;

/** A played episode, as the job returns it. */
export const EpisodeJobResult = z
  .object({
    episodeId: z.string(),
    record: EpisodeRecord,
    /** The trace as base64 of gzip'd JSON (none when the environment could not be made). */
    trace: z.string().optional(),
    memory: z.unknown().optional(),
    /** host:pid of the worker that played it. */
    worker: z.string(),
  })
  .strict();
export type EpisodeJobResult = z.infer<typeof EpisodeJobResult>;

/** The job id of an episode of a run (BullMQ ids may not contain ":"). */
export function jobIdOf(runId: string, episodeId: string): string {
  return `${runId}-${sha256(episodeId).slice(0, 24)}`;
}

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/**
 * A trace packed for the job's return value (compressed on the thread pool, not the event loop).
 * The coordinator stores it byte for byte, so secrets are redacted here, by `redact`.
 */
export async function packTrace(
  trace: Trace,
  redact: (text: string) => string = (text) => text,
): Promise<string> {
  return (await gzipAsync(redact(jsonText(trace)))).toString("base64");
}

/** A packed trace back as a validated trace. */
export async function unpackTrace(packed: string, where: string): Promise<Trace> {
  return parseTrace((await gunzipAsync(traceBytes(packed))).toString("utf8"), where);
}

/** A packed trace as the bytes of a trace file (gzip'd JSON), without unpacking it. */
export function traceBytes(packed: string): Buffer {
  return Buffer.from(packed, "base64");
}

/** Check a queue URL: redis:// or rediss://, host and port. */
export function queueUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new LonghaulError("USAGE", `--queue expects a redis://HOST:PORT URL, got "${url}"`);
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    throw new LonghaulError("USAGE", `--queue expects a redis:// or rediss:// URL, got "${url}"`);
  }
  return url;
}
