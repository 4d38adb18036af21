import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Notes, noteTaker } from "../../test/fixtures/grid-agents.ts";
import { type GridPayload, gridSuite } from "../../test/fixtures/grid-suite.ts";
import type { Agent, AgentContext, Json } from "../core/index.ts";
import { checkpointFile, loadRun, readCheckpoint } from "../log/index.ts";
import { planEpisodes, planUnits } from "./plan.ts";
import { type RunOptions, runSuite } from "./runner.ts";

const tmp = () => mkdtempSync(join(tmpdir(), "longhaul-streams-"));
const suite = gridSuite(3, { streams: true });

/** What each episode was told at its start. */
interface Seen {
  episodeId: string;
  stream?: string;
  index?: number;
  phase?: string;
  memory?: Json;
}

function options(
  outDir: string,
  agent: Agent,
  extra: Partial<RunOptions<GridPayload>> = {},
): RunOptions<GridPayload> {
  return {
    suite,
    agent,
    agentConfig: { name: "notes" },
    outDir,
    seed: "s",
    epochs: 1,
    concurrency: 3,
    ...extra,
  };
}

function recording(seen: Seen[], extra: Record<string, unknown> = {}) {
  return noteTaker({
    ...extra,
    onStart: (ctx: AgentContext) =>
      seen.push({
        episodeId: ctx.episodeId,
        ...(ctx.stream
          ? { stream: ctx.stream.id, index: ctx.stream.index, phase: ctx.stream.phase }
          : {}),
        ...(ctx.memory !== undefined ? { memory: ctx.memory } : {}),
      }),
  });
}

/** The notes a stream's episode `index` must start with: every earlier task of the stream. */
function expectedMemory(stream: string, index: number): Notes["played"] {
  const family = stream.replace(/^grid\//, "").replace(/@\d+$/, "");
  return [0, 1, 2].slice(0, index).map((i) => `grid/${family}/${i}`);
}

describe("planning streams", () => {
  it("orders each stream's episodes, tells their phase, and leaves other suites unchanged", () => {
    const plan = planEpisodes(suite, { epochs: 2 });
    expect(plan).toHaveLength(18);
    const units = planUnits(plan);
    expect(units.map((u) => u.stream)).toEqual([
      "grid/s3@0",
      "grid/s5@0",
      "grid/s8@0",
      "grid/s3@1",
      "grid/s5@1",
      "grid/s8@1",
    ]);
    expect(units[1]?.episodes.map((p) => [p.episodeId, p.stream?.index, p.stream?.phase])).toEqual([
      ["grid/s5/0@0", 0, "learn"],
      ["grid/s5/1@0", 1, "learn"],
      ["grid/s5/2@0", 2, "test"],
    ]);
    // A selection cuts streams down to the selected tasks; plain suites plan single episodes.
    const cut = planUnits(planEpisodes(suite, { epochs: 1, subset: "dev" }));
    expect(cut.map((u) => u.episodes.length)).toEqual([2, 2, 2]);
    expect(planUnits(planEpisodes(gridSuite(), { epochs: 1 })).every((u) => !u.stream)).toBe(true);
  });

  it("tells every episode of a stream the memory form the stream asks for", () => {
    const withMemory = {
      ...suite,
      streams: () => [
        { id: "a", episodes: [{ task: "grid/s3/0", phase: "learn" }, { task: "grid/s3/1" }] },
        { id: "b", episodes: [{ task: "grid/s5/0" }], memory: "skill" as const },
      ],
    };
    const plan = planEpisodes(withMemory, { epochs: 1 });
    const position = (id: string) => plan.find((p) => p.episodeId === id)?.stream;
    expect(position("grid/s3/0@0")).toEqual({ id: "a@0", index: 0, length: 2, phase: "learn" });
    expect(position("grid/s5/0@0")).toEqual({ id: "b@0", index: 0, length: 1, memory: "skill" });
  });

  it("rejects a stream plan that names unselected tasks or puts a task in two streams", () => {
    const bad = (streams: NonNullable<typeof suite.streams>) => ({ ...suite, streams });
    expect(() =>
      planEpisodes(
        bad(() => [{ id: "x", episodes: [{ task: "grid/s9/0" }] }]),
        { epochs: 1 },
      ),
    ).toThrow(/streams\(\)\[0\]\.episodes\[0\]: names task "grid\/s9\/0", which is not selected/);
    expect(() =>
      planEpisodes(
        bad(() => [
          { id: "a", episodes: [{ task: "grid/s3/0" }] },
          { id: "b", episodes: [{ task: "grid/s3/0" }] },
        ]),
        { epochs: 1 },
      ),
    ).toThrow(/already in stream "a"/);
  });
});

describe("running streams", () => {
  it("plays each stream in order, hands memory forward and checkpoints it", async () => {
    const dir = tmp();
    const seen: Seen[] = [];
    const summary = await runSuite(options(dir, recording(seen), { epochs: 2 }));
    expect(summary).toMatchObject({ status: "finished", ran: 18 });
    const streams = [...new Set(seen.map((s) => s.stream))];
    expect(streams).toHaveLength(6);
    for (const stream of streams) {
      const episodes = seen.filter((s) => s.stream === stream);
      expect(episodes.map((s) => s.index)).toEqual([0, 1, 2]);
      expect(episodes.map((s) => s.phase)).toEqual(["learn", "learn", "test"]);
      for (const s of episodes) {
        const played = (s.memory as unknown as Notes | undefined)?.played ?? [];
        expect(played, s.episodeId).toEqual(expectedMemory(stream as string, s.index as number));
      }
      const last = await readCheckpoint(dir, stream as string, 2);
      expect((last?.memory as unknown as Notes | undefined)?.played).toEqual(
        expectedMemory(stream as string, 3),
      );
    }
    const record = loadRun(dir).records.find((r) => r.episodeId === "grid/s8/1@1");
    expect(record?.stream).toEqual({ id: "grid/s8@1", index: 1, length: 3, phase: "learn" });
  });

  it("runs streams in parallel but never two episodes of one stream at once", async () => {
    let running = 0;
    let peak = 0;
    const active = new Set<string>();
    const overlaps: string[] = [];
    const inner = noteTaker({ delayMs: 2 });
    const agent: Agent = {
      id: "notes",
      async start(card, ctx) {
        const stream = ctx.stream?.id as string;
        if (active.has(stream)) overlaps.push(ctx.episodeId);
        active.add(stream);
        running++;
        peak = Math.max(peak, running);
        const session = await inner.start(card, ctx);
        return {
          ...session,
          act: session.act,
          async end() {
            active.delete(stream);
            running--;
          },
        };
      },
    };
    await runSuite(options(tmp(), agent, { concurrency: 3 }));
    expect(peak).toBe(3);
    expect(overlaps).toEqual([]);
  });

  it("resumes mid-stream after an interrupt with the memory from the checkpoint", async () => {
    const dir = tmp();
    const controller = new AbortController();
    const first: Seen[] = [];
    const interrupted = await runSuite(
      options(dir, recording(first, { delayMs: 3 }), {
        concurrency: 2,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.done === 4) controller.abort();
        },
      }),
    );
    expect(interrupted.status).toBe("interrupted");
    const recorded = new Set(loadRun(dir).records.map((r) => r.episodeId));
    expect(recorded.size).toBeGreaterThanOrEqual(4);
    expect(recorded.size).toBeLessThan(9);
    // A recorded stream episode always has its checkpoint.
    for (const r of loadRun(dir).records) {
      expect(existsSync(join(dir, checkpointFile(r.stream!.id, r.stream!.index)))).toBe(true);
    }

    const second: Seen[] = [];
    const resumed = await runSuite(options(dir, recording(second)));
    expect(resumed).toMatchObject({ status: "finished", ran: 9 - recorded.size });
    expect(second.map((s) => s.episodeId).filter((id) => recorded.has(id))).toEqual([]);
    expect(second.some((s) => (s.index ?? 0) > 0)).toBe(true);
    for (const s of second) {
      const played = (s.memory as unknown as Notes | undefined)?.played ?? [];
      expect(played, s.episodeId).toEqual(expectedMemory(s.stream as string, s.index as number));
    }
    const ids = loadRun(dir).records.map((r) => r.episodeId);
    expect(new Set(ids).size).toBe(9);
  });

  it("reruns a stream from its first invalid episode with --retry-errors", async () => {
    const dir = tmp();
    let broken = true;
    const notes = noteTaker();
    const flaky: Agent = {
      id: "notes",
      async start(card, ctx) {
        if (broken && card.id === "grid/s5/1") throw new Error("429 forever");
        return notes.start(card, ctx);
      },
    };
    const first = await runSuite(options(dir, flaky));
    expect(first.records.filter((r) => r.status === "invalid").map((r) => r.taskId)).toEqual([
      "grid/s5/1",
    ]);
    // The failed episode handed its starting memory on, so the stream went on without it.
    const afterFailure = await readCheckpoint(dir, "grid/s5@0", 2);
    expect((afterFailure?.memory as unknown as Notes | undefined)?.played).toEqual([
      "grid/s5/0",
      "grid/s5/2",
    ]);
    broken = false;
    const seen: Seen[] = [];
    const retried = await runSuite({ ...options(dir, recording(seen)), retryErrors: true });
    expect(retried).toMatchObject({ ran: 2, skipped: 7 });
    expect(seen.map((s) => [s.episodeId, (s.memory as unknown as Notes).played])).toEqual([
      ["grid/s5/1@0", ["grid/s5/0"]],
      ["grid/s5/2@0", ["grid/s5/0", "grid/s5/1"]],
    ]);
  });
});
