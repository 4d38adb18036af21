import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mean, wilson } from "./rates.ts";

describe("wilson", () => {
  it("matches hand-computed 95% bounds for 8/10", () => {
    const r = wilson(8, 10);
    expect(r.rate).toBe(0.8);
    expect(r.low).toBeCloseTo(0.4902, 4);
    expect(r.high).toBeCloseTo(0.9433, 4);
  });

  it("gives n/(n+z^2) as the lower bound at 10/10 and z^2/(n+z^2) as the upper at 0/10", () => {
    const all = wilson(10, 10);
    expect(all).toMatchObject({ rate: 1, high: 1 });
    expect(all.low).toBeCloseTo(10 / 13.8416, 10);
    const none = wilson(0, 10);
    expect(none).toMatchObject({ rate: 0, low: 0 });
    expect(none.high).toBeCloseTo(3.8416 / 13.8416, 10);
  });

  it("returns the whole range for 0/0 instead of NaN", () => {
    expect(wilson(0, 0)).toEqual({ rate: 0, low: 0, high: 1 });
  });

  it("narrows with a smaller z", () => {
    const wide = wilson(8, 10);
    const narrow = wilson(8, 10, 1);
    expect(narrow.low).toBeGreaterThan(wide.low);
    expect(narrow.high).toBeLessThan(wide.high);
  });

  it("rejects impossible counts", () => {
    expect(() => wilson(3, 2)).toThrow(RangeError);
    expect(() => wilson(-1, 2)).toThrow(RangeError);
    expect(() => wilson(0.5, 2)).toThrow(RangeError);
  });

  it("keeps 0 <= low <= rate <= high <= 1", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 5000 }), (a, b) => {
        const n = Math.max(a, b);
        const r = wilson(Math.min(a, b), n);
        expect(0 <= r.low && r.low <= r.rate && r.rate <= r.high && r.high <= 1).toBe(true);
      }),
    );
  });
});

describe("mean", () => {
  it("averages and is NaN for nothing", () => {
    expect(mean([1, 2, 6])).toBe(3);
    expect(mean([])).toBeNaN();
  });
});
