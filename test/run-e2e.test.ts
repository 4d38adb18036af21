import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createAgent } from "../src/agents/index.ts";
import type { EpisodeRecord } from "../src/core/index.ts";
import { loadRun, RUN_FILES, readCheckpoint, withoutWallClock } from "../src/log/index.ts";
import { runSuite } from "../src/run/index.ts";
import { greedyAgent, noteTaker } from "./fixtures/grid-agents.ts";
import { gridSuite } from "./fixtures/grid-suite.ts";

const SCRIPT = join(import.meta.dirname, "fixtures", "run-grid.ts");
const tmp = () => mkdtempSync(join(tmpdir(), "longhaul-e2e-"));

/** The fixture runner in a child process (node with the tsx loader: one process to kill). */
function runChild(outDir: string, delayMs: number, mode = ""): ChildProcess {
  const args = [SCRIPT, outDir, String(delayMs), "2", "2", mode];
  return spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: join(import.meta.dirname, ".."),
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** The same run as runChild's, uninterrupted and in this process. */
async function runClean(mode = ""): Promise<string> {
  const outDir = tmp();
  const streams = mode === "streams";
  await runSuite({
    suite: gridSuite(3, { streams }),
    agent: (streams ? noteTaker : greedyAgent)({}),
    agentConfig: { name: "greedy" },
    outDir,
    seed: "e2e",
    epochs: 2,
    concurrency: 2,
  });
  return outDir;
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

const lines = (dir: string) => {
  const path = join(dir, RUN_FILES.episodes);
  return existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : [];
};

/** Records without wall-clock fields, sorted by episode. */
const comparable = (records: EpisodeRecord[]) =>
  records
    .map(({ wallMs: _w, ...r }) => ({ ...r, usage: { ...r.usage, latencyMs: 0 } }))
    .sort((a, b) => a.episodeId.localeCompare(b.episodeId));

/** Every trace of a run, parsed, with wall-clock fields (wallMs, latencyMs) removed. */
function traces(dir: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const file of readdirSync(join(dir, RUN_FILES.traces))) {
    out[file] = withoutWallClock(
      JSON.parse(gunzipSync(readFileSync(join(dir, RUN_FILES.traces, file))).toString()),
    );
  }
  return out;
}

describe("end to end", () => {
  it("survives kill -9 mid-run: the resumed run equals an uninterrupted one", async () => {
    const killed = tmp();
    const child = runChild(killed, 15);
    const exit = exited(child);
    while (lines(killed).length < 5) await sleep(20);
    child.kill("SIGKILL");
    await exit;
    const partial = lines(killed).length;
    expect(partial).toBeLessThan(18);
    expect(loadRun(killed).header.status).toBe("started");

    const resumed = runChild(killed, 0);
    let stdout = "";
    resumed.stdout?.on("data", (d) => {
      stdout += d;
    });
    expect(await exited(resumed)).toBe(0);
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({ status: "finished", planned: 18, records: 18 });
    expect(summary.skipped).toBeGreaterThanOrEqual(partial - 1);

    const ids = lines(killed).map((l) => JSON.parse(l).episodeId);
    expect(ids).toHaveLength(18);
    expect(new Set(ids).size).toBe(18);

    const clean = await runClean();
    const a = loadRun(killed);
    const b = loadRun(clean);
    expect(a.header.runId).toBe(b.header.runId);
    expect(a.header.status).toBe("finished");
    expect(comparable(a.records)).toEqual(comparable(b.records));
    const suite = gridSuite();
    expect(suite.aggregate(a.records)).toEqual(suite.aggregate(b.records));
  });

  it("resumes streams after kill -9 with their checkpointed memory: equal to an uninterrupted run", async () => {
    const killed = tmp();
    const child = runChild(killed, 15, "streams");
    const exit = exited(child);
    while (lines(killed).length < 5) await sleep(20);
    child.kill("SIGKILL");
    await exit;
    expect(lines(killed).length).toBeLessThan(18);
    expect(await exited(runChild(killed, 0, "streams"))).toBe(0);
    const clean = await runClean("streams");
    const a = loadRun(killed);
    expect(lines(killed)).toHaveLength(18);
    expect(comparable(a.records)).toEqual(comparable(loadRun(clean).records));
    // The memory each stream ended with is the same as without the kill.
    for (const stream of ["grid/s3@0", "grid/s5@1", "grid/s8@1"]) {
      const memory = async (dir: string) => (await readCheckpoint(dir, stream, 2))?.memory;
      expect(await memory(killed)).toEqual(await memory(clean));
      expect((await memory(killed)) as { played: string[] }).toMatchObject({
        played: [0, 1, 2].map((i) => `${stream.split("@")[0]}/${i}`),
      });
    }
  });

  it("is deterministic: same seeds give identical traces once wall-clock fields are removed", async () => {
    const suite = gridSuite();
    const run = async (concurrency: number) => {
      const outDir = tmp();
      await runSuite({
        suite,
        agent: (await createAgent("random", {}, suite)).agent,
        agentConfig: { name: "random" },
        outDir,
        seed: "same",
        epochs: 2,
        concurrency,
        budgets: { maxSteps: 25 },
      });
      return outDir;
    };
    const first = traces(await run(1));
    const second = traces(await run(4));
    expect(Object.keys(first)).toHaveLength(18);
    expect(second).toEqual(first);
    // The random agent really did vary across epochs, so equality is not vacuous.
    const [e0, e1] = ["grid_s8_2@0", "grid_s8_2@1"].map(
      (prefix) => Object.entries(first).find(([file]) => file.startsWith(prefix))?.[1],
    );
    expect(e0).not.toEqual(e1);
  });

  it("turns a throwing agent into invalid ERR episodes and still finishes the run", async () => {
    const suite = gridSuite();
    const outDir = tmp();
    const summary = await runSuite({
      suite,
      agent: (await createAgent("thrower", { at: 3 }, suite)).agent,
      agentConfig: { name: "thrower", at: 3 },
      outDir,
      seed: "s",
      epochs: 1,
      concurrency: 2,
    });
    expect(summary.status).toBe("finished");
    expect(summary.records).toHaveLength(9);
    for (const record of loadRun(outDir).records) {
      expect(record).toMatchObject({ status: "invalid", category: "ERR", steps: 3 });
      expect(record.error).toMatch(/provider exploded/);
    }
    expect(suite.aggregate(summary.records).headlines[0]?.value).toBe(0);
  });
});
