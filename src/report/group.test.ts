import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupBy, naturalCompare } from "./group.ts";

describe("naturalCompare", () => {
  it("orders digit runs by value", () => {
    expect(["pos10", "pos2", "pos1", "16k", "4k", "b", "a"].sort(naturalCompare)).toEqual([
      "4k",
      "16k",
      "a",
      "b",
      "pos1",
      "pos2",
      "pos10",
    ]);
  });

  it("is a consistent total order", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(Math.sign(naturalCompare(a, b)) + Math.sign(naturalCompare(b, a))).toBe(0);
        expect(naturalCompare(a, b) === 0).toBe(a === b);
      }),
    );
  });
});

describe("groupBy", () => {
  it("puts numeric keys first in numeric order, then text naturally", () => {
    const items = [10, 2, "x10", "x9", 2].map((key) => ({ key }));
    expect(groupBy(items, (i) => i.key).map(([key, group]) => [key, group.length])).toEqual([
      [2, 2],
      [10, 1],
      ["x9", 1],
      ["x10", 1],
    ]);
  });
});
