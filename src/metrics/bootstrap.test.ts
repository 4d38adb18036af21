import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bootstrapCi, bootstrapMean, bootstrapMeans } from "./bootstrap.ts";
import { mean } from "./rates.ts";

describe("bootstrap", () => {
  it("is deterministic for a seed and changes with the seed", () => {
    const values = [3.1, 1.41, 4.7, 1.9, 5.03, 9.2, 2.65, 6.5, 5.89, 3.58, 5.97];
    const a = bootstrapMean(values, { resamples: 2000, seed: "s" });
    expect(bootstrapMean(values, { resamples: 2000, seed: "s" })).toEqual(a);
    expect(bootstrapMean(values, { resamples: 2000, seed: "t" })).not.toEqual(a);
    expect(a.value).toBe(mean(values));
    expect(a.low).toBeLessThan(a.value);
    expect(a.high).toBeGreaterThan(a.value);
  });

  it("gives the resampled-mean quantiles of a 0/1 sample", () => {
    // Resampled means of [0,0,1,1] are Binomial(4, 1/2)/4: P(0) = P(1) = 1/16 > 2.5%,
    // P(<= 1/4) = 5/16 > 25%, so the 95% interval is [0, 1] and the 50% one [1/4, 3/4].
    const values = [0, 0, 1, 1];
    expect(bootstrapMean(values)).toEqual({ value: 0.5, low: 0, high: 1 });
    expect(bootstrapMean(values, { level: 0.5 })).toEqual({ value: 0.5, low: 0.25, high: 0.75 });
  });

  it("bootstrapMean equals bootstrapCi with the mean statistic", () => {
    const values = [0.2, 0.9, 0.4, 0.4, 0.1, 0.7];
    expect(bootstrapMean(values, { resamples: 500 })).toEqual(
      bootstrapCi(values, mean, { resamples: 500 }),
    );
  });

  it("bootstraps several columns jointly with the same draws as one column alone", () => {
    const x = [0.2, 0.9, 0.4, 0.4, 0.1, 0.7];
    const y = [5, 3, 8, 1, 0, 2];
    const opts = { resamples: 500, seed: "joint" };
    expect(bootstrapMeans([x, y], opts)).toEqual([bootstrapMean(x, opts), bootstrapMean(y, opts)]);
    expect(() => bootstrapMeans([x, [1]])).toThrow(RangeError);
  });

  it("bootstraps any statistic over any items", () => {
    const records = [{ ok: true }, { ok: false }, { ok: true }, { ok: true }];
    const rate = (s: { ok: boolean }[]) => s.filter((r) => r.ok).length / s.length;
    const ci = bootstrapCi(records, rate, { resamples: 1000 });
    expect(ci.value).toBe(0.75);
    expect(ci.low).toBeLessThanOrEqual(0.75);
    expect(ci.high).toBe(1);
  });

  it("keeps low <= value <= high, and constant data gives a zero-width interval", () => {
    const finite = fc.double({ min: -1e6, max: 1e6, noNaN: true });
    fc.assert(
      fc.property(fc.array(finite, { minLength: 1, maxLength: 30 }), fc.string(), (xs, seed) => {
        const r = bootstrapMean(xs, { resamples: 300, seed });
        expect(r.low).toBeLessThanOrEqual(r.value);
        expect(r.value).toBeLessThanOrEqual(r.high);
      }),
    );
    fc.assert(
      fc.property(finite, fc.integer({ min: 1, max: 20 }), (x, n) => {
        const r = bootstrapMean(Array(n).fill(x), { resamples: 200 });
        expect(r.low).toBe(r.value);
        expect(r.high).toBe(r.value);
      }),
    );
  });

  it("rejects empty samples and bad settings", () => {
    expect(() => bootstrapMean([])).toThrow(RangeError);
    expect(() => bootstrapMean([1], { resamples: 0 })).toThrow(RangeError);
    expect(() => bootstrapMean([1], { level: 1 })).toThrow(RangeError);
  });
});
