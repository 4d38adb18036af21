/**
 * The run directory on disk: run.json (header), episodes.jsonl (one EpisodeRecord per
 * finished episode, appended and synced as each finishes), traces/<file>.json.gz and, for
 * runs with streams, checkpoints/<stream>/<index>.json (agent memory after each episode).
 *
 * episodes.jsonl may hold several lines for one episode when `retryErrors` reran it: the
 * last line per episodeId wins. A final line without its newline is a write torn by a
 * kill: readers ignore it and a resumed run cuts it off and reruns that episode.
 */
import { existsSync, readFileSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { cp, mkdir, open, readFile, rename, truncate, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { gunzipSync, gzip } from "node:zlib";
import { type EpisodeRecord, LonghaulError, type Trace } from "../core/index.ts";
import {
  checkpointFile,
  parseEpisodeLines,
  parseHeader,
  parseJsonAs,
  parseTrace,
  RUN_FILES,
  StreamCheckpoint,
  traceFile,
} from "./format.ts";
import { identityDifferences, type RunHeader, runIdentity, runIdOf } from "./header.ts";

const gzipAsync = promisify(gzip);

/** Path of an episode's trace inside a run directory. */
export function tracePath(dir: string, episodeId: string): string {
  return join(dir, traceFile(episodeId));
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
  return parseHeader(await readFile(path, "utf8"), path);
}

/** A run header's fields before it has an id, a status and timestamps. */
export type RunFields = Omit<RunHeader, "runId" | "status" | "startedAt" | "updatedAt">;

/**
 * Start or resume the run `fields` describe in `dir`: a directory holding another run (another
 * run id) is a USAGE error naming what differs; a resumed run keeps its records (a torn last
 * line is cut off) and its start time. The header is written with status `started`.
 */
export async function openRunDirectory(
  dir: string,
  fields: RunFields,
): Promise<{ header: RunHeader; kept: Map<string, EpisodeRecord> }> {
  const identity = runIdentity(fields);
  const runId = runIdOf(identity);
  const previous = await readHeaderIfAny(dir);
  if (previous && previous.runId !== runId) {
    const diff = identityDifferences(runIdentity(previous), identity);
    throw new LonghaulError(
      "USAGE",
      `${dir} holds a different run (${previous.runId}, this one is ${runId}): ${diff.join("; ")}; use another --out`,
    );
  }
  const kept = previous ? await recoverEpisodes(dir) : new Map<string, EpisodeRecord>();
  const now = new Date().toISOString();
  const header: RunHeader = {
    runId,
    ...fields,
    status: "started",
    startedAt: previous?.startedAt ?? now,
    updatedAt: now,
  };
  await writeHeader(dir, header);
  return { header, kept };
}

/** Load and validate a run directory: header and records (last line per episode wins). */
export function loadRun(dir: string): { header: RunHeader; records: EpisodeRecord[] } {
  const headerPath = join(dir, RUN_FILES.header);
  if (!existsSync(headerPath)) {
    throw new LonghaulError("NOT_FOUND", "not a run directory (no run.json)", dir);
  }
  const header = parseHeader(readFileSync(headerPath, "utf8"), headerPath);
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

/** Write episodes.jsonl whole (one line per record, in order), atomically. */
export async function writeEpisodes(dir: string, records: EpisodeRecord[]): Promise<void> {
  await writeAtomic(
    join(dir, RUN_FILES.episodes),
    records.map((r) => `${JSON.stringify(r)}\n`).join(""),
  );
}

/** Copy a run's stream checkpoints into another run directory (none: nothing to do). */
export async function copyCheckpoints(from: string, to: string): Promise<void> {
  const source = join(from, RUN_FILES.checkpoints);
  if (existsSync(source)) await cp(source, join(to, RUN_FILES.checkpoints), { recursive: true });
}

/** Write an episode's trace (gzip JSON), atomically. */
export async function writeTrace(dir: string, trace: Trace): Promise<void> {
  // Compress on the thread pool: episodes of a concurrent run often end together, and a
  // synchronous gzip would stall every other episode's model calls meanwhile.
  await writeAtomic(tracePath(dir, trace.episodeId), await gzipAsync(JSON.stringify(trace)));
}

/**
 * Write an episode's trace already gzip'd (by a queue worker), atomically; readers validate it
 * when they read it, as any trace file.
 */
export async function writeTraceBytes(
  dir: string,
  episodeId: string,
  gzipped: Uint8Array,
): Promise<void> {
  await writeAtomic(tracePath(dir, episodeId), gzipped);
}

/** Read and validate a trace file (.json.gz). */
export function readTraceFile(path: string): Trace {
  let text: string;
  try {
    text = gunzipSync(readFileSync(path)).toString("utf8");
  } catch (e) {
    throw new LonghaulError("NOT_FOUND", `cannot read trace: ${(e as Error).message}`, path);
  }
  return parseTrace(text, path);
}

/** Read and validate the trace of one episode of a run directory. */
export function readTrace(dir: string, episodeId: string): Trace {
  return readTraceFile(tracePath(dir, episodeId));
}

/** Write a stream's checkpoint after one of its episodes, atomically. */
export async function writeCheckpoint(dir: string, checkpoint: StreamCheckpoint): Promise<void> {
  const path = join(dir, checkpointFile(checkpoint.stream, checkpoint.index));
  await mkdir(dirname(path), { recursive: true });
  await writeAtomic(path, `${JSON.stringify(checkpoint)}\n`);
}

/** A stream's checkpoint after its episode `index`, or undefined when none was written. */
export async function readCheckpoint(
  dir: string,
  stream: string,
  index: number,
): Promise<StreamCheckpoint | undefined> {
  const path = join(dir, checkpointFile(stream, index));
  if (!existsSync(path)) return undefined;
  return parseJsonAs(StreamCheckpoint, await readFile(path, "utf8"), path, "stream checkpoint");
}
