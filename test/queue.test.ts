/**
 * BullMQ scale-out against a real redis-server: a coordinator and worker processes on this
 * machine. Workers are killed, frozen past their locks, or outdated; the coordinator is killed
 * and restarted; every episode ends up recorded exactly once, with the records a local run of
 * the same agent gives.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { Queue } from "bullmq";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { createAgent } from "../src/agents/index.ts";
import type { EpisodeRecord, Suite } from "../src/core/index.ts";
import { loadRun, readTrace, tracePath } from "../src/log/index.ts";
import { runSuite } from "../src/run/index.ts";
import {
  jobIdOf,
  openCoordinator,
  packTrace,
  queueUrl,
  unpackTrace,
} from "../src/serve/queue/index.ts";
import { getSuite } from "../src/suites/index.ts";
import { type AgentServer, startAgentServer } from "./stubs/index.ts";
import { spawnLonghaul, workerArgs } from "./support/longhaul-process.ts";
import { describeWithRedis, startRedis, type TestRedis } from "./support/redis.ts";

const LIMIT = 10;

let redis: TestRedis;
let agents: AgentServer;
let suite: Suite;
let expected: Map<string, EpisodeRecord>;
const children: ChildProcess[] = [];
let queueNumber = 0;

/** A worker process and what it printed. */
interface WorkerProcess {
  child: ChildProcess;
  id: string;
  /** Episode ids this worker finished, in order. */
  played: string[];
}

function longhaulProcess(args: string[]): ChildProcess {
  const child = spawnLonghaul(args);
  children.push(child);
  return child;
}

async function startWorker(queueName: string, lockMs = 1500): Promise<WorkerProcess> {
  const child = longhaulProcess(
    workerArgs(
      redis.url,
      queueName,
      "--concurrency",
      "2",
      "--lock-ms",
      String(lockMs),
      "--stalled-ms",
      "500",
    ),
  );
  const played: string[] = [];
  let buffered = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      const match = /^(\S+): (success|failure|invalid)$/.exec(line);
      if (match) played.push(match[1]!);
    }
  });
  const id = await new Promise<string>((resolve, reject) => {
    child.stdout?.once("data", (chunk: Buffer) => {
      const match = /longhaul worker (\S+):/.exec(chunk.toString());
      if (match) resolve(match[1]!);
      else reject(new Error(`unexpected worker output: ${chunk}`));
    });
    child.once("exit", (code) => reject(new Error(`worker exited early (${code})`)));
  });
  return { child, id, played };
}

/** Poll (refreshing with `refresh` first) until `check` holds. */
async function until(
  check: () => boolean,
  what: string,
  ms = 60_000,
  refresh?: () => Promise<void>,
): Promise<void> {
  const deadline = performance.now() + ms;
  for (;;) {
    await refresh?.();
    if (check()) return;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

/** Lines of episodes.jsonl: each planned episode exactly once, with the local run's record. */
function expectExactlyOnce(outDir: string): void {
  const lines = readFileSync(join(outDir, "episodes.jsonl"), "utf8").trim().split("\n");
  const ids = lines.map((l) => (JSON.parse(l) as EpisodeRecord).episodeId);
  expect(ids).toHaveLength(LIMIT);
  expect(new Set(ids).size).toBe(LIMIT);
  const { header, records } = loadRun(outDir);
  expect(header.status).toBe("finished");
  expect(header.planned).toBe(LIMIT);
  for (const record of records) {
    const { wallMs: _a, agent: _b, ...got } = record;
    const { wallMs: _c, agent: _d, ...want } = expected.get(record.episodeId)!;
    expect(got).toEqual(want);
    // The worker's trace, written as it sent it, reads back with the same record.
    expect(readTrace(outDir, record.episodeId).record).toEqual(record);
  }
}

/** Run robograph's first LIMIT tasks with the http agent, coordinated in this process. */
async function coordinate(
  queueName: string,
  outDir: string,
  run: { suite?: Suite; agentUrl?: string } = {},
) {
  const agentName = `http:${run.agentUrl ?? agents.url}`;
  const { agent, config } = await createAgent(agentName, {}, suite);
  const coordinator = await openCoordinator({
    url: redis.url,
    queueName,
    agent: { name: agentName, options: {} },
  });
  const progress: number[] = [];
  try {
    return {
      progress,
      summary: await runSuite({
        suite: run.suite ?? suite,
        agent,
        agentConfig: config,
        outDir,
        seed: "0",
        epochs: 1,
        concurrency: 64,
        limit: LIMIT,
        execute: coordinator.execute,
        onProgress: (p) => progress.push(p.done),
      }),
    };
  } finally {
    await coordinator.close();
  }
}

// Worker and coordinator processes start with tsx on a shared machine: allow them time.
const SLOW = { timeout: 240_000 };

describeWithRedis("BullMQ scale-out", () => {
  beforeAll(async () => {
    redis = await startRedis();
    suite = await getSuite("robograph", { cache: true });
    const { agent } = await createAgent("explorer", {}, suite);
    // A latency per decision, as a model would take: episodes last long enough to be interrupted.
    agents = await startAgentServer(agent, { latencyMs: 25 });
    const local = await runSuite({
      suite,
      agent,
      agentConfig: { name: "explorer" },
      outDir: mkdtempSync(join(tmpdir(), "longhaul-local-")),
      seed: "0",
      epochs: 1,
      concurrency: 4,
      limit: LIMIT,
    });
    expected = new Map(local.records.map((r) => [r.episodeId, r]));
  }, SLOW.timeout);

  afterEach(() => {
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  });

  afterAll(async () => {
    await agents?.close();
    await redis?.stop();
  });

  it(
    "two workers, one killed mid-run: its episodes are rerun, every episode recorded once",
    SLOW,
    async () => {
      const name = `q${++queueNumber}`;
      const outDir = mkdtempSync(join(tmpdir(), "longhaul-queue-"));
      const [a, b] = await Promise.all([startWorker(name), startWorker(name)]);
      const running = coordinate(name, outDir);
      await until(() => a.played.length >= 1, "worker A's first episode");
      // What A holds when it dies: these jobs stall, return to the queue and run again on B.
      const queue = new Queue(name, { connection: { url: redis.url } });
      let held: string[] = [];
      await until(
        () => held.length > 0,
        "a job held by worker A",
        60_000,
        async () => {
          held = (await queue.getActive()).filter((j) => j.processedBy === a.id).map((j) => j.name);
        },
      );
      a.child.kill("SIGKILL");
      const { summary } = await running;
      await queue.close();
      expect(summary.status).toBe("finished");
      expect(summary.ran).toBe(LIMIT);
      expect(held.length).toBeGreaterThan(0);
      // A can finish a held job between the look and the kill (it says so before it dies);
      // every other held job stalls and is rerun on B.
      for (const episode of held) {
        if (!a.played.includes(episode)) expect(b.played).toContain(episode);
      }
      expectExactlyOnce(outDir);
      b.child.kill("SIGTERM");
      expect(await exited(b.child)).toBe(0);
    },
  );

  it(
    "a frozen worker loses its jobs to another; its late completion is dropped",
    SLOW,
    async () => {
      const name = `q${++queueNumber}`;
      const outDir = mkdtempSync(join(tmpdir(), "longhaul-queue-"));
      const a = await startWorker(name, 1000);
      const running = coordinate(name, outDir);
      await until(() => a.played.length >= 1, "worker A's first episode");
      a.child.kill("SIGSTOP");
      const b = await startWorker(name);
      const { summary } = await running;
      expect(summary.status).toBe("finished");
      // A wakes up, finishes what it held and tries to complete it: BullMQ refuses (lock lost).
      a.child.kill("SIGCONT");
      await new Promise((r) => setTimeout(r, 1500));
      expect(b.played.length).toBeGreaterThan(0);
      expectExactlyOnce(outDir);
    },
  );

  it(
    "a coordinator killed mid-run resumes where it stopped, finished jobs included",
    SLOW,
    async () => {
      const name = `q${++queueNumber}`;
      const outDir = mkdtempSync(join(tmpdir(), "longhaul-queue-"));
      await Promise.all([startWorker(name), startWorker(name)]);
      const args = [
        "run",
        "robograph",
        "--agent",
        `http:${agents.url}`,
        "--limit",
        String(LIMIT),
        "--queue",
        redis.url,
        "--queue-name",
        name,
        "--out",
        outDir,
        "--no-report",
      ];
      const first = longhaulProcess(args);
      const episodes = join(outDir, "episodes.jsonl");
      const count = () =>
        existsSync(episodes) ? readFileSync(episodes, "utf8").split("\n").length - 1 : 0;
      await until(() => count() >= 2, "two recorded episodes");
      first.kill("SIGKILL");
      await exited(first);
      expect(count()).toBeLessThan(LIMIT);
      const second = longhaulProcess([...args, "--json"]);
      let out = "";
      second.stdout?.on("data", (c: Buffer) => {
        out += c.toString();
      });
      expect(await exited(second)).toBe(0);
      expect(JSON.parse(out)).toMatchObject({ status: "finished", planned: LIMIT });
      expectExactlyOnce(outDir);
    },
  );

  it(
    "stops the run with a clear error when a worker's suite differs from the run's",
    SLOW,
    async () => {
      const name = `q${++queueNumber}`;
      await startWorker(name);
      const outdated = Object.create(suite, { version: { value: "0.0.1-other" } }) as Suite;
      await expect(
        coordinate(name, mkdtempSync(join(tmpdir(), "longhaul-queue-")), { suite: outdated }),
      ).rejects.toThrow(
        new RegExp(
          `failed on a worker: this worker's robograph is ${suite.version.replaceAll(".", "\\.")}.*0\\.0\\.1-other`,
        ),
      );
    },
  );

  it(
    "redacts secrets in URLs inside a worker's trace before the coordinator stores it",
    SLOW,
    async () => {
      const name = `q${++queueNumber}`;
      const outDir = mkdtempSync(join(tmpdir(), "longhaul-queue-"));
      const secret = "queue-secret-4f9a";
      await startWorker(name);
      const { summary } = await coordinate(name, outDir, {
        agentUrl: `${agents.url}?token=${secret}`,
      });
      expect(summary.ran).toBe(LIMIT);
      for (const record of summary.records) {
        const text = gunzipSync(readFileSync(tracePath(outDir, record.episodeId))).toString("utf8");
        expect(text).not.toContain(secret);
        // The agent's id names its URL, credential masked.
        expect(readTrace(outDir, record.episodeId).record?.agent).toBe(
          `http:${agents.url}?token=***`,
        );
      }
    },
  );

  it("packs traces losslessly and names jobs without colons", async () => {
    const { agent } = await createAgent("explorer", {}, suite);
    const { playEpisode } = await import("../src/run/index.ts");
    const { trace } = await playEpisode(suite, suite.compile()[0]!, agent);
    expect(await unpackTrace(await packTrace(trace!), "test")).toEqual(trace);
    const id = jobIdOf("abc123", "scene:1/base@0");
    expect(id).toMatch(/^abc123-[0-9a-f]{24}$/);
    expect(jobIdOf("abc123", "scene:1/base@0")).toBe(id);
    expect(() => queueUrl("http://127.0.0.1:6379")).toThrow(/redis:\/\//);
  });
});
