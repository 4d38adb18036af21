/**
 * `longhaul export sft` end to end: run a suite, export its successful episodes, read the rows
 * back and check them against the harness, the parser, the openai SDK's row shape and the
 * manifest.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../src/agents/index.ts";
import { ACCEPTED, defaultRenderer, ToolCatalog } from "../src/agents/llm/index.ts";
import type { Suite, Trace } from "../src/core/index.ts";
import { loadRun, readTrace } from "../src/log/index.ts";
import { runSuite } from "../src/run/index.ts";
import { robographSuite } from "../src/suites/robograph/index.ts";
import {
  AuthorsRow,
  exportSft,
  manifestPath,
  OpenAiChatRow,
  rowFilePath,
} from "../src/training/index.ts";
import { gridSuite } from "./fixtures/grid-suite.ts";
import { longhaul } from "./support/run-cli.ts";

const lines = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as unknown);
const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

async function runOf(suite: Suite, agent: string, taskIds?: string[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "lh-sft-run-"));
  await runSuite({
    suite,
    agent: (await createAgent(agent, {}, suite)).agent,
    agentConfig: { name: agent },
    outDir: dir,
    seed: "s",
    epochs: 1,
    concurrency: 2,
    ...(taskIds ? { taskIds } : {}),
  });
  return dir;
}

const tracesOf = (dir: string, status = "success") =>
  loadRun(dir)
    .records.filter((r) => r.status === status)
    .sort((a, b) => (a.episodeId < b.episodeId ? -1 : 1))
    .map((r) => readTrace(dir, r.episodeId) as Trace);

describe("export sft of a RoboGraph oracle run (json harness, stateless)", () => {
  let runDir: string;
  const suite = robographSuite as unknown as Suite;
  beforeAll(async () => {
    // Two scenes, each a baseline and its interventions.
    const ids = suite.compile().map((s) => s.id);
    const scenes = [...new Set(ids.map((id) => id.split("/")[0]))].slice(0, 2);
    runDir = await runOf(
      suite,
      "oracle",
      ids.filter((id) => scenes.includes(id.split("/")[0])),
    );
  }, 120_000);

  it("writes one row per decision with the harness prompt and a reply that parses back to the action", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "lh-sft-")), "rows.jsonl");
    const result = await exportSft({ runDir, suite, out });
    const traces = tracesOf(runDir);
    const decisions = traces.flatMap((t) =>
      t.steps.filter((s) => s.action).map((step) => ({ t, step })),
    );
    expect(result.rows).toEqual({ train: decisions.length, validation: 0 });
    const rows = lines(out).map((r) => OpenAiChatRow.parse(r));
    const authors = lines(rowFilePath(out, "authors", "train")).map((r) => AuthorsRow.parse(r));
    expect(rows).toHaveLength(decisions.length);
    expect(authors).toHaveLength(decisions.length);
    const renderer = suite.renderer!;
    for (const [i, { t, step }] of decisions.entries()) {
      const [system, user, assistant] = rows[i]!.messages;
      expect(system).toEqual({ role: "system", content: renderer.system(t.card) });
      const before = t.steps.slice(0, t.steps.indexOf(step));
      expect(user).toEqual({
        role: "user",
        content: renderer.user(step.observation, { card: t.card, history: before }),
      });
      expect(assistant!.role).toBe("assistant");
      const parsed = renderer.parse!(assistant!.content as string, t.card);
      expect(parsed.ok && parsed.action).toEqual(step.action);
      expect(authors[i]!.input.attributes).toEqual(step.observation.view);
      expect(authors[i]!.input.history).toHaveLength(before.filter((s) => s.action).length);
    }
    // The recovery label the scorer judges: required after a failed action, naming it.
    const recoveries = rows.map((r) => JSON.parse(r.messages[2]!.content as string).recovery);
    expect(recoveries.some((r) => r.required === true && typeof r.failed_action === "string")).toBe(
      true,
    );
  });

  it("splits by scene, filters by score, and the manifest names every file with its sha256", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lh-sft-"));
    const out = join(dir, "sft.jsonl");
    const result = await exportSft({ runDir, suite, out, valFraction: 0.5, seed: "3" });
    const manifest = JSON.parse(readFileSync(manifestPath(out), "utf8"));
    expect(manifest.split).toEqual({ key: "scene", valFraction: 0.5, seed: "3" });
    expect(manifest.files).toHaveLength(4);
    for (const file of manifest.files) {
      const path = join(dir, file.path);
      expect(sha256(path), file.path).toBe(file.sha256);
      expect(lines(path), file.path).toHaveLength(file.rows);
    }
    expect(result.groups.train + result.groups.validation).toBe(2);
    // Same options, byte-identical files, also when worker threads render the rows.
    const threaded = await exportSft({
      runDir,
      suite,
      out: join(dir, "threaded.jsonl"),
      valFraction: 0.5,
      seed: "3",
      workers: 2,
    });
    expect(threaded.files.map((f) => f.sha256)).toEqual(result.files.map((f) => f.sha256));
    expect(threaded.files.map((f) => f.rows)).toEqual(result.files.map((f) => f.rows));
    const again = await exportSft({
      runDir,
      suite,
      out: join(dir, "again.jsonl"),
      valFraction: 0.5,
      seed: "3",
    });
    expect(again.files.map((f) => f.sha256)).toEqual(result.files.map((f) => f.sha256));
    // --min-score ssal=1: only episodes that matched the oracle length exactly.
    const records = loadRun(runDir).records;
    const optimal = records.filter((r) => r.status === "success" && r.metrics.ssal === 1).length;
    const filtered = await exportSft({
      runDir,
      suite,
      out: join(dir, "best.jsonl"),
      minScore: { metric: "ssal", value: 1 },
    });
    expect(filtered.episodes.exported).toBe(optimal);
    expect(filtered.episodes.exported).toBeLessThan(records.length);
  });
});

describe("export sft of a chat-context run (native tool calls)", () => {
  it("rebuilds the conversation, trains only the last reply, and its tool calls give back the action", async () => {
    const suite = gridSuite(2) as unknown as Suite;
    const runDir = await runOf(suite, "greedy");
    const out = join(mkdtempSync(join(tmpdir(), "lh-sft-")), "grid.jsonl");
    await exportSft({ runDir, suite, out, formats: ["openai"] });
    const rows = lines(out).map((r) => OpenAiChatRow.parse(r));
    const traces = tracesOf(runDir);
    expect(traces.length).toBeGreaterThan(0);
    let i = 0;
    for (const t of traces) {
      const catalog = new ToolCatalog(t.card);
      const decided = t.steps.filter((s) => s.action);
      for (const [k, step] of decided.entries()) {
        const row = rows[i++]!;
        expect(row.tools!.map((x) => x.function.name)).toEqual(catalog.tools.map((x) => x.name));
        const assistants = row.messages.filter((m) => m.role === "assistant");
        expect(assistants).toHaveLength(k + 1);
        expect(assistants.slice(0, -1).every((m) => m.weight === 0)).toBe(true);
        const last = assistants.at(-1)!;
        expect(last.weight).toBeUndefined();
        expect(last.content).toBeNull();
        const calls = last.tool_calls!.map((c) => ({
          id: c.id,
          name: c.function.name,
          argumentsJson: c.function.arguments,
        }));
        const back = catalog.fromToolCalls(calls);
        const strip = (a: unknown) =>
          JSON.parse(JSON.stringify(a, (key, v) => (key === "id" ? undefined : v)));
        expect(back.ok && strip(back.action)).toEqual(strip(step.action));
        // Every earlier call is answered before the next observation, as the llm agent does.
        const tools = row.messages.filter((m) => m.role === "tool");
        expect(tools.every((m) => m.content === ACCEPTED)).toBe(true);
        const users = row.messages.filter((m) => m.role === "user").map((m) => m.content);
        expect(users).toEqual(
          decided
            .slice(0, k + 1)
            .map((s, j) =>
              defaultRenderer.user(s.observation, { card: t.card, history: decided.slice(0, j) }),
            ),
        );
      }
    }
    expect(rows).toHaveLength(i);
  }, 60_000);
});

describe("longhaul export sft (CLI)", () => {
  it("exports with --json and refuses bad options with exit 2", async () => {
    // The CLI loads the run's suite from the registry: a transduction oracle run.
    const { transductionSuite } = await import("../src/suites/transduction/index.ts");
    const tdir = await runOf(transductionSuite as unknown as Suite, "oracle", [
      transductionSuite.compile()[0]!.id,
    ]);
    const out = join(mkdtempSync(join(tmpdir(), "lh-sft-cli-")), "t.jsonl");
    const ok = await longhaul("export", "sft", tdir, "--out", out, "--json");
    expect(ok.code).toBe(0);
    const result = JSON.parse(ok.stdout) as {
      rows: { train: number };
      episodes: { exported: number };
    };
    expect(result).toMatchObject({ rows: { train: 1 }, episodes: { exported: 1 } });
    const [row] = lines(out).map((r) => OpenAiChatRow.parse(r));
    expect(row!.messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
    const badKey = await longhaul("export", "sft", tdir, "--out", out, "--split-key", "nope");
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toMatch(/--split-key "nope".*no such tag/);
    const badFormat = await longhaul("export", "sft", tdir, "--out", out, "--format", "csv");
    expect(badFormat.code).toBe(2);
  }, 60_000);
});
