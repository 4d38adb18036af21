import { describe, expect, it } from "vitest";
import { mcnemarExact, pairedOutcomes } from "./paired.ts";

describe("pairedOutcomes", () => {
  it("counts each kind over shared keys only", () => {
    const a = new Map([
      ["t1", true],
      ["t2", true],
      ["t3", false],
      ["t4", false],
      ["t5", false],
      ["only-a", true],
    ]);
    const b = new Map([
      ["t1", true],
      ["t2", false],
      ["t3", true],
      ["t4", false],
      ["t5", true],
      ["only-b", false],
    ]);
    expect(pairedOutcomes(a, b)).toEqual({
      retained: 1,
      lost: 1,
      gained: 2,
      unsolved: 1,
      pairs: 5,
    });
  });

  it("mirrors lost and gained when the runs swap", () => {
    const a = new Map([
      ["x", true],
      ["y", false],
      ["z", false],
    ]);
    const b = new Map([
      ["x", false],
      ["y", true],
      ["z", true],
    ]);
    expect(pairedOutcomes(a, b)).toMatchObject({ lost: 1, gained: 2 });
    expect(pairedOutcomes(b, a)).toMatchObject({ lost: 2, gained: 1 });
  });
});

describe("mcnemarExact", () => {
  it("matches hand-computed binomial tails", () => {
    // n = 7, P(X <= 1) = (1 + 7) / 128
    expect(mcnemarExact(1, 6)).toBeCloseTo(2 * (8 / 128), 12);
    expect(mcnemarExact(6, 1)).toBeCloseTo(0.125, 12);
    // n = 10, P(X <= 2) = (1 + 10 + 45) / 1024
    expect(mcnemarExact(2, 8)).toBeCloseTo(2 * (56 / 1024), 12);
    expect(mcnemarExact(0, 5)).toBeCloseTo(2 / 32, 12);
  });

  it("is 1 for balanced or no discordant pairs and tiny for lopsided large ones", () => {
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(4, 4)).toBe(1);
    expect(mcnemarExact(3, 4)).toBe(1);
    const p = mcnemarExact(400, 600);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-9);
  });
});
