/**
 * The coordinator side of `longhaul run ... --queue redis://HOST:PORT`: the runner plans,
 * resumes and writes the run directory as always, and plays each episode by enqueueing it as a
 * BullMQ job and waiting for a worker's result. At-least-once delivery is made exactly-once in
 * the run directory: job ids are derived from the run and episode ids (enqueueing twice is a
 * no-op, and a restarted coordinator finds the jobs it had enqueued, finished ones included),
 * BullMQ accepts one completion per job (a worker whose lock expired cannot complete it), and one
 * coordinator per run holds a lock in Redis, so no two processes write the same records.
 */
import { hostname } from "node:os";
import { type Job, Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import { type CompileOptions, LonghaulError, type Suite, suiteHash } from "../../core/index.ts";
import { writeTraceBytes } from "../../log/index.ts";
import type { EpisodeResult, EpisodeSetup } from "../../run/index.ts";
import {
  DEFAULT_QUEUE_NAME,
  type EpisodeJob,
  EpisodeJobResult,
  jobIdOf,
  queueUrl,
  traceBytes,
} from "./jobs.ts";

/** What the coordinator is opened with. */
export interface CoordinatorOptions {
  /** redis://HOST:PORT */
  url: string;
  queueName?: string;
  /** The agent as workers create it: its name and JSON options, without secrets. */
  agent: { name: string; options: Record<string, unknown> };
  /** The suite's compile options (workers compile with the same). */
  compile?: CompileOptions;
  /** How long the run's lock lives without renewal (default 10 s). */
  lockTtlMs?: number;
}

/** A coordinator: the runner's episode executor, backed by the queue. */
export interface Coordinator {
  execute<P>(
    setup: EpisodeSetup<P>,
    run: { runId: string; outDir: string },
  ): Promise<EpisodeResult>;
  close(): Promise<void>;
}

/** Resolve when `signal` aborts. */
function aborted(signal: AbortSignal): Promise<"aborted"> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve("aborted");
    else signal.addEventListener("abort", () => resolve("aborted"), { once: true });
  });
}

/** Open a coordinator on the queue at `options.url`. */
export async function openCoordinator(options: CoordinatorOptions): Promise<Coordinator> {
  const url = queueUrl(options.url);
  const name = options.queueName ?? DEFAULT_QUEUE_NAME;
  const connection = { url, maxRetriesPerRequest: null };
  const queue = new Queue(name, { connection, streams: { events: { maxLen: 1000 } } });
  const events = new QueueEvents(name, { connection });
  // Every episode in flight waits on these events: that many listeners is by design.
  events.setMaxListeners(0);
  queue.setMaxListeners(0);
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
  const lock = new RunLock(
    new Redis(url, { maxRetriesPerRequest: null }),
    options.lockTtlMs ?? 10_000,
  );
  const hashes = new WeakMap<Suite, string>();
  const hashOf = (suite: Suite) => {
    let hash = hashes.get(suite);
    if (!hash) {
      hash = suiteHash(suite, suite.compile(options.compile));
      hashes.set(suite, hash);
    }
    return hash;
  };

  return {
    async execute<P>(
      setup: EpisodeSetup<P>,
      run: { runId: string; outDir: string },
    ): Promise<EpisodeResult> {
      await lock.hold(run.runId);
      const { planned, suite } = setup;
      const data: EpisodeJob = {
        runId: run.runId,
        suite: { id: suite.id, version: suite.version, hash: hashOf(suite as Suite) },
        ...(options.compile && Object.keys(options.compile).length > 0
          ? { compile: options.compile }
          : {}),
        episodeId: planned.episodeId,
        taskId: planned.spec.id,
        epoch: planned.epoch,
        ...(planned.stream ? { stream: planned.stream } : {}),
        seed: setup.seed,
        access: setup.access,
        ...(setup.budgets ? { budgets: setup.budgets } : {}),
        maxConsecutiveFormatErrors: setup.maxConsecutiveFormatErrors,
        agent: options.agent,
        ...(setup.memory !== undefined ? { memory: setup.memory } : {}),
      };
      const jobId = jobIdOf(run.runId, planned.episodeId);
      // A job that failed before (an outdated worker, say) is enqueued afresh; any other job of
      // this id (waiting, active, completed while no coordinator listened) is awaited as it is.
      const previous = await queue.getJob(jobId);
      if (previous && (await previous.isFailed())) await previous.remove();
      const job = await queue.add(planned.episodeId, data, {
        jobId,
        attempts: 1,
        removeOnComplete: { age: 7 * 24 * 3600 },
        removeOnFail: { age: 24 * 3600 },
      });
      let value: unknown;
      try {
        value = await Promise.race([job.waitUntilFinished(events), aborted(setup.signal)]);
      } catch (e) {
        throw new LonghaulError(
          "RUNTIME",
          `episode ${planned.episodeId} failed on a worker: ${(e as Error).message}`,
        );
      }
      // Interrupted: the job stays queued; the next coordinator of this run picks it up.
      if (value === "aborted") return { kind: "abandoned" };
      const result = EpisodeJobResult.parse(value);
      if (result.episodeId !== planned.episodeId) {
        throw new LonghaulError(
          "RUNTIME",
          `job ${jobId} returned episode ${result.episodeId}, not ${planned.episodeId}`,
        );
      }
      // The worker's gzip'd trace goes to disk as it is (before the runner appends the record).
      if (result.trace)
        await writeTraceBytes(run.outDir, planned.episodeId, traceBytes(result.trace));
      await removeQuietly(job);
      return {
        kind: "done",
        record: result.record,
        ...(result.memory !== undefined ? { memory: result.memory as never } : {}),
      };
    },
    async close() {
      await lock.release();
      await events.close();
      await queue.close();
    },
  };
}

/** Remove a finished job; a job already gone (removed by age) is fine. */
async function removeQuietly(job: Job): Promise<void> {
  try {
    await job.remove();
  } catch {
    // Removing is housekeeping: the result is already in hand.
  }
}

const RENEW = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

/**
 * One coordinator per run: a Redis key holding `host:pid:nonce`, renewed while this process
 * lives. A holder on this host whose process is gone is taken over at once; otherwise a new
 * coordinator waits for the lock to expire (a crashed holder on another machine), then fails.
 */
class RunLock {
  private key: string | undefined;
  private acquiring: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly value = `${hostname()}:${process.pid}:${Math.floor(performance.now() * 1000)}`;

  constructor(
    private readonly redis: Redis,
    private readonly ttlMs: number,
  ) {}

  /** Hold the lock of `runId` (once; later calls wait for the first). */
  hold(runId: string): Promise<void> {
    this.acquiring ??= this.acquire(`longhaul:coordinator:${runId}`, runId);
    return this.acquiring;
  }

  private async acquire(key: string, runId: string): Promise<void> {
    const deadline = performance.now() + this.ttlMs + 5000;
    for (;;) {
      if ((await this.redis.set(key, this.value, "PX", this.ttlMs, "NX")) === "OK") break;
      const holder = await this.redis.get(key);
      if (holder && this.deadHere(holder)) {
        await this.redis.eval(RELEASE, 1, key, holder);
        continue;
      }
      if (performance.now() > deadline) {
        throw new LonghaulError(
          "USAGE",
          `run ${runId} is already coordinated by ${holder ?? "another process"}; one coordinator per run`,
        );
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    this.key = key;
    this.timer = setInterval(() => {
      void this.redis.eval(RENEW, 1, key, this.value, this.ttlMs).catch(() => undefined);
    }, this.ttlMs / 3).unref();
  }

  /** Whether `holder` names a process on this host that no longer runs. */
  private deadHere(holder: string): boolean {
    const [host, pid] = holder.split(":");
    if (host !== hostname() || !pid) return false;
    try {
      process.kill(Number(pid), 0);
      return false;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === "ESRCH";
    }
  }

  async release(): Promise<void> {
    clearInterval(this.timer);
    try {
      await this.acquiring;
    } catch {
      // Never held: nothing to release.
    }
    if (this.key) await this.redis.eval(RELEASE, 1, this.key, this.value);
    this.redis.disconnect();
  }
}
