/**
 * The run directory's file layout and the parsers of its files, without any I/O: a browser (the
 * viewer) can import this module and src/core, fetch the files and parse them the same way.
 */
import { z } from "zod";
import { EpisodeRecord, formatZodError, LonghaulError, sha256, Trace } from "../core/index.ts";
import { RunHeader } from "./header.ts";

/** File and folder names inside a run directory. */
export const RUN_FILES = {
  header: "run.json",
  episodes: "episodes.jsonl",
  traces: "traces",
  checkpoints: "checkpoints",
} as const;

const UNSAFE = /[^A-Za-z0-9._@-]/g;
const MAX_FILE_LENGTH = 120;

/**
 * A file name for an id (an episode or a stream) that every file system accepts. Ids that
 * needed rewriting (task ids may hold "/") get a short hash suffix, so two ids never share a file.
 */
export function safeFileName(id: string): string {
  const safe = id.replace(UNSAFE, "_");
  if (safe === id && safe.length <= MAX_FILE_LENGTH && !safe.startsWith(".")) return safe;
  return `${safe.slice(0, MAX_FILE_LENGTH).replace(/^\./, "_")}-${sha256(id).slice(0, 8)}`;
}

/** Path of an episode's trace relative to the run directory. */
export function traceFile(episodeId: string): string {
  return `${RUN_FILES.traces}/${safeFileName(episodeId)}.json.gz`;
}

/** Path of a stream's checkpoint after its episode `index`, relative to the run directory. */
export function checkpointFile(streamId: string, index: number): string {
  return `${RUN_FILES.checkpoints}/${safeFileName(streamId)}/${index}.json`;
}

/**
 * checkpoints/<stream>/<index>.json: the agent memory a stream hands to its episode index + 1,
 * written before that episode's record, so a recorded episode always has its checkpoint.
 */
export const StreamCheckpoint = z
  .object({
    stream: z.string().min(1),
    index: z.number().int().nonnegative(),
    episodeId: z.string().min(1),
    memory: z.unknown().optional().describe("the agent's JSON memory after the episode"),
  })
  .strict();
export type StreamCheckpoint = z.infer<typeof StreamCheckpoint>;

/**
 * A logged value without its wall-clock fields (wallMs, latencyMs, at any depth): what two
 * runs with the same seeds must agree on.
 */
export function withoutWallClock(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutWallClock);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== "wallMs" && k !== "latencyMs")
        .map(([k, x]) => [k, withoutWallClock(x)]),
    );
  }
  return value;
}

/** Parse JSON text with a schema; errors name the file (and line) and the field. */
export function parseJsonAs<T>(schema: z.ZodType<T>, text: string, where: string, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new LonghaulError(
      "INVALID_INPUT",
      `invalid ${what}: not JSON (${(e as Error).message})`,
      where,
    );
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new LonghaulError(
      "INVALID_INPUT",
      `invalid ${what}: ${formatZodError(result.error)}`,
      where,
    );
  }
  return result.data;
}

/** run.json text as a validated header. */
export function parseHeader(text: string, where: string): RunHeader {
  return parseJsonAs(RunHeader, text, where, "run header");
}

/** A trace's JSON text (after gunzip) as a validated trace. */
export function parseTrace(text: string, where: string): Trace {
  return parseJsonAs(Trace, text, where, "trace");
}

/** Records of episodes.jsonl text, last line per episode winning, plus the torn tail length. */
export function parseEpisodeLines(
  text: string,
  where: string,
): { records: Map<string, EpisodeRecord>; completeBytes: number; torn: boolean } {
  const end = text.lastIndexOf("\n") + 1;
  const records = new Map<string, EpisodeRecord>();
  let lineNo = 0;
  let start = 0;
  while (start < end) {
    const stop = text.indexOf("\n", start);
    lineNo++;
    const line = text.slice(start, stop);
    start = stop + 1;
    if (line.trim() === "") continue;
    const record = parseJsonAs(EpisodeRecord, line, `${where}:${lineNo}`, "episode record");
    records.set(record.episodeId, record);
  }
  return { records, completeBytes: utf8ByteLength(text.slice(0, end)), torn: end < text.length };
}

/** UTF-8 byte length of a string (lone surrogates count as U+FFFD), without encoding it. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
