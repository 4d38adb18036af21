/**
 * Writes gzip'd JSON files (traces) on one worker thread. The event loop joins the JSON's pieces
 * (core/lazy-json.ts: text, and observations' bytes that were never parsed) into one buffer and
 * hands it over without a copy; compressing and writing happen beside it. Handing the trace over
 * as a value instead would cost the loop a structured clone, several times what serialising it
 * does (a RoboGraph card: 5.0 us per step to clone against about 1 to stringify, measured).
 */
import { Worker } from "node:worker_threads";
import type { JsonPieces } from "../core/index.ts";

/**
 * The worker: gzip, write a temporary file, rename it into place (atomic). It runs at the lowest
 * priority (Linux: a thread's own nice value). Its gzip bursts held a CPU that a parallel GC of
 * the server's event loop needed for a helper thread, so the loop, and every step waiting on it,
 * waited for the gzip (a paced 64-socket p99 0.56-0.83x without this, bench/RESULTS.md session
 * 8). Nothing waits for a write but a shutdown, and a niced thread still gets a share of a busy
 * CPU.
 */
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { writeFileSync, renameSync, readlinkSync } = require("node:fs");
const { gzipSync } = require("node:zlib");
const { setPriority, constants } = require("node:os");
try {
  setPriority(Number(readlinkSync("/proc/thread-self").split("/").pop()), constants.priority.PRIORITY_LOW);
} catch {}
parentPort.on("message", ({ id, path, tmp, bytes }) => {
  try {
    writeFileSync(tmp, gzipSync(bytes));
    renameSync(tmp, path);
    parentPort.postMessage({ id });
  } catch (e) {
    parentPort.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
});
`;

interface Pending {
  resolve: () => void;
  reject: (e: Error) => void;
}

let worker: Worker | undefined;
const pending = new Map<number, Pending>();
let nextId = 0;

/** The worker, started on first use; it keeps the process alive only while writes are pending. */
function started(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER_SOURCE, { eval: true });
  w.on("message", ({ id, error }: { id: number; error?: string }) => {
    const p = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) w.unref();
    if (error === undefined) p?.resolve();
    else p?.reject(new Error(error));
  });
  const fail = (e: Error) => {
    if (worker === w) worker = undefined;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  w.on("error", fail);
  w.on("exit", (code) => fail(new Error(`the trace writer thread exited (${code})`)));
  w.unref();
  worker = w;
  return w;
}

/** The UTF-8 of the pieces in one buffer of its own (so it can be transferred). */
function joined(pieces: JsonPieces): Buffer {
  let size = 0;
  for (const piece of pieces)
    size += typeof piece === "string" ? Buffer.byteLength(piece) : piece.byteLength;
  const bytes = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (const piece of pieces) {
    if (typeof piece === "string") at += bytes.write(piece, at);
    else {
      bytes.set(piece, at);
      at += piece.byteLength;
    }
  }
  return bytes;
}

/**
 * Write JSON given as pieces (see jsonPieces) gzip'd to `path`, atomically (through `tmp`). The
 * pieces are joined here, before the first await: the pending promise holds nothing of them.
 */
export function writeGzipJson(path: string, tmp: string, pieces: JsonPieces): Promise<void> {
  const w = started();
  const id = nextId++;
  const bytes = joined(pieces);
  return new Promise<void>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    if (pending.size === 1) w.ref();
    w.postMessage({ id, path, tmp, bytes }, [bytes.buffer as ArrayBuffer]);
  });
}
