/**
 * The run directory on disk: run.json (header), episodes.jsonl (one EpisodeRecord per
 * finished episode, appended and synced as each finishes) and traces/<file>.json.gz.
 *
 * episodes.jsonl may hold several lines for one episode when `retryErrors` reran it: the
 * last line per episodeId wins. A final line without its newline is a write torn by a
 * kill: readers ignore it and a resumed run cuts it off and reruns that episode.
 */
import { existsSync, readFileSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { mkdir, open, readFile, rename, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { gunzipSync, gzip } from "node:zlib";
import type { z } from "zod";
import { EpisodeRecord, formatZodError, LonghaulError, Trace } from "../core/index.ts";
import { RunHeader } from "./header.ts";
import { episodeFileName } from "./plan.ts";

const gzipAsync = promisify(gzip);

/** File names inside a run directory. */
export const RUN_FILES = {
  header: "run.json",
  episodes: "episodes.jsonl",
  traces: "traces",
} as const;

/** Path of an episode's trace inside a run directory. */
export function tracePath(dir: string, episodeId: string): string {
  return join(dir, RUN_FILES.traces, `${episodeFileName(episodeId)}.json.gz`);
}

/** Write a file atomically (temporary file, then rename), so readers never see half of it. */
async function writeAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}

/** Create the directory layout and write (or rewrite) the header. */
export async function writeHeader(dir: string, header: RunHeader): Promise<void> {
  await mkdir(join(dir, RUN_FILES.traces), { recursive: true });
  await writeAtomic(join(dir, RUN_FILES.header), `${JSON.stringify(header, null, 2)}\n`);
}

/** The header of an existing run directory, or undefined when there is none. */
export async function readHeaderIfAny(dir: string): Promise<RunHeader | undefined> {
  const path = join(dir, RUN_FILES.header);
  if (!existsSync(path)) return undefined;
  return parseFile(RunHeader, await readFile(path, "utf8"), path, "run header");
}

/** Parse JSON text with a schema; errors name the file (and line) and the field. */
function parseFile<T>(schema: z.ZodType<T>, text: string, where: string, what: string): T {
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
    const record = parseFile(EpisodeRecord, line, `${where}:${lineNo}`, "episode record");
    records.set(record.episodeId, record);
  }
  return { records, completeBytes: Buffer.byteLength(text.slice(0, end)), torn: end < text.length };
}

/** Load and validate a run directory: header and records (last line per episode wins). */
export function loadRun(dir: string): { header: RunHeader; records: EpisodeRecord[] } {
  const headerPath = join(dir, RUN_FILES.header);
  if (!existsSync(headerPath)) {
    throw new LonghaulError("NOT_FOUND", "not a run directory (no run.json)", dir);
  }
  const header = parseFile(RunHeader, readFileSync(headerPath, "utf8"), headerPath, "run header");
  const episodesPath = join(dir, RUN_FILES.episodes);
  const text = existsSync(episodesPath) ? readFileSync(episodesPath, "utf8") : "";
  return { header, records: [...parseEpisodeLines(text, episodesPath).records.values()] };
}

/**
 * The finished episodes of an existing run, for resuming: a torn final line is cut off the
 * file so the next append starts on a fresh line.
 */
export async function recoverEpisodes(dir: string): Promise<Map<string, EpisodeRecord>> {
  const path = join(dir, RUN_FILES.episodes);
  if (!existsSync(path)) return new Map();
  const text = await readFile(path, "utf8");
  const { records, completeBytes, torn } = parseEpisodeLines(text, path);
  if (torn) await truncate(path, completeBytes);
  return records;
}

/**
 * Appends records to episodes.jsonl. Records that arrive while a write is in progress are
 * written together with one sync (group commit), so many episodes finishing at once do not
 * queue behind one fsync each.
 */
export class EpisodeLog {
  private pending: { line: string; done: () => void; failed: (e: unknown) => void }[] = [];
  private flushing: Promise<void> | undefined;

  private constructor(private readonly handle: FileHandle) {}

  /** Open (creating if needed) the episode log of a run directory for appending. */
  static async open(dir: string): Promise<EpisodeLog> {
    return new EpisodeLog(await open(join(dir, RUN_FILES.episodes), "a"));
  }

  /** Append one record as one line; resolves once it is on disk. */
  append(record: EpisodeRecord): Promise<void> {
    const line = `${JSON.stringify(record)}\n`;
    const written = new Promise<void>((done, failed) => this.pending.push({ line, done, failed }));
    this.flushing ??= this.flush();
    return written;
  }

  /** Write and sync batches until nothing is pending. */
  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      try {
        await this.handle.write(batch.map((p) => p.line).join(""));
        await this.handle.datasync();
        for (const p of batch) p.done();
      } catch (e) {
        for (const p of batch) p.failed(e);
      }
    }
    this.flushing = undefined;
  }

  /** Wait for pending appends and close the file. */
  async close(): Promise<void> {
    await this.flushing;
    await this.handle.close();
  }
}

/** Write an episode's trace (gzip JSON), atomically. */
export async function writeTrace(dir: string, trace: Trace): Promise<void> {
  // Compress on the thread pool: episodes of a concurrent run often end together, and a
  // synchronous gzip would stall every other episode's model calls meanwhile.
  await writeAtomic(tracePath(dir, trace.episodeId), await gzipAsync(JSON.stringify(trace)));
}

/** Read and validate a trace file (.json.gz). */
export function readTraceFile(path: string): Trace {
  let text: string;
  try {
    text = gunzipSync(readFileSync(path)).toString("utf8");
  } catch (e) {
    throw new LonghaulError("NOT_FOUND", `cannot read trace: ${(e as Error).message}`, path);
  }
  return parseFile(Trace, text, path, "trace");
}

/** Read and validate the trace of one episode of a run directory. */
export function readTrace(dir: string, episodeId: string): Trace {
  return readTraceFile(tracePath(dir, episodeId));
}
