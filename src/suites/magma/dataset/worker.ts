/** A worker thread of the dataset generator: renders the tasks it is given (see pool.ts). */
import { parentPort, workerData } from "node:worker_threads";
import { LonghaulError } from "../../../core/index.ts";
import { renderTask, type TaskContext } from "./generate.ts";
import type { WorkerAnswer } from "./pool.ts";

const ctx = workerData as TaskContext;
const port = parentPort;
if (!port) throw new Error("the dataset worker runs as a worker thread");
port.on("message", (index: number) => {
  let answer: WorkerAnswer;
  try {
    answer = { index, batch: renderTask(index, ctx) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    answer = {
      index,
      error: error instanceof LonghaulError ? { code: error.code, message } : { message },
    };
  }
  // Each format's lines own their memory (Buffer.concat of a task is never pooled): move it.
  const transfer = "batch" in answer ? Object.values(answer.batch.lines).map((l) => l.buffer) : [];
  port.postMessage(answer, transfer as ArrayBuffer[]);
});
