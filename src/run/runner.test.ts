import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { greedyAgent } from "../../test/fixtures/grid-agents.ts";
import { type GridPayload, gridSuite } from "../../test/fixtures/grid-suite.ts";
import { type Agent, type CallGate, LonghaulError } from "../core/index.ts";
import { loadRun, RUN_FILES } from "../log/index.ts";
import type { Progress } from "./progress.ts";
import { type RunOptions, runSuite } from "./runner.ts";

const tmp = () => mkdtempSync(join(tmpdir(), "longhaul-runner-"));
const episodeLines = (dir: string) =>
  readFileSync(join(dir, RUN_FILES.episodes), "utf8").trimEnd().split("\n");
const ids = (dir: string) => episodeLines(dir).map((l) => JSON.parse(l).episodeId as string);

function options(
  outDir: string,
  extra: Partial<RunOptions<GridPayload>> = {},
): RunOptions<GridPayload> {
  return {
    suite: gridSuite(),
    agent: greedyAgent(),
    agentConfig: { name: "greedy" },
    outDir,
    seed: "s",
    epochs: 2,
    concurrency: 3,
    ...extra,
  };
}

describe("runSuite", () => {
  it("runs every planned episode once, reports progress and writes a finished header", async () => {
    const dir = tmp();
    const progress: Progress[] = [];
    const summary = await runSuite(options(dir, { onProgress: (p) => progress.push(p) }));
    expect(summary).toMatchObject({ status: "finished", planned: 18, ran: 18, skipped: 0 });
    expect(summary.records.map((r) => r.episodeId)).toEqual(
      [0, 1].flatMap((e) =>
        gridSuite()
          .compile()
          .map((s) => `${s.id}@${e}`),
      ),
    );
    expect(new Set(ids(dir)).size).toBe(18);
    expect(progress[0]).toMatchObject({ done: 0, total: 18, etaMs: null });
    const last = progress.at(-1)!;
    expect(last.done).toBe(18);
    expect(last.success + last.failure + last.invalid).toBe(18);
    expect(last.success).toBe(summary.records.filter((r) => r.status === "success").length);
    expect(loadRun(dir).header.status).toBe("finished");
  });

  it("resumes: keeps recorded episodes, reruns lost ones and a torn one, duplicates none", async () => {
    const dir = tmp();
    const first = await runSuite(options(dir));
    const kept = episodeLines(dir).slice(0, 10);
    writeFileSync(
      join(dir, RUN_FILES.episodes),
      `${kept.join("\n")}\n${episodeLines(dir)[10]!.slice(0, 25)}`,
    );
    const second = await runSuite(options(dir, { concurrency: 1 }));
    expect(second).toMatchObject({ runId: first.runId, ran: 8, skipped: 10 });
    expect(ids(dir).sort()).toEqual(first.records.map((r) => r.episodeId).sort());
    expect(ids(dir).slice(0, 10)).toEqual(kept.map((l) => JSON.parse(l).episodeId));
    const strip = (rs: typeof first.records) =>
      rs.map(({ wallMs: _w, ...r }) => r).sort((a, b) => a.episodeId.localeCompare(b.episodeId));
    expect(strip(loadRun(dir).records)).toEqual(strip(first.records));
  });

  it("refuses an out dir holding a different run, naming the difference", async () => {
    const dir = tmp();
    await runSuite(options(dir, { limit: 2 }));
    await expect(runSuite(options(dir, { limit: 2, seed: "other" }))).rejects.toThrow(
      /holds a different run .*seed: "s" -> "other"/,
    );
    await expect(runSuite(options(dir, { limit: 3 }))).rejects.toThrow(
      /plan: .*"limit":2.* -> .*"limit":3/,
    );
    // Transport settings are not part of the identity.
    await expect(runSuite(options(dir, { limit: 2, concurrency: 1 }))).resolves.toMatchObject({
      ran: 0,
    });
  });

  it("reruns invalid episodes only with retryErrors; the last record wins in loadRun", async () => {
    const dir = tmp();
    let broken = true;
    const flaky: Agent = {
      id: "flaky",
      start(card, ctx) {
        const inner = greedyAgent().start(card, ctx) as Awaited<ReturnType<Agent["start"]>>;
        return {
          act: async (obs) => {
            if (broken && card.id.startsWith("grid/s5")) throw new Error("429 forever");
            return inner.act(obs);
          },
        };
      },
    };
    const opts = options(dir, { agent: flaky, epochs: 1 });
    const first = await runSuite(opts);
    expect(first.records.filter((r) => r.status === "invalid").map((r) => r.taskId)).toEqual([
      "grid/s5/0",
      "grid/s5/1",
      "grid/s5/2",
    ]);
    broken = false;
    expect(await runSuite(opts)).toMatchObject({ ran: 0, skipped: 9 });
    const retry = await runSuite({ ...opts, retryErrors: true });
    expect(retry).toMatchObject({ ran: 3, skipped: 6 });
    expect(retry.records.some((r) => r.status === "invalid")).toBe(false);
    expect(episodeLines(dir)).toHaveLength(12);
    const loaded = loadRun(dir).records;
    expect(loaded).toHaveLength(9);
    expect(loaded.filter((r) => r.status === "invalid")).toHaveLength(0);
  });

  it("stops on abort: in-flight episodes are not recorded, status interrupted, resume completes", async () => {
    const dir = tmp();
    const controller = new AbortController();
    let finished = 0;
    const summary = await runSuite(
      options(dir, {
        agent: greedyAgent({ delayMs: 5 }),
        concurrency: 2,
        signal: controller.signal,
        onProgress: (p) => {
          finished = p.done;
          if (finished === 4) controller.abort();
        },
      }),
    );
    expect(summary.status).toBe("interrupted");
    // An episode that completed in the same tick as the fourth may still be recorded.
    expect(summary.ran).toBeGreaterThanOrEqual(4);
    expect(summary.ran).toBeLessThan(18);
    expect(ids(dir)).toHaveLength(summary.ran);
    expect(loadRun(dir).header.status).toBe("interrupted");
    const resumed = await runSuite(options(dir, { agent: greedyAgent({ delayMs: 5 }) }));
    expect(resumed).toMatchObject({
      status: "finished",
      ran: 18 - summary.ran,
      skipped: summary.ran,
    });
    expect(new Set(ids(dir)).size).toBe(18);
    expect(ids(dir)).toHaveLength(18);
  });

  it("bounds concurrent episodes and shares one call gate across them", async () => {
    let running = 0;
    let peak = 0;
    const gates = new Set<CallGate>();
    const agent: Agent = {
      id: "counting",
      async start(card, ctx) {
        gates.add(ctx.gate);
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 3));
        running--;
        return greedyAgent().start(card, ctx);
      },
    };
    await runSuite(options(tmp(), { agent, concurrency: 3 }));
    expect(peak).toBe(3);
    expect(gates.size).toBe(1);
  });

  it("rejects bad transport settings and stops on a usage error from the agent", async () => {
    await expect(runSuite(options(tmp(), { concurrency: 0 }))).rejects.toThrow(
      /concurrency must be/,
    );
    const dir = tmp();
    const agent: Agent = {
      id: "nokey",
      start: () => {
        throw new LonghaulError("USAGE", "no API key for openai");
      },
    };
    await expect(runSuite(options(dir, { agent }))).rejects.toThrow(/no API key/);
    expect(loadRun(dir).header.status).toBe("interrupted");
    expect(loadRun(dir).records).toHaveLength(0);
  });
});
