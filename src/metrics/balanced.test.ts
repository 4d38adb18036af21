import { describe, expect, it } from "vitest";
import { groupBalancedMean, nestedBalancedMean } from "./balanced.ts";
import { mean } from "./rates.ts";

interface Trial {
  suite: string;
  task: string;
  z: number;
}

// Suite s1: task t1 solves 1 of 4 conditions, t2 solves 2 of 2; suite s2: t3 solves 0 of 4.
const trials: Trial[] = [
  ...[1, 0, 0, 0].map((z) => ({ suite: "s1", task: "t1", z })),
  ...[1, 1].map((z) => ({ suite: "s1", task: "t2", z })),
  ...[0, 0, 0, 0].map((z) => ({ suite: "s2", task: "t3", z })),
];

describe("group-balanced means", () => {
  it("weights each group equally, unlike the plain mean", () => {
    const items = [
      { g: "a", v: 1 },
      { g: "a", v: 1 },
      { g: "a", v: 1 },
      { g: "b", v: 0 },
    ];
    expect(mean(items.map((i) => i.v))).toBe(0.75);
    expect(
      groupBalancedMean(
        items,
        (i) => i.g,
        (i) => i.v,
      ),
    ).toBe(0.5);
  });

  it("averages conditions within tasks, tasks within suites, suites equally (EP §5.5)", () => {
    // s1 = (1/4 + 2/2) / 2 = 0.625, s2 = 0, score = 0.3125
    expect(nestedBalancedMean(trials, [(t) => t.suite, (t) => t.task], (t) => t.z)).toBe(0.3125);
    // one level: s1 = 3/6, s2 = 0
    expect(
      groupBalancedMean(
        trials,
        (t) => t.suite,
        (t) => t.z,
      ),
    ).toBe(0.25);
    expect(nestedBalancedMean(trials, [], (t) => t.z)).toBe(0.3);
  });

  it("is NaN for no items", () => {
    expect(groupBalancedMean([], String, Number)).toBeNaN();
  });
});
