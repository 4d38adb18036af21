/**
 * Writes gzip'd JSON files (traces) on one worker thread. The event loop only hands the value
 * over (a structured clone, about as costly as JSON.stringify); serialising, encoding to UTF-8,
 * compressing and writing happen beside it. Encoding a fresh ~100 KB JSON string costs the loop
 * three to four times what serialising it does (measured 1.7-2 ms against 0.45-0.6 ms per
 * RoboGraph trace, whatever the encoding: V8 flattens the stringifier's pieces first), and
 * `zlib.gzip` on the thread pool still takes its input as bytes made on the loop.
 */
import { Worker } from "node:worker_threads";

/**
 * The worker: serialise, gzip, write a temporary file, rename it into place (atomic). A plain
 * object is serialised member by member and each piece encoded into one buffer: one string for
 * the whole trace is two-byte as soon as any member has a character beyond Latin-1 (a card's
 * curly quote), and encoding that takes ten times as long (1.26 ms against 0.1 ms for a RoboGraph
 * trace, measured).
 */
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { writeFileSync, renameSync } = require("node:fs");
const { gzipSync } = require("node:zlib");
const piecesOf = (value) => {
  const plain = value !== null && typeof value === "object" && !Array.isArray(value);
  if (!plain || typeof value.toJSON === "function") return [JSON.stringify(value)];
  const pieces = [];
  for (const key of Object.keys(value)) {
    const text = JSON.stringify(value[key]);
    if (text !== undefined) pieces.push((pieces.length ? "," : "{") + JSON.stringify(key) + ":" + text);
  }
  pieces.push(pieces.length ? "}" : "{}");
  return pieces;
};
const encode = (pieces) => {
  let size = 0;
  for (const piece of pieces) size += Buffer.byteLength(piece);
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const piece of pieces) at += bytes.write(piece, at);
  return bytes;
};
parentPort.on("message", ({ id, path, tmp, value, text }) => {
  try {
    writeFileSync(tmp, gzipSync(encode(text !== undefined ? [text] : piecesOf(value))));
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

/**
 * Write `value` as gzip'd JSON to `path` atomically (through `tmp`), off the event loop. The
 * bytes are JSON.stringify's of `value`: a value that cannot be cloned (one holding a function)
 * is serialised here instead.
 */
export function writeGzipJson(path: string, tmp: string, value: unknown): Promise<void> {
  const w = started();
  const id = nextId++;
  return new Promise<void>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    if (pending.size === 1) w.ref();
    try {
      w.postMessage({ id, path, tmp, value });
    } catch {
      w.postMessage({ id, path, tmp, text: JSON.stringify(value) });
    }
  });
}
