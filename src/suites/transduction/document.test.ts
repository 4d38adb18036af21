import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateDocument } from "./document.ts";
import { outputLines } from "./expected.ts";
import { PERM_FRACTIONS } from "./family-table.ts";
import { type DocumentParams, layoutsOf, TASKS, TOKENIZERS } from "./params.ts";
import { referenceOutput } from "./reference.ts";
import { tokenCounter } from "./tokens.ts";
import { scoreOutput } from "./verify.ts";

const smallParams = fc
  .record({
    task: fc.constantFrom(...TASKS),
    layout: fc.integer({ min: 0, max: 2 }),
    difficulty: fc.integer({ min: 1, max: 4 }),
    horizonK: fc.constantFrom(4, 8),
    sample: fc.integer({ min: 1, max: 5 }),
    seed: fc.string({ minLength: 1, maxLength: 12 }),
    tokenizer: fc.constantFrom(...TOKENIZERS),
  })
  .map(
    ({ layout, ...p }): DocumentParams => ({
      ...p,
      format: layoutsOf(p.task)[layout] as DocumentParams["format"],
    }),
  );

const params = (p: Partial<DocumentParams>): DocumentParams => ({
  task: "arith",
  format: "ordered",
  difficulty: 1,
  horizonK: 4,
  sample: 1,
  seed: "s",
  tokenizer: "cl100k_base",
  ...p,
});

/** Prompt + required output, counted by encoding each whole text once. */
function fullTokens(p: DocumentParams): { total: number; target: number } {
  const doc = generateDocument(p);
  const count = tokenCounter(p.tokenizer);
  const output = `${outputLines(doc.expected).join("\n")}\n`;
  return {
    total: count(doc.instructions) + count(doc.input) + count(output),
    target: doc.tokens.target,
  };
}

describe("generateDocument", () => {
  it("oracle output scores 1 in both modes for any seed and cell", () => {
    fc.assert(
      fc.property(smallParams, (p) => {
        const doc = generateDocument(p);
        const output = referenceOutput("oracle", doc.expected);
        for (const mode of ["reference", "strict"] as const) {
          const score = scoreOutput(doc.expected, output, mode);
          expect(score.exact).toBe(true);
          if (p.task === "arith" || p.task === "uuid") expect(score.selfConsistency).toBe(1);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("is deterministic: the same parameters give a byte-identical document", () => {
    fc.assert(
      fc.property(smallParams, (p) => {
        expect(JSON.stringify(generateDocument(p))).toBe(
          JSON.stringify(generateDocument({ ...p })),
        );
      }),
      { numRuns: 15 },
    );
  });

  it("depends on the seed", () => {
    expect(generateDocument(params({ seed: "a" })).input).not.toBe(
      generateDocument(params({ seed: "b" })).input,
    );
  });

  it("matches the drop-one and swap-two scores computed by hand on numbered streams", () => {
    fc.assert(
      fc.property(
        smallParams.filter((p) => p.format === "ordered" || p.format === "shuffled"),
        (p) => {
          const e = generateDocument(p).expected;
          const records = e.rows.length;
          expect(scoreOutput(e, referenceOutput("drop-one", e)).correct).toBe(records - 1);
          expect(scoreOutput(e, referenceOutput("swap-two", e)).accuracy).toBe(1);
        },
      ),
      { numRuns: 20 },
    );
  });

  it("presents every id exactly once in the shuffled format", () => {
    const doc = generateDocument(params({ task: "lookup", format: "shuffled", difficulty: 2 }));
    const ids = doc.input
      .split("\n")
      .map((line) => /^\[(\d+)\]/.exec(line)?.[1])
      .filter((id) => id !== undefined)
      .map(Number);
    expect(ids).not.toEqual([...ids].sort((a, b) => a - b));
    expect([...ids].sort((a, b) => a - b)).toEqual(doc.expected.rows.map((r) => r.id));
  });

  it("writes arithmetic as [N]expression with 2 to 2^d single-digit operands", () => {
    for (const difficulty of [1, 2, 3, 4]) {
      const doc = generateDocument(params({ difficulty }));
      const counts = doc.expected.rows.map((r) => r.cells[0]!.split(/[+-]/).length);
      expect(Math.min(...counts)).toBe(2);
      expect(Math.max(...counts)).toBe(2 ** difficulty);
      for (const row of doc.expected.rows) {
        expect(row.cells[0]).toMatch(/^\d([+-]\d)+$/);
        expect(Number(row.cells[1])).toBe(
          row.cells[0]!.split(/(?=[+-])/).reduce((sum, t) => sum + Number(t), 0),
        );
      }
    }
    const doc = generateDocument(params({}));
    const first = doc.expected.rows[0]!;
    expect(doc.input).toContain(`\n[1]${first.cells[0]}\n`);
    expect(outputLines(doc.expected)[0]).toBe(`[1]${first.cells[0]}=${first.cells[1]}`);
  });

  it("permutes that share of a table's rows and columns, never the identity", () => {
    for (const difficulty of [1, 2, 3, 4]) {
      const doc = generateDocument(params({ task: "table", format: "permute-int", difficulty }));
      const { header, rows } = doc.expected;
      const moved = (labels: string[]) => labels.filter((l, i) => l.slice(2, -1) !== String(i));
      const limit = (n: number) => Math.max(2, Math.round(n * PERM_FRACTIONS[difficulty - 1]!));
      expect(moved(header).length).toBeGreaterThanOrEqual(2);
      expect(moved(header).length).toBeLessThanOrEqual(limit(header.length));
      const labels = rows.map((r) => r.label!);
      expect(moved(labels).length).toBeGreaterThanOrEqual(2);
      expect(moved(labels).length).toBeLessThanOrEqual(limit(labels.length));
      expect([...labels].sort()).toEqual(rows.map((_, i) => `[R${i}]`).sort());
      expect(doc.input).toMatch(/\nNew row order: \[R\d+\],/);
      // About square, as the reference's grids: at least 20 rows.
      expect(rows.length).toBeGreaterThanOrEqual(20);
    }
  });

  it("resolves key-value tables from 4/8/16/32 keys, keeping the layout", () => {
    const doc = generateDocument(params({ task: "table", format: "kv", difficulty: 2 }));
    expect(doc.input).toMatch(/^Adjectives:\na0=\w+\n/);
    expect(doc.input).toContain("\na7=");
    expect(doc.input).not.toContain("\na8=");
    const [row] = doc.expected.rows;
    expect(row!.label).toBe("[R0]");
    expect(doc.records[0]).toMatch(/^\[R0\],a\d+\+v\d+,/);
    expect(row!.cells[0]).toMatch(/^[a-z]+ [a-z]+$/);
  });

  it("hits the token target within 5%, measured on the whole texts", () => {
    fc.assert(
      fc.property(smallParams, (p) => {
        const { total, target } = fullTokens(p);
        expect(Math.abs(total / target - 1)).toBeLessThanOrEqual(0.05);
      }),
      { numRuns: 12 },
    );
    for (const p of [
      { task: "uuid", format: "unnumbered", difficulty: 4, horizonK: 128 },
      { task: "table", format: "permute-hex", difficulty: 3, horizonK: 32 },
      { task: "lookup", format: "shuffled", difficulty: 4, horizonK: 4 },
    ] as const) {
      for (const tokenizer of TOKENIZERS) {
        const { total, target } = fullTokens(
          params({ ...p, sample: 3, seed: "budget", tokenizer }),
        );
        expect(Math.abs(total / target - 1)).toBeLessThanOrEqual(0.05);
      }
    }
  });

  it("keeps the required output within the output allowance", () => {
    fc.assert(
      fc.property(smallParams, (p) => {
        const { tokens } = generateDocument(p);
        expect(tokens.output).toBeLessThanOrEqual(tokens.allowance);
      }),
      { numRuns: 20 },
    );
  });
});
