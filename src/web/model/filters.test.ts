import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeRecord } from "../../report/test-records.ts";
import { indexDoc, indexRow } from "./documents.ts";
import {
  DEFAULT_STATE,
  filterRows,
  formatState,
  PAGE_SIZE,
  parseState,
  sortRows,
  type TableState,
  tableView,
} from "./filters.ts";

const rows = [
  makeRecord("t10", {
    status: "failure",
    category: "TIME",
    steps: 7,
    tags: { task: "arith", horizonK: 4 },
    metrics: { accuracy: 0.5 },
  }),
  makeRecord("t2", {
    status: "success",
    steps: 3,
    tags: { task: "uuid", horizonK: 4 },
    metrics: { accuracy: 1 },
  }),
  makeRecord("t1", {
    status: "invalid",
    category: "ERR",
    steps: 0,
    tags: { task: "arith", horizonK: 8 },
    metrics: { accuracy: null },
  }),
  makeRecord("t3", {
    status: "failure",
    category: "FORMAT",
    steps: 12,
    family: "B",
    tags: { task: "uuid", horizonK: 8 },
    metrics: { accuracy: 0.25 },
    usage: { inputTokens: 100, outputTokens: 20 },
  }),
].map((r) => indexRow(r, r.episodeId.replace("@", "_")));
const ids = (list: { id: string }[]) => list.map((r) => r.id);

describe("indexDoc", () => {
  it("offers tags with several values as dimensions, and the metrics with numbers", () => {
    const doc = indexDoc(0, rows);
    expect(doc.dimensions).toEqual([
      { name: "task", values: ["arith", "uuid"] },
      { name: "horizonK", values: ["4", "8"] },
    ]);
    expect(doc.categories).toEqual(["ERR", "FORMAT", "TIME"]);
    expect(doc.families).toEqual(["A", "B"]);
    expect(doc.metrics).toEqual(["accuracy"]);
    expect(doc.primaryMetric).toBe("accuracy");
    expect(rows[3]?.tokens).toBe(120);
  });
});

describe("filterRows", () => {
  it("keeps rows matching status, category, family, tags and text", () => {
    expect(ids(filterRows(rows, { tags: {}, status: "failure" }))).toEqual(["t10@0", "t3@0"]);
    expect(ids(filterRows(rows, { tags: {}, category: "ERR" }))).toEqual(["t1@0"]);
    expect(ids(filterRows(rows, { tags: {}, family: "B" }))).toEqual(["t3@0"]);
    expect(ids(filterRows(rows, { tags: { task: "uuid", horizonK: "8" } }))).toEqual(["t3@0"]);
    expect(ids(filterRows(rows, { tags: {}, text: "T1" }))).toEqual(["t10@0", "t1@0"]);
  });

  it("keeps a score range inclusive, and drops rows without the metric", () => {
    const ranged = filterRows(rows, { tags: {}, metric: "accuracy", min: 0.25, max: 0.5 });
    expect(ids(ranged)).toEqual(["t10@0", "t3@0"]);
    expect(ids(filterRows(rows, { tags: {}, metric: "accuracy", min: 0 }))).toEqual([
      "t10@0",
      "t2@0",
      "t3@0",
    ]);
    // A metric alone, without bounds, keeps everything.
    expect(filterRows(rows, { tags: {}, metric: "accuracy" })).toHaveLength(4);
  });
});

describe("sortRows", () => {
  it("sorts ids naturally, numbers by value, missing values last either way", () => {
    expect(ids(sortRows(rows, { key: "id", descending: false }))).toEqual([
      "t1@0",
      "t2@0",
      "t3@0",
      "t10@0",
    ]);
    expect(ids(sortRows(rows, { key: "steps", descending: true }))).toEqual([
      "t3@0",
      "t10@0",
      "t2@0",
      "t1@0",
    ]);
    expect(ids(sortRows(rows, { key: "metric:accuracy", descending: false }))).toEqual([
      "t3@0",
      "t10@0",
      "t2@0",
      "t1@0",
    ]);
    expect(ids(sortRows(rows, { key: "metric:accuracy", descending: true }))).toEqual([
      "t2@0",
      "t10@0",
      "t3@0",
      "t1@0",
    ]);
    expect(ids(sortRows(rows, { key: "tag:task", descending: false }))).toEqual([
      "t10@0",
      "t1@0",
      "t2@0",
      "t3@0",
    ]);
  });

  it("is a stable permutation", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 40 }),
        fc.boolean(),
        (steps, descending) => {
          const list = steps.map((s, i) => ({
            ...(rows[0] as (typeof rows)[0]),
            id: `e${i}`,
            steps: s,
          }));
          const sorted = sortRows(list, { key: "steps", descending });
          expect([...sorted].map((r) => r.id).sort()).toEqual(list.map((r) => r.id).sort());
          for (let i = 1; i < sorted.length; i++) {
            const [a, b] = [sorted[i - 1]!, sorted[i]!];
            const order = descending ? b.steps - a.steps : a.steps - b.steps;
            expect(order).toBeLessThanOrEqual(0);
            if (a.steps === b.steps)
              expect(Number(a.id.slice(1))).toBeLessThan(Number(b.id.slice(1)));
          }
        },
      ),
    );
  });
});

describe("table state in the address", () => {
  it("round-trips every field and leaves defaults out", () => {
    const state: TableState = {
      filter: {
        status: "failure",
        category: "TIME",
        family: "A",
        tags: { task: "a&b", horizonK: "4" },
        metric: "accuracy",
        min: 0.1,
        max: 0.9,
        text: "t 1",
      },
      sort: { key: "metric:accuracy", descending: true },
      page: 2,
    };
    const query = formatState(state);
    expect(query).toContain("sort=-metric%3Aaccuracy");
    expect(query).toContain("page=3");
    expect(parseState(query)).toEqual(state);
    expect(formatState(DEFAULT_STATE)).toBe("");
    expect(parseState("")).toEqual(DEFAULT_STATE);
  });

  it("ignores values that are not numbers", () => {
    const s = parseState("min=abc&max=&page=zero");
    expect(s.filter.min).toBeUndefined();
    expect(s.filter.max).toBeUndefined();
    expect(s.page).toBe(0);
  });
});

describe("tableView", () => {
  it("cuts pages of PAGE_SIZE and clamps the page", () => {
    const many = Array.from({ length: PAGE_SIZE * 2 + 5 }, (_, i) => ({
      ...(rows[1] as (typeof rows)[0]),
      id: `e${i}`,
    }));
    const last = tableView(many, { ...DEFAULT_STATE, page: 9 });
    expect(last.pages).toBe(3);
    expect(last.page).toBe(2);
    expect(ids(last.shown)).toEqual(["e200", "e201", "e202", "e203", "e204"]);
    expect(tableView(many, DEFAULT_STATE).shown).toHaveLength(PAGE_SIZE);
  });
});
