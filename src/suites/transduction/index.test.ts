import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  AdaptiveLimiter,
  type AgentContext,
  DEFAULT_ACCESS,
  type EpisodeRecord,
  emptyUsage,
  PRIVILEGED_ACCESS,
  Rng,
  suiteHash,
  type TaskSpec,
  type Trace,
} from "../../core/index.ts";
import {
  type DocumentParams,
  exportCommand,
  scoreCommand,
  transductionSuite as suite,
} from "./index.ts";

const smoke = () => suite.compile().filter(suite.subsets.smoke!);
const specById = (id: string) => suite.compile().find((s) => s.id === id)!;

/** Play one episode with a suite agent, as the runner does, and score it. */
async function play(spec: TaskSpec<DocumentParams>, agentName: string) {
  const env = suite.make(spec, { access: PRIVILEGED_ACCESS });
  const card = env.describe();
  const context: AgentContext = {
    episodeId: spec.id,
    epoch: 0,
    rng: new Rng("test", spec.id),
    signal: new AbortController().signal,
    budgets: card.budgets,
    access: PRIVILEGED_ACCESS,
    gate: new AdaptiveLimiter(1),
    privileged: { spec, latent: () => env.latent?.() },
  };
  const factory = suite.agents!.find((a) => a.name === agentName)!;
  const session = await (await factory.create({}, { suite: suite.id })).start(card, context);
  const observation = await env.reset();
  const decision = await session.act(observation);
  const result = await env.step(decision.action!);
  const outcome = env.outcome();
  return { result, outcome, score: suite.score(spec, outcome, {} as Trace) };
}

describe("compile", () => {
  it("compiles the frozen grid of 1,440 documents with unique readable ids", () => {
    const specs = suite.compile();
    expect(specs).toHaveLength(1440);
    expect(new Set(specs.map((s) => s.id)).size).toBe(1440);
    expect(specs.map((s) => s.id)).toContain("arith/ordered/d2/16k/s3");
    expect(smoke()).toHaveLength(48);
  });

  it("has a stable hash for the same seed and a different one for another", () => {
    const a = suiteHash(suite, suite.compile());
    expect(suiteHash(suite, suite.compile())).toBe(a);
    expect(suiteHash(suite, suite.compile({ seed: "other" }))).not.toBe(a);
    expect(suiteHash(suite, suite.compile({ tokenizer: "cl100k_base" }))).not.toBe(a);
  });

  it("rejects an unknown tokenizer with the path of the option", () => {
    expect(() => suite.compile({ tokenizer: "p50k" })).toThrow(/tokenizer/);
  });

  it("balances the table sub-variants within every difficulty-horizon cell", () => {
    const tables = suite
      .compile()
      .filter(
        (s) => s.payload.task === "table" && s.payload.horizonK === 8 && s.payload.difficulty === 2,
      );
    const counts: Record<string, number> = {};
    for (const s of tables)
      counts[String(s.tags.variant)] = (counts[String(s.tags.variant)] ?? 0) + 1;
    expect(counts).toEqual({ "permute-int": 5, "permute-hex": 5, kv: 5 });
  });
});

describe("episodes", () => {
  it("carries the document in the card and the first observation", async () => {
    const spec = specById("lookup/shuffled/d1/4k/s1");
    const env = suite.make(spec, { access: DEFAULT_ACCESS });
    const card = env.describe();
    expect(card).toMatchObject({ modes: ["say"], budgets: { maxSteps: 1 }, tools: [] });
    expect(card.instructions).toMatch(/ascending order of record number/);
    const observation = await env.reset();
    const text = suite.renderer!.user(observation, { card, history: [] });
    expect(text).toMatch(/^Definitions:\n/);
    expect(suite.renderer!.system(card)).toBe(card.instructions);
    expect(suite.renderer!.maxOutputTokens!(card)).toBe(3072);
  });

  it("answers an invalid action with typed feedback and keeps the episode open", async () => {
    const env = suite.make(specById("arith/ordered/d1/4k/s1"), { access: DEFAULT_ACCESS });
    await env.reset();
    const result = await env.step({ kind: "wait" });
    expect(result.terminated).toBe(false);
    expect(result.info.invalid?.code).toBe("wrong-mode");
    expect(result.observation.events[0]?.type).toBe("invalid");
    expect(env.outcome()).toMatchObject({ success: false, category: "NO_OUTPUT" });
    const done = await env.step({ kind: "say", text: "" });
    expect(done.terminated).toBe(true);
    expect(env.outcome()).toMatchObject({ success: false, category: "EMPTY" });
    expect((await env.step({ kind: "say", text: "" })).info.invalid?.code).toBe("not-allowed");
  });

  it("scores the oracle 1 everywhere and the reference agents as computed by hand", async () => {
    for (const spec of smoke().filter((s) => s.payload.difficulty <= 2)) {
      const { result, score } = await play(spec, "oracle");
      expect(result.terminated).toBe(true);
      expect(score).toMatchObject({ success: true, metrics: { accuracy: 1, exact: 1 } });
    }
    const spec = specById("uuid/ordered/d2/4k/s1");
    const { score } = await play(spec, "drop-one");
    const records = score.metrics.records!;
    expect(score).toMatchObject({ success: false, category: "INEXACT" });
    expect(score.metrics.accuracy).toBeCloseTo((records - 1) / records);
    expect((await play(spec, "swap-two")).score.metrics.accuracy).toBe(1);
    expect((await play(spec, "truncate-half")).score.metrics.correct).toBe(Math.floor(records / 2));
  });

  it("reports position-resolved metrics and UUID self-consistency", async () => {
    const { score } = await play(specById("uuid/unnumbered/d1/4k/s2"), "truncate-half");
    expect(score.metrics.pos1).toBe(1);
    expect(score.metrics.pos10).toBe(0);
    expect(score.metrics.selfConsistency).toBeCloseTo(score.metrics.accuracy!, 1);
  });
});

function record(
  task: string,
  difficulty: number,
  horizonK: number,
  accuracy: number,
): EpisodeRecord {
  return {
    episodeId: `${task}-${difficulty}-${horizonK}-${accuracy}`,
    taskId: "t",
    suite: "transduction",
    family: task,
    tags: { task, format: "ordered", difficulty, horizonK, horizon: `${horizonK}k` },
    epoch: 0,
    agent: "a",
    status: accuracy === 1 ? "success" : "failure",
    endedBy: "terminated",
    steps: 1,
    invalidActions: 0,
    formatErrors: 0,
    wallMs: 1,
    usage: emptyUsage(),
    metrics: { accuracy, exact: accuracy === 1 ? 1 : 0 },
  };
}

describe("aggregate", () => {
  it("weights task-difficulty cells equally and reports the 4K -> 128K decrease", () => {
    const report = suite.aggregate([
      record("arith", 1, 4, 1),
      record("arith", 1, 4, 0.5),
      record("uuid", 1, 4, 0.25),
      record("arith", 1, 128, 0.2),
      record("uuid", 1, 128, 0.2),
      { ...record("uuid", 1, 128, 0), status: "invalid" },
    ]);
    expect(report.episodes).toBe(5);
    const byHorizon = report.tables[0]!;
    // 4K: cells arith-1 = 0.75 and uuid-1 = 0.25 weigh equally: 0.5, not the plain 0.583.
    expect(byHorizon.rows[0]).toEqual([
      "4K",
      3,
      0.5,
      1,
      1 / 3,
      expect.any(Number),
      expect.any(Number),
    ]);
    expect(byHorizon.rows[1]?.[2]).toBeCloseTo(0.2);
    const decrease = report.headlines.find((h) => h.name.startsWith("relative decrease"));
    expect(decrease?.value).toBeCloseTo(0.6);
    expect(report.headlines.find((h) => h.name === "exact completion at 128K")?.value).toBe(0);
    const byTask = report.tables.find((t) => t.title.startsWith("Accuracy by task"))!;
    expect(byTask.rows[0]).toEqual(["arith", 0.75, 0.2, expect.closeTo((0.75 + 0.2) / 2)]);
  });
});

describe("aggregate at one horizon", () => {
  it("reports no decrease when only one horizon ran", () => {
    const report = suite.aggregate([record("arith", 1, 4, 1), record("uuid", 2, 4, 0.5)]);
    expect(report.headlines.map((h) => h.name)).toEqual(["accuracy", "exact completion at 4K"]);
    expect(report.headlines[0]?.value).toBe(0.75);
  });
});

describe("stats", () => {
  it("reports token statistics per horizon and per cell", () => {
    const stats = suite.stats!(smoke());
    expect(stats.summary).toMatchObject({ documents: 48, largestHorizonK: 4 });
    const [perHorizon, perCell] = stats.tables;
    expect(perHorizon?.rows).toHaveLength(1);
    const [label, documents, target, prompt, output] = perHorizon!.rows[0]!;
    expect([label, documents, target]).toEqual(["4K", 48, 4096]);
    expect(Math.abs((prompt as number) + (output as number) - 4096)).toBeLessThan(205);
    expect(perCell?.rows).toHaveLength(48);
  });
});

describe("commands", () => {
  it("exports a document and scores an output file against it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "transduction-"));
    const doc = join(dir, "doc.json");
    await exportCommand.run({ out: doc }, ["arith/unnumbered/d1/4k/s1"]);
    const exported = JSON.parse(await readFile(doc, "utf8"));
    const answers: string[] = exported.expected.rows.map((r: { cells: string[] }) => r.cells[0]);
    const output = join(dir, "out.txt");
    await writeFile(output, `<think>working</think>\n${answers.slice(1).join("\n")}`);
    const result = await scoreCommand.run({ doc, output }, []);
    expect(result.json).toMatchObject({ id: "arith/unnumbered/d1/4k/s1", exact: false });
    expect(result.text).toMatch(/exact completion: no/);
    await writeFile(output, answers.join("\n"));
    expect((await scoreCommand.run({ doc, output }, [])).json).toMatchObject({ accuracy: 1 });
  });

  it("names what is wrong in a bad document", async () => {
    const dir = await mkdtemp(join(tmpdir(), "transduction-"));
    const doc = join(dir, "doc.json");
    await writeFile(doc, JSON.stringify({ id: "x", expected: { task: "arith" } }));
    await expect(scoreCommand.run({ doc, output: doc }, [])).rejects.toThrow(/expected\.numbered/);
  });
});
