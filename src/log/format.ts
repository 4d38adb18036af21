/**
 * The run directory's file layout and the parsers of its files, without any I/O: a browser (the
 * viewer) can import this module and src/core, fetch the files and parse them the same way.
 */
import { z } from "zod";
import {
  EpisodeRecord,
  formatZodError,
  LonghaulError,
  printable,
  sha256,
  Trace,
} from "../core/index.ts";
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

/** Why JSON text does not fit a schema ("not JSON (...)" or the fields), or undefined when it does. */
function problemOf<T>(
  schema: z.ZodType<T>,
  text: string,
): { ok: true; value: T } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // JSON.parse may quote the text: keep only printable characters of its message.
    return { ok: false, problem: `not JSON (${printable((e as Error).message, 200)})` };
  }
  const result = schema.safeParse(value);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, problem: formatZodError(result.error) };
}

/** Parse JSON text with a schema; errors name the file (and line) and the field. */
export function parseJsonAs<T>(schema: z.ZodType<T>, text: string, where: string, what: string): T {
  const parsed = problemOf(schema, text);
  if (!parsed.ok)
    throw new LonghaulError("INVALID_INPUT", `invalid ${what}: ${parsed.problem}`, where);
  return parsed.value;
}

/** run.json text as a validated header. */
export function parseHeader(text: string, where: string): RunHeader {
  return parseJsonAs(RunHeader, text, where, "run header");
}

/** A trace's JSON text (after gunzip) as a validated trace. */
export function parseTrace(text: string, where: string): Trace {
  return parseJsonAs(Trace, text, where, "trace");
}

/** A line of episodes.jsonl that holds no valid record. */
export interface UnreadableLine {
  /** 1-based line number. */
  line: number;
  /** Why: not JSON, or the fields that are wrong. */
  problem: string;
  /** The line's start, printable (control bytes escaped). */
  excerpt: string;
}

/** Characters of an unreadable line shown in messages. */
const EXCERPT_LENGTH = 80;

/** How to repair a log with unreadable lines, for error messages. */
export const REPAIR_HINT =
  "`longhaul report <run-dir> --repair` (or `longhaul run ... --repair`) keeps a backup of " +
  "episodes.jsonl and drops its unreadable lines; a resumed run then replays those episodes";

/**
 * Records of episodes.jsonl text, last line per episode winning, plus the torn tail length. An
 * unreadable line throws, naming its line number with a printable excerpt and how to repair;
 * with `lenient` it is skipped and listed in `unreadable` instead.
 */
export function parseEpisodeLines(
  text: string,
  where: string,
  options: { lenient?: boolean } = {},
): {
  records: Map<string, EpisodeRecord>;
  completeBytes: number;
  torn: boolean;
  unreadable: UnreadableLine[];
  /** The readable complete lines, as written. */
  lines: string[];
} {
  const end = text.lastIndexOf("\n") + 1;
  const records = new Map<string, EpisodeRecord>();
  const unreadable: UnreadableLine[] = [];
  const lines: string[] = [];
  let lineNo = 0;
  let start = 0;
  while (start < end) {
    const stop = text.indexOf("\n", start);
    lineNo++;
    const line = text.slice(start, stop);
    start = stop + 1;
    if (line.trim() === "") continue;
    const parsed = problemOf(EpisodeRecord, line);
    if (parsed.ok) {
      records.set(parsed.value.episodeId, parsed.value);
      lines.push(line);
      continue;
    }
    unreadable.push({
      line: lineNo,
      problem: parsed.problem,
      excerpt: printable(line, EXCERPT_LENGTH),
    });
  }
  const [first] = unreadable;
  if (first && !options.lenient) {
    const more =
      unreadable.length > 1 ? ` (and ${unreadable.length - 1} more unreadable lines)` : "";
    throw new LonghaulError(
      "INVALID_INPUT",
      `invalid episode record: ${first.problem}; the line reads "${first.excerpt}"${more}; to repair: ${REPAIR_HINT}`,
      `${where}:${first.line}`,
    );
  }
  return {
    records,
    completeBytes: utf8ByteLength(text.slice(0, end)),
    torn: end < text.length,
    unreadable,
    lines,
  };
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
