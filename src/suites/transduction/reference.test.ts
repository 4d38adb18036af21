import { describe, expect, it } from "vitest";
import type { ExpectedOutput } from "./expected.ts";
import { offByOne, type REFERENCE_KINDS, referenceOutput } from "./reference.ts";
import { scoreOutput } from "./verify.ts";

// Ten distinct answers, so no shifted line matches by accident.
const answers = Array.from({ length: 10 }, (_, i) => String(100 + i));
const lines = (numbered: boolean): ExpectedOutput => ({
  task: "arith",
  numbered,
  table: false,
  header: [],
  rows: answers.map((a, i) => ({ id: i + 1, cells: [a] })),
});
// Four rows of two cells under a two-cell header: 10 records, 5 output lines.
const table = (numbered: boolean): ExpectedOutput => ({
  task: "table",
  numbered,
  table: true,
  header: ["b", "a"],
  rows: [1, 2, 3, 4].map((r) => ({ id: r, cells: [`${r}1`, `${r}0`] })),
});

const accuracy = (kind: (typeof REFERENCE_KINDS)[number], expected: ExpectedOutput) =>
  scoreOutput(expected, referenceOutput(kind, expected)).accuracy;

describe("reference agents' hand-computed scores", () => {
  it("numbered lines: drop-one (N-1)/N, swap-two 1, off-by-one (N-1)/N, truncate-half 1/2", () => {
    const e = lines(true);
    expect(accuracy("oracle", e)).toBe(1);
    expect(accuracy("drop-one", e)).toBe(0.9);
    expect(accuracy("swap-two", e)).toBe(1);
    expect(accuracy("off-by-one", e)).toBe(0.9);
    expect(accuracy("truncate-half", e)).toBe(0.5);
  });

  it("unnumbered lines: dropping row 6 of 10 cascades to 5/10, a swap costs 2", () => {
    const e = lines(false);
    expect(accuracy("oracle", e)).toBe(1);
    expect(accuracy("drop-one", e)).toBe(0.5);
    expect(accuracy("swap-two", e)).toBe(0.8);
    expect(accuracy("off-by-one", e)).toBe(0.9);
    expect(accuracy("truncate-half", e)).toBe(0.5);
  });

  it("tables: records are cells; truncate-half keeps 2 of 5 lines", () => {
    expect(accuracy("drop-one", table(true))).toBe(0.8);
    expect(accuracy("swap-two", table(true))).toBe(1);
    expect(accuracy("off-by-one", table(true))).toBe(0.9);
    expect(accuracy("truncate-half", table(true))).toBe(0.4);
    // Unnumbered: row 3 dropped, row 4 shifts into its place and row 4 is missing.
    expect(accuracy("drop-one", table(false))).toBe(0.6);
    expect(accuracy("swap-two", table(false))).toBe(0.6);
    expect(accuracy("truncate-half", table(false))).toBe(0.4);
  });

  it("writes the required output lines for the oracle", () => {
    expect(referenceOutput("oracle", table(true))).toBe(
      "id,b,a\n1,11,10\n2,21,20\n3,31,30\n4,41,40\n",
    );
    expect(referenceOutput("oracle", lines(false)).split("\n")[0]).toBe("100");
  });
});

describe("offByOne", () => {
  it("adds one to integers and moves the last character on otherwise", () => {
    expect(offByOne("41")).toBe("42");
    expect(offByOne("-1")).toBe("0");
    expect(offByOne("0a1b2c3d 0a1b2c39")).toBe("0a1b2c3d 0a1b2c30");
    expect(offByOne("brave lantern")).toBe("brave lantero");
    expect(offByOne("abz")).toBe("aba");
  });
});
