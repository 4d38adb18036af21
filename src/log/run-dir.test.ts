import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { greedyAgent } from "../../test/fixtures/grid-agents.ts";
import { gridSuite } from "../../test/fixtures/grid-suite.ts";
import { runSuite } from "../run/index.ts";
import {
  checkRunDirectory,
  defaultRunDirectory,
  EpisodeLog,
  loadRun,
  parseEpisodeLines,
  RUN_FILES,
  readTrace,
  recoverEpisodes,
  repairEpisodes,
} from "./index.ts";

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "longhaul-rundir-"));
  await runSuite({
    suite: gridSuite(),
    agent: greedyAgent(),
    agentConfig: {},
    outDir: dir,
    seed: "s",
    epochs: 1,
    concurrency: 2,
    limit: 3,
  });
});

/** A copy of the run dir with episodes.jsonl and run.json replaced. */
function variant(episodes: string, header?: string): string {
  const copy = mkdtempSync(join(tmpdir(), "longhaul-variant-"));
  writeFileSync(join(copy, RUN_FILES.header), header ?? readFileSync(join(dir, RUN_FILES.header)));
  writeFileSync(join(copy, RUN_FILES.episodes), episodes);
  return copy;
}

const lines = () => readFileSync(join(dir, RUN_FILES.episodes), "utf8").trimEnd().split("\n");

describe("run directory", () => {
  it("loads the header, the records and each trace", () => {
    const { header, records } = loadRun(dir);
    expect(header.status).toBe("finished");
    expect(header.planned).toBe(3);
    expect(records.map((r) => r.episodeId).sort()).toEqual([
      "grid/s3/0@0",
      "grid/s3/1@0",
      "grid/s3/2@0",
    ]);
    const trace = readTrace(dir, "grid/s3/1@0");
    expect(trace.record).toEqual(records.find((r) => r.episodeId === "grid/s3/1@0"));
  });

  it("names the file, line and field of an invalid record or header", () => {
    const [first, second] = lines();
    const broken = JSON.stringify({ ...JSON.parse(second!), steps: -1 });
    expect(() => loadRun(variant(`${first}\n${broken}\n`))).toThrow(
      /episodes\.jsonl:2: invalid episode record: steps: /,
    );
    expect(() => loadRun(variant(`${first}\n{oops\n`))).toThrow(
      /episodes\.jsonl:2: invalid episode record: not JSON/,
    );
    const header = JSON.parse(readFileSync(join(dir, RUN_FILES.header), "utf8"));
    expect(() => loadRun(variant("", JSON.stringify({ ...header, status: "done" })))).toThrow(
      /run\.json: invalid run header: status: /,
    );
    expect(() => loadRun(join(dir, "nowhere"))).toThrow(/not a run directory/);
    expect(() => readTrace(dir, "grid/s9/9@0")).toThrow(/cannot read trace/);
  });

  it("ignores a torn last line and lets the last line of an episode win", async () => {
    const [first, second, third] = lines();
    const retried = JSON.stringify({ ...JSON.parse(first!), status: "invalid", category: "ERR" });
    const copy = variant(`${retried}\n${second}\n${first}\n${third!.slice(0, 40)}`);
    const { records } = loadRun(copy);
    expect(records).toHaveLength(2);
    expect(records[0]).toEqual(JSON.parse(first!));
    // Recovery cuts the torn tail off the file, so the next append starts a fresh line.
    await recoverEpisodes(copy);
    appendFileSync(join(copy, RUN_FILES.episodes), `${third}\n`);
    expect(loadRun(copy).records).toHaveLength(3);
  });

  it("counts bytes, not characters, when cutting a torn tail", () => {
    const text = `${lines()[0]!.replace('"agent":"greedy"', '"agent":"grüß"')}\n{"x`;
    const parsed = parseEpisodeLines(text, "f");
    expect(parsed.torn).toBe(true);
    expect(parsed.completeBytes).toBe(Buffer.byteLength(text) - 3);
  });

  it("writes concurrent appends each exactly once, in call order, in batched syncs", async () => {
    const copy = mkdtempSync(join(tmpdir(), "longhaul-log-"));
    const record = JSON.parse(lines()[0]!);
    const log = await EpisodeLog.open(copy);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => log.append({ ...record, episodeId: `e${i}` })),
    );
    await log.close();
    const written = readFileSync(join(copy, RUN_FILES.episodes), "utf8").trimEnd().split("\n");
    expect(written.map((l) => JSON.parse(l).episodeId)).toEqual(
      Array.from({ length: 50 }, (_, i) => `e${i}`),
    );
  });

  it("names a fresh default directory per run: suite, agent or model, UTC time, then -2, -3", () => {
    const root = mkdtempSync(join(tmpdir(), "longhaul-runs-"));
    const at = new Date("2025-03-04T05:06:07.890Z");
    const first = defaultRunDirectory(root, "robograph", "openai:gpt-4o/mini", at);
    expect(first).toBe(join(root, "robograph-openai-gpt-4o-mini-20250304-050607"));
    mkdirSync(first);
    expect(defaultRunDirectory(root, "robograph", "openai:gpt-4o/mini", at)).toBe(`${first}-2`);
    expect(checkRunDirectory(first)).toBe("new");
    expect(checkRunDirectory(dir)).toBe("run");
  });

  it("repairs unreadable and torn lines after a backup, never overwriting an older backup", async () => {
    const [first, second, third] = lines();
    const copy = variant(`${first}\nnot json\n${second}\n{"episodeId":1}\n${third!.slice(0, 30)}`);
    const result = await repairEpisodes(copy);
    expect(result.dropped.map((d) => [d.line, d.problem.slice(0, 8)])).toEqual([
      [2, "not JSON"],
      [4, "episodeI"],
      [5, "torn fin"],
    ]);
    expect(result.backup).toBe(join(copy, "episodes.jsonl.bak"));
    expect(loadRun(copy).records).toHaveLength(2);
    appendFileSync(join(copy, RUN_FILES.episodes), "oops\n");
    expect((await repairEpisodes(copy)).backup).toBe(join(copy, "episodes.jsonl.bak-2"));
    expect(readFileSync(join(copy, "episodes.jsonl.bak"), "utf8")).toContain("not json");
    expect(await repairEpisodes(copy)).toEqual({ dropped: [] });
    expect(existsSync(join(copy, "episodes.jsonl.bak-3"))).toBe(false);
  });
});
