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
  type Trace,
} from "../../core/index.ts";
import { runSuite } from "../../run/index.ts";
import {
  exportCommand,
  GENERATOR_VERSION,
  referenceAgent,
  scoreCommand,
  transductionSuite as suite,
  type TransductionSpec,
} from "./index.ts";

const smoke = () => suite.compile().filter(suite.subsets.smoke!);
const specById = (id: string) => suite.compile().find((s) => s.id === id)!;

/** Play one episode with a suite agent, as the runner does, and score it. */
async function play(spec: TransductionSpec, agentName: string) {
  const env = await suite.make(spec, { access: PRIVILEGED_ACCESS });
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
  const outcome = await env.outcome();
  return { result, outcome, score: suite.score(spec, outcome, {} as Trace) };
}

describe("compile", () => {
  it("compiles the frozen grid of 1,440 documents with unique readable ids", () => {
    const specs = suite.compile();
    expect(specs).toHaveLength(1440);
    expect(new Set(specs.map((s) => s.id)).size).toBe(1440);
    expect(specs.map((s) => s.id)).toContain("arith/ordered/d2/16k/s3");
    expect(specs.map((s) => s.id)).toContain("table/kv/d2/16k/s3");
    expect(smoke()).toHaveLength(48);
  });

  it("has a stable hash for the same seed and a different one for another", () => {
    const a = suiteHash(suite, suite.compile());
    expect(suiteHash(suite, suite.compile())).toBe(a);
    expect(suiteHash(suite, suite.compile({ seed: "other" }))).not.toBe(a);
    expect(suiteHash(suite, suite.compile({ tokenizer: "o200k_base" }))).not.toBe(a);
    expect(suiteHash(suite, suite.compile({ strict: "true" }))).not.toBe(a);
    expect(suiteHash(suite, suite.compile({ strict: "false" }))).toBe(a);
  });

  it("measures with cl100k_base unless told otherwise, and names it on every task", async () => {
    expect(suite.compile()[0]!.tags.tokenizer).toBe("cl100k_base");
    const spec = suite.compile({ tokenizer: "o200k_base" })[0]!;
    expect(spec.tags.tokenizer).toBe("o200k_base");
    expect((await suite.make(spec, { access: DEFAULT_ACCESS })).describe().title).toMatch(
      /o200k_base/,
    );
  });

  it("rejects an unknown tokenizer or strict value with the path of the option", () => {
    expect(() => suite.compile({ tokenizer: "p50k" })).toThrow(/tokenizer/);
    expect(() => suite.compile({ strict: "yes" })).toThrow(/strict/);
  });

  it("gives tables their three variants in place of the formats, five samples per cell", () => {
    const cell = suite
      .compile()
      .filter((s) => s.payload.document.horizonK === 8 && s.payload.document.difficulty === 2);
    const count = (task: string, key: string) => {
      const counts: Record<string, number> = {};
      for (const s of cell.filter((s) => s.tags.task === task)) {
        counts[String(s.tags[key])] = (counts[String(s.tags[key])] ?? 0) + 1;
      }
      return counts;
    };
    expect(count("table", "variant")).toEqual({ "permute-int": 5, "permute-hex": 5, kv: 5 });
    expect(count("table", "format")).toEqual({ undefined: 15 });
    expect(count("uuid", "format")).toEqual({ ordered: 5, shuffled: 5, unnumbered: 5 });
    expect(suite.compile().filter(suite.subsets.kv!)).toHaveLength(120);
  });
});

describe("episodes", () => {
  it("carries the document in the card and the first observation", async () => {
    const spec = specById("lookup/shuffled/d1/4k/s1");
    const env = await suite.make(spec, { access: DEFAULT_ACCESS });
    const card = env.describe();
    expect(card).toMatchObject({ modes: ["say"], budgets: { maxSteps: 1 }, tools: [] });
    expect(card.instructions).toMatch(/ascending order of index/);
    const observation = await env.reset();
    const text = suite.renderer!.user(observation, { card, history: [] });
    expect(text).toMatch(/^Definitions:\n/);
    expect(text).toMatch(/\n\[\d+\][a-z]{4} \+ [a-z]{4}\n/);
    expect(suite.renderer!.system(card)).toBe(card.instructions);
    expect(suite.renderer!.maxOutputTokens!(card)).toBe(3072);
  });

  it("answers an invalid action with typed feedback and keeps the episode open", async () => {
    const env = await suite.make(specById("arith/ordered/d1/4k/s1"), { access: DEFAULT_ACCESS });
    await env.reset();
    const result = await env.step({ kind: "wait" });
    expect(result.terminated).toBe(false);
    expect(result.info.invalid?.code).toBe("wrong-mode");
    expect(result.observation.events[0]?.type).toBe("invalid");
    expect(await env.outcome()).toMatchObject({ success: false, category: "NO_OUTPUT" });
    const done = await env.step({ kind: "say", text: "" });
    expect(done.terminated).toBe(true);
    expect(await env.outcome()).toMatchObject({ success: false, category: "EMPTY" });
    expect((await env.step({ kind: "say", text: "" })).info.invalid?.code).toBe("not-allowed");
  });

  it("scores the oracle 1 everywhere and the reference agents as computed by hand", async () => {
    for (const spec of smoke().filter((s) => s.payload.document.difficulty <= 2)) {
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

  it("reports position-resolved metrics and self-consistency for arithmetic and UUIDs", async () => {
    for (const id of ["uuid/unnumbered/d1/4k/s2", "arith/unnumbered/d3/4k/s2"]) {
      const { score } = await play(specById(id), "truncate-half");
      expect(score.metrics.pos1).toBe(1);
      expect(score.metrics.pos10).toBe(0);
      expect(score.metrics.selfConsistency).toBeCloseTo(score.metrics.accuracy!, 1);
    }
  });

  it("scores the copy of an arithmetic line, and strict scoring when compiled so", async () => {
    const spec = specById("arith/ordered/d1/4k/s1");
    const env = await suite.make(spec, { access: DEFAULT_ACCESS });
    await env.reset();
    const latent = (await suite.make(spec, { access: PRIVILEGED_ACCESS })).latent!() as unknown as {
      expected: { rows: { id: number; cells: string[] }[] };
    };
    const rows = latent.expected.rows;
    // Every value right, row 1's expression miscopied, every line spaced out.
    const text = rows
      .map((r) => `[${r.id}] ${r.id === 1 ? "0+0" : r.cells[0]} = ${r.cells[1]}`)
      .join("\n");
    await env.step({ kind: "say", text });
    const score = suite.score(spec, await env.outcome(), {} as Trace);
    expect(score.metrics.correct).toBe(rows.length - 1);
    expect(score.metrics.answerAccuracy).toBe(1);
    const strict = suite.compile({ strict: "true" }).find((s) => s.id === spec.id)!;
    expect(strict.tags.scoring).toBe("strict");
    const strictEnv = await suite.make(strict, { access: DEFAULT_ACCESS });
    await strictEnv.reset();
    await strictEnv.step({ kind: "say", text });
    expect(suite.score(strict, await strictEnv.outcome(), {} as Trace).metrics.correct).toBe(0);
  });
});

function record(
  task: string,
  difficulty: number,
  horizonK: number,
  accuracy: number,
  layout = task === "table" ? "kv" : "ordered",
): EpisodeRecord {
  return {
    episodeId: `${task}-${layout}-${difficulty}-${horizonK}-${accuracy}`,
    taskId: "t",
    suite: "transduction",
    family: task,
    tags: {
      task,
      ...(task === "table" ? { variant: layout } : { format: layout }),
      difficulty,
      horizonK,
      horizon: `${horizonK}k`,
    },
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

const tableOf = (report: ReturnType<typeof suite.aggregate>, title: string) =>
  report.tables.find((t) => t.title.startsWith(title))!;

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
    const decrease = report.headlines.find((h) => h.name.startsWith("relative decrease 4K"));
    expect(decrease?.value).toBeCloseTo(0.6);
    expect(report.headlines.find((h) => h.name === "exact completion at 128K")?.value).toBe(0);
    const byTask = tableOf(report, "Accuracy by task (");
    expect(byTask.rows[0]).toEqual(["arith", 0.75, 0.2, expect.closeTo((0.75 + 0.2) / 2)]);
  });

  // At 128K: arith ordered d1 0.9, d4 0.5; arith unnumbered d1 0.6, d4 0.2;
  // uuid ordered d1 0.8, uuid unnumbered d1 0.2; table kv d1 0.4, d4 0.1.
  const grid = [
    record("arith", 1, 128, 0.9),
    record("arith", 4, 128, 0.5),
    record("arith", 1, 128, 0.6, "unnumbered"),
    record("arith", 4, 128, 0.2, "unnumbered"),
    record("uuid", 1, 128, 0.8),
    record("uuid", 1, 128, 0.2, "unnumbered"),
    record("table", 1, 128, 0.4),
    record("table", 4, 128, 0.1),
  ];

  it("tabulates task x format and task x difficulty at the largest horizon (Figs. 6, 7)", () => {
    const report = suite.aggregate(grid);
    const byFormat = tableOf(report, "Accuracy by task and format at 128K");
    expect(byFormat.columns).toEqual(["task", "ordered", "unnumbered", "all"]);
    // arith ordered: cells d1 0.9, d4 0.5 -> 0.7; unnumbered 0.4; all: cells d1 0.75, d4 0.35.
    expect(byFormat.rows).toEqual([
      ["arith", expect.closeTo(0.7), expect.closeTo(0.4), expect.closeTo(0.55)],
      ["uuid", 0.8, 0.2, expect.closeTo(0.5)],
    ]);
    const byDifficulty = tableOf(report, "Accuracy by task and difficulty at 128K");
    expect(byDifficulty.columns).toEqual(["task", "d1", "d4", "all"]);
    expect(byDifficulty.rows).toEqual([
      ["arith", expect.closeTo(0.75), expect.closeTo(0.35), expect.closeTo(0.55)],
      ["uuid", expect.closeTo(0.5), null, expect.closeTo(0.5)],
      ["table", 0.4, 0.1, expect.closeTo(0.25)],
    ]);
  });

  it("contrasts absolute accuracy with difficulty sensitivity per task and format (Fig. 8)", () => {
    const rows = tableOf(suite.aggregate(grid), "Absolute accuracy and difficulty").rows;
    expect(rows).toEqual([
      ["arith", "ordered", expect.closeTo(0.7), 0.9, 0.5, expect.closeTo(0.4 / 0.9)],
      ["arith", "unnumbered", expect.closeTo(0.4), 0.6, 0.2, expect.closeTo(0.4 / 0.6)],
      ["uuid", "ordered", 0.8, 0.8, null, null],
      ["uuid", "unnumbered", 0.2, 0.2, null, null],
      ["table", "kv", expect.closeTo(0.25), 0.4, 0.1, expect.closeTo(0.75)],
    ]);
  });

  it("quotes the paper's decreases, comparing formats over the line tasks only", () => {
    const report = suite.aggregate(grid);
    const rows = tableOf(report, "Relative decreases").rows;
    const value = (change: string, over: string) =>
      rows.find((r) => String(r[0]).startsWith(change) && r[1] === over)?.[2];
    // Ordered: cells arith-1 0.9, arith-4 0.5, uuid-1 0.8 -> 0.7333; unnumbered: 0.6, 0.2,
    // 0.2 -> 0.3333; the table's 0.4 and 0.1 take no part.
    expect(value("ordered -> unnumbered", "line tasks")).toBeCloseTo(1 - 1 / 3 / (2.2 / 3));
    expect(value("input format, best -> worst", "line tasks")).toBeCloseTo(1 - 1 / 2.2);
    expect(value("ordered -> unnumbered", "uuid")).toBeCloseTo(0.75);
    expect(value("ordered -> unnumbered", "arith")).toBeCloseTo(1 - 0.4 / 0.7);
    // Difficulty 1 -> 4: d1 cells arith 0.75, uuid 0.5, table 0.4 -> 0.55; d4: 0.35, 0.1.
    expect(value("difficulty 1 -> 4", "all tasks")).toBeCloseTo(1 - 0.225 / 0.55);
    expect(rows.map((r) => r[3])).toEqual([0.628, 0.365, 0.162, 0.643, 0.664, null, 0.399]);
    const headline = report.headlines.find((h) => h.name.includes("by difficulty at 128K"));
    expect(headline?.value).toBeCloseTo(1 - 0.225 / 0.55);
  });

  it("names the tokenizer the documents were sized with", () => {
    const tagged = grid.map((r) => ({ ...r, tags: { ...r.tags, tokenizer: "cl100k_base" } }));
    expect(suite.aggregate(tagged).notes).toEqual(["documents sized with cl100k_base"]);
  });

  it("keeps tables out of the format and position views", () => {
    const report = suite.aggregate([...grid, record("table", 1, 128, 1)]);
    expect(tableOf(report, "Accuracy by format").rows.map((r) => r[0])).toEqual([
      "ordered",
      "unnumbered",
    ]);
    expect(tableOf(report, "Position-resolved").rows.map((r) => r[0])).toEqual([
      "ordered",
      "unnumbered",
    ]);
  });
});

describe("aggregate at one horizon", () => {
  it("reports no decrease between horizons when only one ran", () => {
    const report = suite.aggregate([record("arith", 1, 4, 1), record("uuid", 2, 4, 0.5)]);
    expect(report.headlines.map((h) => h.name)).toEqual([
      "accuracy",
      "exact completion at 4K",
      "relative decrease ordered -> unnumbered at 4K",
      "relative decrease by difficulty at 4K",
    ]);
    expect(report.headlines[0]?.value).toBe(0.75);
  });
});

describe("stats", () => {
  it("reports token statistics per horizon, task and cell, naming the tokenizer", () => {
    const stats = suite.stats!(smoke());
    expect(stats.summary).toMatchObject({ documents: 48, largestHorizonK: 4 });
    const [perHorizon, perTask, perCell] = stats.tables;
    for (const table of stats.tables) expect(table.title).toMatch(/\(cl100k_base\)$/);
    expect(perHorizon?.rows).toHaveLength(1);
    const [label, documents, target, prompt, output] = perHorizon!.rows[0]!;
    expect([label, documents, target]).toEqual(["4K", 48, 4096]);
    expect(Math.abs((prompt as number) + (output as number) - 4096)).toBeLessThan(205);
    expect(perTask?.rows).toHaveLength(4);
    expect(perCell?.rows).toHaveLength(48);
    const o200k = suite.stats!(suite.compile({ tokenizer: "o200k_base" }).slice(0, 1));
    expect(o200k.tables[0]!.title).toMatch(/o200k_base/);
  });
});

describe("commands", () => {
  it("exports a document and scores an output file against it, strictly on request", async () => {
    const dir = await mkdtemp(join(tmpdir(), "transduction-"));
    const doc = join(dir, "doc.json");
    await exportCommand.run({ out: doc }, ["arith/unnumbered/d1/4k/s1"]);
    const exported = JSON.parse(await readFile(doc, "utf8"));
    expect(exported.params.tokenizer).toBe("cl100k_base");
    const answers: string[] = exported.expected.rows.map(
      (r: { cells: string[] }) => `${r.cells[0]}=${r.cells[1]}`,
    );
    const output = join(dir, "out.txt");
    await writeFile(output, `<think>working</think>\n${answers.slice(1).join("\n")}`);
    const result = await scoreCommand.run({ doc, output }, []);
    expect(result.json).toMatchObject({ id: "arith/unnumbered/d1/4k/s1", exact: false });
    expect(result.text).toMatch(/exact completion: no/);
    // Spaces around "=" are tolerated by default, not under --strict.
    await writeFile(output, answers.map((a) => a.replace("=", " = ")).join("\n"));
    expect((await scoreCommand.run({ doc, output }, [])).json).toMatchObject({ accuracy: 1 });
    const strict = await scoreCommand.run({ doc, output, strict: true }, []);
    expect(strict.json).toMatchObject({ accuracy: 0, scoring: "strict" });
    expect(strict.text).toMatch(/strict scoring/);
  });

  it("names what is wrong in a bad document or invocation", async () => {
    const dir = await mkdtemp(join(tmpdir(), "transduction-"));
    const doc = join(dir, "doc.json");
    await writeFile(doc, JSON.stringify({ id: "x", expected: { task: "arith" } }));
    await expect(scoreCommand.run({ doc, output: doc }, [])).rejects.toThrow(/expected\.numbered/);
    await expect(scoreCommand.run({ doc }, [])).rejects.toThrow(
      /--doc and --output, or --rollouts/,
    );
  });
});

describe("resuming", () => {
  it("refuses to resume a run directory of an older suite version, saying why", async () => {
    const outDir = await mkdtemp(join(tmpdir(), "transduction-run-"));
    const run = (version: string) =>
      runSuite({
        suite: { ...suite, version },
        agent: referenceAgent("oracle"),
        agentConfig: { name: "oracle" },
        outDir,
        seed: "s",
        epochs: 1,
        concurrency: 1,
        subset: "smoke",
        limit: 1,
      });
    expect(GENERATOR_VERSION).not.toBe("1.0.0");
    await run("1.0.0");
    await expect(run(GENERATOR_VERSION)).rejects.toThrow(
      new RegExp(
        `holds a different run .*"version":"1\\.0\\.0".*"version":"${GENERATOR_VERSION}".*use another --out`,
      ),
    );
  });
});
