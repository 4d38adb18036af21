/**
 * `longhaul worker --queue redis://HOST:PORT`: takes episode jobs from the queue and plays them
 * exactly as a local run would (the same runEpisode, the same session), returning the record,
 * the trace and the stream memory as the job's result. Suites and agents are loaded once per
 * worker. A worker killed mid-episode stops renewing its job's lock: BullMQ's stalled-job check
 * moves the job back to the queue and another worker reruns it. Agent decisions yield to the
 * event loop, so a long episode of synchronous steps never starves the lock renewal.
 */
import { setMaxListeners } from "node:events";
import { hostname } from "node:os";
import { type Job, UnrecoverableError, Worker } from "bullmq";
import { createAgent } from "../../agents/index.ts";
import {
  AdaptiveLimiter,
  type Agent,
  type AgentSession,
  type Suite,
  suiteHash,
  type TaskSpec,
} from "../../core/index.ts";
import { runEpisode } from "../../run/index.ts";
import { type GetSuiteOptions, getSuite } from "../../suites/index.ts";
import {
  DEFAULT_QUEUE_NAME,
  EpisodeJob,
  type EpisodeJobResult,
  packTrace,
  queueUrl,
} from "./jobs.ts";

/** What a worker is started with. */
export interface WorkerOptions {
  /** redis://HOST:PORT */
  url: string;
  queueName?: string;
  /** Episodes played at once (default 4). */
  concurrency?: number;
  /** How long a job's lock lives without renewal (default 30,000 ms; renewed every half). */
  lockMs?: number;
  /** How often stalled jobs are looked for (default 30,000 ms). */
  stalledMs?: number;
  /** Times a job may stall before it fails (default 5). */
  maxStalledCount?: number;
  suiteOptions?: GetSuiteOptions;
  /** Told about each episode played. */
  onEpisode?: (result: EpisodeJobResult) => void;
  onError?: (message: string) => void;
}

/** A running worker. */
export interface QueueWorker {
  /** host:pid, as results name it. */
  id: string;
  /** Stop taking jobs and wait for the episodes in flight to finish. */
  close(): Promise<void>;
}

/** A suite compiled as a job asks for, with its tasks by id. */
interface LoadedSuite {
  suite: Suite;
  hash: string;
  byId: Map<string, TaskSpec>;
}

/** An agent whose every decision first yields to the event loop (timers, lock renewals). */
export function yielding(agent: Agent): Agent {
  return {
    ...agent,
    start: async (card, context): Promise<AgentSession> => {
      const session = await agent.start(card, context);
      return {
        act: async (observation) => {
          await new Promise((resolve) => setImmediate(resolve));
          return session.act(observation);
        },
        ...(session.end ? { end: (summary) => session.end!(summary) } : {}),
        ...(session.snapshot ? { snapshot: () => session.snapshot!() } : {}),
      };
    },
  };
}

/** Start a worker on the queue at `options.url`. */
export async function startQueueWorker(options: WorkerOptions): Promise<QueueWorker> {
  const url = queueUrl(options.url);
  const concurrency = options.concurrency ?? 4;
  const id = `${hostname()}:${process.pid}`;
  const suites = new Map<string, Promise<LoadedSuite>>();
  const agents = new Map<string, Promise<Agent>>();
  const gate = new AdaptiveLimiter(concurrency);
  // Episodes are never abandoned by the worker: closing waits for them (see close()).
  const signal = new AbortController().signal;
  // Every episode in flight listens to this signal: that many listeners is by design.
  setMaxListeners(0, signal);

  const suiteFor = (job: EpisodeJob): Promise<LoadedSuite> => {
    const key = JSON.stringify([job.suite.id, job.compile ?? {}]);
    let loaded = suites.get(key);
    if (!loaded) {
      loaded = (async () => {
        const suite = await getSuite(job.suite.id, options.suiteOptions ?? {});
        const specs = suite.compile(job.compile);
        return { suite, hash: suiteHash(suite, specs), byId: new Map(specs.map((s) => [s.id, s])) };
      })();
      loaded.catch(() => suites.delete(key));
      suites.set(key, loaded);
    }
    return loaded;
  };
  const agentFor = (job: EpisodeJob, suite: Suite): Promise<Agent> => {
    const key = JSON.stringify([suite.id, job.agent]);
    let agent = agents.get(key);
    if (!agent) {
      agent = createAgent(job.agent.name, job.agent.options, suite).then((a) => yielding(a.agent));
      agent.catch(() => agents.delete(key));
      agents.set(key, agent);
    }
    return agent;
  };

  const play = async (job: Job): Promise<EpisodeJobResult> => {
    const parsed = EpisodeJob.safeParse(job.data);
    if (!parsed.success)
      throw new UnrecoverableError(`malformed job ${job.id}: ${parsed.error.message}`);
    const data = parsed.data;
    const loaded = await suiteFor(data);
    if (loaded.suite.version !== data.suite.version || loaded.hash !== data.suite.hash) {
      throw new UnrecoverableError(
        `this worker's ${data.suite.id} is ${loaded.suite.version} (hash ${loaded.hash}), the run's is ${data.suite.version} (hash ${data.suite.hash}): run the same longhaul on every worker`,
      );
    }
    const spec = loaded.byId.get(data.taskId);
    if (!spec) throw new UnrecoverableError(`no task ${data.taskId} in ${data.suite.id}`);
    const agent = await agentFor(data, loaded.suite);
    const result = await runEpisode({
      suite: loaded.suite,
      agent,
      planned: {
        episodeId: data.episodeId,
        spec,
        epoch: data.epoch,
        ...(data.stream ? { stream: data.stream } : {}),
      },
      seed: data.seed,
      access: data.access,
      ...(data.budgets ? { budgets: data.budgets } : {}),
      gate,
      signal,
      maxConsecutiveFormatErrors: data.maxConsecutiveFormatErrors,
      ...(data.memory !== undefined ? { memory: data.memory as never } : {}),
    });
    if (result.kind !== "done") throw new Error(`episode ${data.episodeId} was abandoned`);
    const out: EpisodeJobResult = {
      episodeId: data.episodeId,
      record: result.record,
      ...(result.trace ? { trace: await packTrace(result.trace) } : {}),
      ...(result.memory !== undefined ? { memory: result.memory } : {}),
      worker: id,
    };
    options.onEpisode?.(out);
    return out;
  };

  const worker = new Worker(options.queueName ?? DEFAULT_QUEUE_NAME, play, {
    name: id,
    connection: { url, maxRetriesPerRequest: null },
    concurrency,
    lockDuration: options.lockMs ?? 30_000,
    stalledInterval: options.stalledMs ?? 30_000,
    maxStalledCount: options.maxStalledCount ?? 5,
  });
  worker.on("error", (e) => options.onError?.(e.message));
  worker.on("failed", (job, e) =>
    options.onError?.(`job ${job?.name ?? "?"} failed: ${e.message}`),
  );
  await worker.waitUntilReady();
  return { id, close: () => worker.close() };
}
