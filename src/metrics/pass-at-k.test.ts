import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstKValidPassAtK, passAtK } from "./pass-at-k.ts";

function choose(n: number, k: number): number {
  let out = 1;
  for (let i = 1; i <= k; i++) out = (out * (n - k + i)) / i;
  return out;
}

describe("passAtK", () => {
  it("matches hand-computed values", () => {
    expect(passAtK(5, 2, 1)).toBeCloseTo(0.4, 12);
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 12);
    // 1 - C(7,5)/C(10,5) = 1 - 21/252
    expect(passAtK(10, 3, 5)).toBeCloseTo(1 - 21 / 252, 12);
  });

  it("is 0 with no correct sample and 1 when fewer than k samples are wrong", () => {
    expect(passAtK(5, 0, 3)).toBe(0);
    expect(passAtK(5, 3, 3)).toBe(1);
    expect(passAtK(5, 5, 1)).toBe(1);
  });

  it("stays finite for large n where binomials overflow", () => {
    const p = passAtK(2000, 10, 100);
    expect(p).toBeGreaterThan(0.4);
    expect(p).toBeLessThan(0.41);
  });

  it("agrees with the binomial formula and grows with k", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.nat(), fc.nat(), (n, cSeed, kSeed) => {
        const c = cSeed % (n + 1);
        const k = (kSeed % n) + 1;
        const p = passAtK(n, c, k);
        const exact = n - c < k ? 1 : 1 - choose(n - c, k) / choose(n, k);
        expect(p).toBeCloseTo(exact, 9);
        if (k < n) expect(passAtK(n, c, k + 1)).toBeGreaterThanOrEqual(p - 1e-12);
      }),
    );
  });

  it("rejects impossible arguments", () => {
    expect(() => passAtK(3, 4, 1)).toThrow(RangeError);
    expect(() => passAtK(3, 1, 0)).toThrow(RangeError);
    expect(() => passAtK(3, 1, 4)).toThrow(RangeError);
  });
});

describe("firstKValidPassAtK", () => {
  const fail = { valid: true, success: false };
  const win = { valid: true, success: true };
  const incident = { valid: false, success: false };
  const unscoredWin = { valid: false, success: true };

  it("skips invalid attempts and scores the first k valid ones", () => {
    const attempts = [unscoredWin, fail, incident, win];
    expect(firstKValidPassAtK(attempts, 1)).toBe(0);
    expect(firstKValidPassAtK(attempts, 2)).toBe(1);
  });

  it("ignores attempts after the scoring window", () => {
    expect(firstKValidPassAtK([fail, fail, win], 2)).toBe(0);
  });

  it("scores an early success even when fewer than k attempts were made", () => {
    expect(firstKValidPassAtK([win], 2)).toBe(1);
  });

  it("is null while opportunities remain without a success", () => {
    expect(firstKValidPassAtK([], 1)).toBeNull();
    expect(firstKValidPassAtK([fail, incident], 2)).toBeNull();
  });
});
