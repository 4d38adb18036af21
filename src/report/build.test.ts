import { describe, expect, it } from "vitest";
import type { ReportModel, Suite } from "../core/index.ts";
import { buildReport } from "./build.ts";
import type { RunData } from "./generic.ts";
import { makeRecord } from "./test-records.ts";

const records = [
  makeRecord("t1", {
    tags: { horizon: "short", size: 10 },
    steps: 10,
    wallMs: 1000,
    metrics: { progress: 1 },
    usage: {
      calls: 2,
      cachedCalls: 1,
      inputTokens: 100,
      cachedInputTokens: 40,
      outputTokens: 20,
      reasoningTokens: 5,
      costUsd: 0.01,
      latencyMs: 300,
    },
  }),
  makeRecord("t2", {
    tags: { horizon: "long", size: 2 },
    status: "failure",
    category: "QUIT",
    steps: 20,
    metrics: { progress: 0.5 },
    usage: { calls: 3, inputTokens: 200, outputTokens: 30, costUsd: 0.02, latencyMs: 900 },
  }),
  makeRecord("t3", {
    family: "B",
    tags: { horizon: "short" },
    status: "failure",
    category: "TIME",
    steps: 30,
    metrics: { progress: null },
    usage: { calls: 1, cachedCalls: 1, inputTokens: 50, outputTokens: 10 },
  }),
  makeRecord("t4", {
    family: "B",
    tags: { horizon: "long" },
    status: "invalid",
    category: "ERR",
    steps: 2,
    invalidActions: 1,
    metrics: { progress: 0.9 },
    usage: { calls: 1, latencyMs: 600 },
  }),
  makeRecord("t5", { family: "B", steps: 5, formatErrors: 2, wallMs: 3000 }),
  makeRecord("t1", {
    epoch: 1,
    tags: { horizon: "short", size: 10 },
    status: "failure",
    category: "TIME",
    steps: 7,
    usage: { calls: 1, inputTokens: 10, outputTokens: 5, costUsd: 0.005, latencyMs: 200 },
  }),
];

const run: RunData = { runId: "run-1", suite: "toy", agent: "scripted", planned: 8, records };

const suiteModel: ReportModel = {
  suite: "toy",
  title: "Toy tables",
  episodes: 0,
  headlines: [{ name: "score", value: 0.5, format: "rate" }],
  tables: [{ title: "Per room", columns: ["room", "SR"], rows: [["kitchen", 0.25]] }],
};

const toySuite: Suite = {
  id: "toy",
  version: "1.0.0",
  title: "Toy suite",
  dimensions: ["horizon", "size"],
  compile: () => [],
  subsets: {},
  budgets: {},
  make: () => {
    throw new Error("not used by reports");
  },
  score: () => ({ success: false, metrics: {} }),
  aggregate: (rs) => ({ ...suiteModel, episodes: rs.length }),
};

function table(model: ReportModel, title: string) {
  const found = model.tables.find((t) => t.title === title);
  if (!found) throw new Error(`no table ${title}`);
  return found;
}

function headline(model: ReportModel, name: string) {
  return model.headlines.find((h) => h.name === name);
}

describe("buildReport", () => {
  const report = buildReport(run, toySuite);
  const g = report.generic;

  it("counts statuses, with missing = planned - recorded", () => {
    expect(report.run).toMatchObject({
      recorded: 6,
      success: 2,
      failure: 3,
      invalid: 1,
      missing: 2,
      valid: 5,
      planned: 8,
      suiteTitle: "Toy suite",
    });
    expect(table(g, "Episodes by status").rows).toEqual([
      ["success", 2, 0.25],
      ["failure", 3, 0.375],
      ["invalid", 1, 0.125],
      ["missing", 2, 0.25],
    ]);
  });

  it("leaves invalid episodes out of the success rate", () => {
    const sr = headline(g, "success rate");
    expect(sr?.value).toBe(0.4);
    expect(sr?.low).toBeCloseTo(0.117618, 5);
    expect(sr?.high).toBeCloseTo(0.76928, 5);
  });

  it("tabulates failure categories over failed and invalid episodes, most frequent first", () => {
    expect(table(g, "Failure categories").rows).toEqual([
      ["TIME", 2, 0, 2, 0.5],
      ["ERR", 0, 1, 1, 0.25],
      ["QUIT", 1, 0, 1, 0.25],
    ]);
  });

  it("gives success per family and per suite dimension, tags in numeric then text order", () => {
    const rows = (title: string) => table(g, title).rows.map((r) => [r[0], r[1], r[2], r[6]]);
    expect(rows("Success by family")).toEqual([
      ["A", 3, 1, 0],
      ["B", 2, 1, 1],
    ]);
    expect(rows("Success by horizon")).toEqual([
      ["(none)", 1, 1, 0],
      ["long", 1, 0, 1],
      ["short", 3, 1, 0],
    ]);
    expect(table(g, "Success by size").rows.map((r) => r[0])).toEqual([2, 10, "(none)"]);
    const long = table(g, "Success by horizon").rows[1];
    // one valid failure: Wilson 0/1 = [0, 0.7935]
    expect(long?.[3]).toBe(0);
    expect(long?.[5]).toBeCloseTo(0.793457, 5);
  });

  it("sums usage and averages latency over uncached calls only", () => {
    expect(headline(g, "tokens")?.value).toBe(425);
    expect(headline(g, "cost")?.value).toBeCloseTo(0.035, 12);
    // 2000 ms over 8 calls of which 2 came from the cache
    expect(headline(g, "mean latency")?.value).toBeCloseTo(2000 / 6, 9);
    const usage = table(g, "Usage").rows;
    expect(usage.find((r) => r[0] === "model calls")).toEqual(["model calls", 8, 8 / 6, 1]);
    expect(usage.find((r) => r[0] === "cached input tokens")?.[1]).toBe(40);
    // Tok@S: tokens of successful episodes (120 and 0) averaged
    expect(usage.find((r) => r[0] === "total tokens")?.[3]).toBe(60);
  });

  it("reports effort totals, means, Time@S and maxima", () => {
    const effort = table(g, "Effort").rows;
    expect(effort.find((r) => r[0] === "steps")).toEqual(["steps", 74, 74 / 6, 7.5, 30]);
    expect(effort.find((r) => r[0] === "wall time (s)")?.[3]).toBe(2);
    expect(effort.find((r) => r[0] === "format errors")?.[1]).toBe(2);
  });

  it("gives pass@k over epochs from valid episodes", () => {
    // tasks t1 (1 of 2), t2 (0/1), t3 (0/1), t5 (1/1); t4 only has an invalid episode
    expect(table(g, "pass@k over epochs").rows).toEqual([
      [1, 4, 0.375],
      [2, 1, 1],
    ]);
  });

  it("averages scorer metrics over valid episodes that report them", () => {
    expect(table(g, "Episode metrics").rows).toEqual([["progress", 2, 0.75, 0.5, 1]]);
  });

  it("adds the suite's aggregate and leaves it out without a suite", () => {
    expect(report.suite).toEqual({ ...suiteModel, episodes: 6 });
    const bare = buildReport({ ...run, planned: undefined });
    expect(bare.suite).toBeUndefined();
    expect(bare.run.missing).toBe(0);
    expect(bare.run.planned).toBeNull();
    expect(bare.generic.tables.some((t) => t.title === "Success by horizon")).toBe(false);
  });

  it("handles a run with no records", () => {
    const empty = buildReport({ runId: "r", suite: "toy", agent: "a", planned: 3, records: [] });
    expect(headline(empty.generic, "success rate")?.value).toBeNull();
    expect(headline(empty.generic, "mean latency")?.value).toBeNull();
    expect(empty.run.missing).toBe(3);
    expect(empty.generic.tables.some((t) => t.title === "pass@k over epochs")).toBe(false);
  });
});
