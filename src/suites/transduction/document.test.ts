import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateDocument } from "./document.ts";
import { outputLines } from "./expected.ts";
import { type DocumentParams, FORMATS, TASKS } from "./params.ts";
import { referenceOutput } from "./reference.ts";
import { tokenCounter } from "./tokens.ts";
import { scoreOutput } from "./verify.ts";

const smallParams = fc.record({
  task: fc.constantFrom(...TASKS),
  format: fc.constantFrom(...FORMATS),
  difficulty: fc.integer({ min: 1, max: 4 }),
  horizonK: fc.constantFrom(4, 8),
  sample: fc.integer({ min: 1, max: 5 }),
  seed: fc.string({ minLength: 1, maxLength: 12 }),
  tokenizer: fc.constant("o200k_base" as const),
});

/** Prompt + required output, counted by encoding each whole text once. */
function fullTokens(params: DocumentParams): { total: number; target: number } {
  const doc = generateDocument(params);
  const count = tokenCounter(params.tokenizer);
  const output = `${outputLines(doc.expected).join("\n")}\n`;
  return {
    total: count(doc.instructions) + count(doc.input) + count(output),
    target: doc.tokens.target,
  };
}

describe("generateDocument", () => {
  it("oracle output scores 1 for any seed and cell", () => {
    fc.assert(
      fc.property(smallParams, (params) => {
        const doc = generateDocument(params);
        const score = scoreOutput(doc.expected, referenceOutput("oracle", doc.expected));
        expect(score.accuracy).toBe(1);
        expect(score.exact).toBe(true);
        if (params.task === "uuid") expect(score.selfConsistency).toBe(1);
      }),
      { numRuns: 40 },
    );
  });

  it("is deterministic: the same parameters give a byte-identical document", () => {
    fc.assert(
      fc.property(smallParams, (params) => {
        expect(JSON.stringify(generateDocument(params))).toBe(
          JSON.stringify(generateDocument({ ...params })),
        );
      }),
      { numRuns: 15 },
    );
  });

  it("depends on the seed", () => {
    const base: DocumentParams = {
      task: "arith",
      format: "ordered",
      difficulty: 1,
      horizonK: 4,
      sample: 1,
      seed: "a",
      tokenizer: "o200k_base",
    };
    expect(generateDocument(base).input).not.toBe(generateDocument({ ...base, seed: "b" }).input);
  });

  it("matches the drop-one and swap-two scores computed by hand on numbered streams", () => {
    fc.assert(
      fc.property(smallParams, (p) => {
        const doc = generateDocument({
          ...p,
          format: p.format === "unnumbered" ? "ordered" : p.format,
        });
        const e = doc.expected;
        const mid = e.rows[Math.floor(e.rows.length / 2)]!;
        const records = e.header.length + e.rows.reduce((n, r) => n + r.cells.length, 0);
        const dropped = scoreOutput(e, referenceOutput("drop-one", e));
        expect(dropped.correct).toBe(records - mid.cells.length);
        expect(scoreOutput(e, referenceOutput("swap-two", e)).accuracy).toBe(1);
      }),
      { numRuns: 20 },
    );
  });

  it("presents every id exactly once in the shuffled format", () => {
    const doc = generateDocument({
      task: "lookup",
      format: "shuffled",
      difficulty: 2,
      horizonK: 4,
      sample: 2,
      seed: "s",
      tokenizer: "o200k_base",
    });
    const ids = doc.input
      .split("\n")
      .map((line) => /^(\d+): /.exec(line)?.[1])
      .filter((id) => id !== undefined)
      .map(Number);
    expect(ids).not.toEqual([...ids].sort((a, b) => a - b));
    expect([...ids].sort((a, b) => a - b)).toEqual(doc.expected.rows.map((r) => r.id));
  });

  it("hits the token target within 5%, measured on the whole texts", () => {
    fc.assert(
      fc.property(smallParams, (params) => {
        const { total, target } = fullTokens(params);
        expect(Math.abs(total / target - 1)).toBeLessThanOrEqual(0.05);
      }),
      { numRuns: 12 },
    );
    for (const params of [
      { task: "uuid", format: "unnumbered", difficulty: 4, horizonK: 128 },
      { task: "table", format: "ordered", difficulty: 3, horizonK: 32 },
      { task: "lookup", format: "shuffled", difficulty: 4, horizonK: 4 },
    ] as const) {
      for (const tokenizer of ["o200k_base", "cl100k_base"] as const) {
        const { total, target } = fullTokens({ ...params, sample: 3, seed: "budget", tokenizer });
        expect(Math.abs(total / target - 1)).toBeLessThanOrEqual(0.05);
      }
    }
  });

  it("keeps the required output within the output allowance", () => {
    fc.assert(
      fc.property(smallParams, (params) => {
        const { tokens } = generateDocument(params);
        expect(tokens.output).toBeLessThanOrEqual(tokens.allowance);
      }),
      { numRuns: 20 },
    );
  });
});
