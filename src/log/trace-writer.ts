/**
 * Writes gzip'd JSON files (traces) on one worker thread. The event loop only hands the value
 * over (a structured clone, about as costly as JSON.stringify); serialising, encoding to UTF-8,
 * compressing and writing happen beside it. Encoding a fresh ~100 KB JSON string costs the loop
 * three to four times what serialising it does (measured 1.7-2 ms against 0.45-0.6 ms per
 * RoboGraph trace, whatever the encoding: V8 flattens the stringifier's pieces first), and
 * `zlib.gzip` on the thread pool still takes its input as bytes made on the loop.
 */
import { Worker } from "node:worker_threads";
import type { JsonPieces } from "../core/index.ts";

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
const piecesOf = (value, members) => {
  const plain = value !== null && typeof value === "object" && !Array.isArray(value);
  if (!plain || typeof value.toJSON === "function") return [JSON.stringify(value)];
  const pieces = [];
  let first = true;
  for (const key of Object.keys(value)) {
    const given = members && Object.hasOwn(members, key) ? members[key] : undefined;
    const text = given ? undefined : JSON.stringify(value[key]);
    if (!given && text === undefined) continue;
    pieces.push((first ? "{" : ",") + JSON.stringify(key) + ":");
    if (given) pieces.push(...given);
    else pieces.push(text);
    first = false;
  }
  pieces.push(first ? "{}" : "}");
  return pieces;
};
const sizeOf = (piece) => (typeof piece === "string" ? Buffer.byteLength(piece) : piece.byteLength);
const encode = (pieces) => {
  let size = 0;
  for (const piece of pieces) size += sizeOf(piece);
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const piece of pieces) {
    if (typeof piece === "string") at += bytes.write(piece, at);
    else {
      bytes.set(piece, at);
      at += piece.byteLength;
    }
  }
  return bytes;
};
parentPort.on("message", ({ id, path, tmp, value, members }) => {
  try {
    writeFileSync(tmp, gzipSync(encode(piecesOf(value, members))));
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
 * bytes are JSON.stringify's of `value`, except that the top-level members named in `members`
 * are written as the JSON pieces given there (`value` keeps their place in the key order). A
 * value that cannot be cloned (one holding a function) is serialised here instead.
 */
export function writeGzipJson(
  path: string,
  tmp: string,
  value: unknown,
  members?: Record<string, JsonPieces>,
): Promise<void> {
  const w = started();
  const id = nextId++;
  return new Promise<void>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    if (pending.size === 1) w.ref();
    try {
      w.postMessage({ id, path, tmp, value, members });
    } catch {
      // What JSON keeps of it (functions dropped), which the thread can receive.
      const json = JSON.stringify(value);
      w.postMessage({
        id,
        path,
        tmp,
        value: json === undefined ? null : JSON.parse(json),
        members,
      });
    }
  });
}
