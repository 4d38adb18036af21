/**
 * The run directory on disk: run.json (header), episodes.jsonl (one EpisodeRecord per
 * finished episode, appended and synced as each finishes), traces/<file>.json.gz and, for
 * runs with streams, checkpoints/<stream>/<index>.json (agent memory after each episode).
 *
 * episodes.jsonl may hold several lines for one episode when `retryErrors` reran it: the
 * last line per episodeId wins. A final line without its newline is a write torn by a
 * kill: readers ignore it and a resumed run cuts it off and reruns that episode.
 */
import { accessSync, constants, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import {
  copyFile,
  cp,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  truncate,
  writeFile,
} from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { gunzipSync, gzip } from "node:zlib";
import {
  type EpisodeRecord,
  jsonPieces,
  jsonText,
  LonghaulError,
  printable,
  type Trace,
} from "../core/index.ts";
import {
  checkpointFile,
  parseEpisodeLines,
  parseHeader,
  parseJsonAs,
  parseTrace,
  RUN_FILES,
  StreamCheckpoint,
  traceFile,
  type UnreadableLine,
} from "./format.ts";
import { identityDifferences, type RunHeader, runIdentity, runIdOf } from "./header.ts";
import { writeGzipJson } from "./trace-writer.ts";

/** Text as written to a run directory: secrets replaced (the identity when none are known). */
export type Redact = (text: string) => string;
const asIs: Redact = (text) => text;
const gzipAsync = promisify(gzip);

/** Marks the temporary file of an atomic write: `<file>.tmp-<pid>`. */
const TEMP_MARK = ".tmp-";

/** Path of an episode's trace inside a run directory. */
export function tracePath(dir: string, episodeId: string): string {
  return join(dir, traceFile(episodeId));
}

/** The temporary file an atomic write of `path` goes through. */
const tempPathOf = (path: string) => `${path}${TEMP_MARK}${process.pid}`;

/** Write a file atomically (temporary file, then rename), so readers never see half of it. */
async function writeAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = tempPathOf(path);
  await writeFile(tmp, data);
  await rename(tmp, path);
}

/** Create the directory layout and write (or rewrite) the header. */
export async function writeHeader(
  dir: string,
  header: RunHeader,
  redact: Redact = asIs,
): Promise<void> {
  await mkdir(join(dir, RUN_FILES.traces), { recursive: true });
  await writeAtomic(join(dir, RUN_FILES.header), redact(`${JSON.stringify(header, null, 2)}\n`));
}

/**
 * A fresh run directory under `root`: `<suite>-<agent>-<YYYYMMDD-HHMMSS>` (UTC), with `-2`,
 * `-3`, ... when taken, so a second run never lands in the first one's directory. `agent` is
 * the model for the llm agent ("openai:gpt-4o" -> "openai-gpt-4o").
 */
export function defaultRunDirectory(root: string, suite: string, agent: string, at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const name = `${suite}-${agent}-${stamp}`.replace(/[^A-Za-z0-9._-]+/g, "-");
  let dir = join(root, name);
  for (let n = 2; existsSync(dir); n++) dir = join(root, `${name}-${n}`);
  return dir;
}

/**
 * Check that `dir` can hold a run before anything is written: "new" when it does not exist or
 * is empty, "run" when it holds one (run.json). A file, a directory holding other things, or
 * a place that cannot be written is a USAGE error, so a refused run creates nothing.
 */
export function checkRunDirectory(dir: string): "new" | "run" {
  const path = resolve(dir);
  if (existsSync(path)) {
    if (!statSync(path).isDirectory()) {
      throw new LonghaulError("USAGE", `${path} is a file, not a run directory; use another --out`);
    }
    if (existsSync(join(path, RUN_FILES.header))) return writable(path, "run");
    if (readdirSync(path).length > 0) {
      throw new LonghaulError(
        "USAGE",
        `${path} is not empty and holds no run (no run.json); use a new or empty --out`,
      );
    }
    return writable(path, "new");
  }
  // The nearest existing ancestor must let us create the directory.
  let parent = dirname(path);
  while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
  if (!statSync(parent).isDirectory()) {
    throw new LonghaulError("USAGE", `cannot create ${path}: ${parent} is a file`);
  }
  return writable(parent, "new");
}

function writable<T>(path: string, result: T): T {
  try {
    accessSync(path, constants.W_OK);
  } catch {
    throw new LonghaulError("USAGE", `cannot write to ${path}; use another --out`);
  }
  return result;
}

/**
 * Remove the temporary files of atomic writes a killed run left behind (`*.tmp-<pid>` in the
 * run directory, traces/ and checkpoints/); returns how many were removed.
 */
export async function removeLeftovers(dir: string): Promise<number> {
  let removed = 0;
  const sweep = async (folder: string, depth: number): Promise<void> => {
    if (!existsSync(folder)) return;
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory() && depth > 0) await sweep(path, depth - 1);
      else if (entry.isFile() && entry.name.includes(TEMP_MARK)) {
        await rm(path, { force: true });
        removed++;
      }
    }
  };
  await sweep(dir, 0);
  await sweep(join(dir, RUN_FILES.traces), 0);
  await sweep(join(dir, RUN_FILES.checkpoints), 1);
  return removed;
}

/** What `repairEpisodes` did. */
export interface RepairResult {
  /** The unreadable lines dropped (a torn final line included). */
  dropped: UnreadableLine[];
  /** Where the original file was copied, when anything was dropped. */
  backup?: string;
}

/**
 * Drop the unreadable lines of a run's episodes.jsonl after copying it to
 * `episodes.jsonl.bak` (`.bak-2`, ... when taken): the readable lines stay, in order. A
 * resumed run replays the episodes whose lines were dropped.
 */
export async function repairEpisodes(dir: string): Promise<RepairResult> {
  const path = join(dir, RUN_FILES.episodes);
  if (!existsSync(path)) return { dropped: [] };
  const text = await readFile(path, "utf8");
  const parsed = parseEpisodeLines(text, path, { lenient: true });
  const dropped = [...parsed.unreadable];
  if (parsed.torn) {
    const tail = text.slice(text.lastIndexOf("\n") + 1);
    dropped.push({
      line: text.split("\n").length,
      problem: "torn final line (no newline: the write was cut off)",
      excerpt: printable(tail, 80),
    });
  }
  if (dropped.length === 0) return { dropped };
  let backup = `${path}.bak`;
  for (let n = 2; existsSync(backup); n++) backup = `${path}.bak-${n}`;
  await copyFile(path, backup);
  await writeAtomic(path, parsed.lines.map((line) => `${line}\n`).join(""));
  return { dropped, backup };
}

/** The header of an existing run directory, or undefined when there is none. */
export async function readHeaderIfAny(dir: string): Promise<RunHeader | undefined> {
  const path = join(dir, RUN_FILES.header);
  if (!existsSync(path)) return undefined;
  return parseHeader(await readFile(path, "utf8"), path);
}

/** A run header's fields before it has an id, a status and timestamps. */
export type RunFields = Omit<RunHeader, "runId" | "status" | "startedAt" | "updatedAt">;

/** What opening a run directory found and did. */
export interface OpenedRun {
  header: RunHeader;
  /** The records of a resumed run, by episode id. */
  kept: Map<string, EpisodeRecord>;
  /** Leftover temporary files removed (a resumed run only). */
  leftovers: number;
  /** What `repair` dropped from episodes.jsonl (a resumed run only). */
  repaired?: RepairResult;
  /** Whether the directory did not exist before this call (the caller may remove it again). */
  created: boolean;
}

/**
 * Start or resume the run `fields` describe in `dir` (checked with checkRunDirectory): a
 * directory holding another run (another run id) is a USAGE error naming what differs; a
 * resumed run loses its leftover temporary files, keeps its records (a torn last line is cut
 * off; unreadable lines are dropped first with `repair`) and its start time. The header is
 * written, through `redact`, with status `started`.
 */
export async function openRunDirectory(
  dir: string,
  fields: RunFields,
  options: { redact?: Redact; repair?: boolean } = {},
): Promise<OpenedRun> {
  const identity = runIdentity(fields);
  const runId = runIdOf(identity);
  const existing = checkRunDirectory(dir) === "run";
  const previous = existing ? await readHeaderIfAny(dir) : undefined;
  if (previous && previous.runId !== runId) {
    const diff = identityDifferences(runIdentity(previous), identity);
    throw new LonghaulError(
      "USAGE",
      `${dir} holds a different run (${previous.runId}, this one is ${runId}): ${diff.join("; ")}; use another --out`,
    );
  }
  const repaired = previous && options.repair ? await repairEpisodes(dir) : undefined;
  const leftovers = previous ? await removeLeftovers(dir) : 0;
  const kept = previous ? await recoverEpisodes(dir) : new Map<string, EpisodeRecord>();
  const created = !previous && !existsSync(dir);
  const now = new Date().toISOString();
  const header: RunHeader = {
    runId,
    ...fields,
    status: "started",
    startedAt: previous?.startedAt ?? now,
    updatedAt: now,
  };
  await writeHeader(dir, header, options.redact);
  return { header, kept, leftovers, created, ...(repaired ? { repaired } : {}) };
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
 * file so the next append starts on a fresh line. An unreadable line throws (see REPAIR_HINT).
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

  private constructor(
    private readonly handle: FileHandle,
    private readonly redact: Redact,
  ) {}

  /** Open (creating if needed) the episode log of a run directory for appending. */
  static async open(dir: string, redact: Redact = asIs): Promise<EpisodeLog> {
    return new EpisodeLog(await open(join(dir, RUN_FILES.episodes), "a"), redact);
  }

  /** Append one record as one line; resolves once it is on disk. */
  append(record: EpisodeRecord): Promise<void> {
    const line = `${this.redact(JSON.stringify(record))}\n`;
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

/**
 * Write an episode's trace (gzip JSON), atomically. The trace is serialised before the first
 * await, so the pending promise holds nothing of it: a server's traces waiting for the disk must
 * not keep whole episodes in its heap (with 64 sockets saturated, 200 traces wait at times).
 */
export async function writeTrace(dir: string, trace: Trace, redact?: Redact): Promise<void> {
  const path = tracePath(dir, trace.episodeId);
  // Compress and write on the trace writer's thread: a server ends hundreds of episodes a second.
  // The JSON is made here from pieces: its observations are JSON bytes already (core/lazy-json.ts).
  if (!redact) return writeGzipJson(path, tempPathOf(path), jsonPieces(trace));
  // Secrets are replaced in the text; compressed on the thread pool, since episodes of a
  // concurrent run often end together and a synchronous gzip would stall the others.
  const text = redact(jsonText(trace));
  return gzipAsync(text).then((gzipped) => writeAtomic(path, gzipped));
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
export async function writeCheckpoint(
  dir: string,
  checkpoint: StreamCheckpoint,
  redact: Redact = asIs,
): Promise<void> {
  const path = join(dir, checkpointFile(checkpoint.stream, checkpoint.index));
  await mkdir(dirname(path), { recursive: true });
  await writeAtomic(path, `${redact(JSON.stringify(checkpoint))}\n`);
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
