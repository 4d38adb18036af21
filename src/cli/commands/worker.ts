/** `longhaul worker --queue redis://HOST:PORT`: play episodes a `run --queue` coordinator enqueues. */
import type { Command } from "commander";
import { positiveInt } from "../args.ts";
import type { CliContext } from "../context.ts";

interface WorkerFlags {
  queue: string;
  queueName: string;
  concurrency: number;
  lockMs: number;
  stalledMs: number;
  quiet?: boolean;
}

/** Register the command. */
export function register(program: Command, ctx: CliContext): void {
  program
    .command("worker")
    .description("play episodes from a queue filled by `longhaul run --queue` (docs/serving.md)")
    .requiredOption("--queue <url>", "the Redis of the queue, redis://HOST:PORT")
    .option("--queue-name <name>", "queue name (as the coordinator's)", "longhaul")
    .option("--concurrency <n>", "episodes at once", positiveInt, 4)
    .option("--lock-ms <ms>", "job lock lifetime; renewed every half of it", positiveInt, 30_000)
    .option(
      "--stalled-ms <ms>",
      "how often jobs of dead workers are re-queued",
      positiveInt,
      30_000,
    )
    .option("--quiet", "no line per episode")
    .action(async (flags: WorkerFlags) => {
      const { startQueueWorker } = await import("../../serve/queue/index.ts");
      const worker = await startQueueWorker({
        url: flags.queue,
        queueName: flags.queueName,
        concurrency: flags.concurrency,
        lockMs: flags.lockMs,
        stalledMs: flags.stalledMs,
        suiteOptions: ctx.suiteOptions,
        onEpisode: (r) => {
          if (!flags.quiet) ctx.io.stderr.write(`${r.episodeId}: ${r.record.status}\n`);
        },
        onError: (message) => ctx.io.stderr.write(`longhaul worker: ${message}\n`),
      });
      ctx.println(
        `longhaul worker ${worker.id}: playing episodes from ${flags.queue} (queue ${flags.queueName}, ${flags.concurrency} at once)`,
      );
      // Work until SIGINT or SIGTERM; then finish the episodes in flight (again: quit at once).
      await new Promise<void>((done) => {
        const stop = () => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          const force = () => process.exit(130);
          process.once("SIGINT", force);
          process.once("SIGTERM", force);
          ctx.io.stderr.write(
            "longhaul worker: finishing the episodes in flight (again to quit at once)\n",
          );
          void worker.close().then(done);
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
    });
}
