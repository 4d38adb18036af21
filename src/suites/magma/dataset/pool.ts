/**
 * Worker threads for the dataset: each builds and renders whole tasks (the CPU-heavy part:
 * scenario programs, the expert's play, augmentations, both row formats) and hands back its
 * lines joined per format, transferred without a copy; the main thread writes them in task
 * order, so the files are byte-identical whatever the number of workers. Tasks are handed out
 * a few ahead of the writer; those past the stopping point are dropped.
 */
import type { Worker } from "node:worker_threads";
import { type ErrorCode, LonghaulError } from "../../../core/index.ts";
import { startModuleWorker } from "../../../training/index.ts";
import type { TaskBatch, TaskContext } from "./generate.ts";

/** A worker's answer: the task's batch, or the error that stopped it. */
export type WorkerAnswer =
  | { index: number; batch: TaskBatch }
  | { index: number; error: { code?: ErrorCode; message: string } };

/** Render tasks 0, 1, ... on `count` workers and `write` them in order while `more()`. */
export async function renderInWorkers(
  ctx: TaskContext,
  count: number,
  more: () => boolean,
  write: (batch: TaskBatch) => void,
): Promise<void> {
  const pool = Array.from({ length: count }, () =>
    startModuleWorker(import.meta.url, "worker", ctx),
  );
  const ahead = 2 * count;
  try {
    await new Promise<void>((resolve, reject) => {
      const waiting = new Map<number, WorkerAnswer>();
      let next = 0;
      let sent = 0;
      let done = !more();
      const give = (worker: Worker) => {
        if (!done && sent < next + ahead) worker.postMessage(sent++);
      };
      if (done) return resolve();
      for (const worker of pool) {
        worker.on("message", (answer: WorkerAnswer) => {
          waiting.set(answer.index, answer);
          try {
            for (let ready = waiting.get(next); ready && !done; ready = waiting.get(next)) {
              waiting.delete(next++);
              if ("error" in ready)
                throw ready.error.code
                  ? new LonghaulError(ready.error.code, ready.error.message)
                  : new Error(ready.error.message);
              write(ready.batch);
              done = !more();
            }
          } catch (error) {
            done = true;
            reject(error);
            return;
          }
          if (done) return resolve();
          for (const w of pool) give(w);
        });
        worker.on("error", (error) => {
          done = true;
          reject(error);
        });
        worker.on("exit", (code) => {
          if (!done) reject(new Error(`a dataset worker exited (code ${code}) before the end`));
        });
        give(worker);
        give(worker);
      }
    });
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}
