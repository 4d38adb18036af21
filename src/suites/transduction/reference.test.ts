import { describe, expect, it } from "vitest";
import type { ExpectedOutput } from "./expected.ts";
import { offByOne, type REFERENCE_KINDS, referenceOutput } from "./reference.ts";
import { scoreOutput } from "./verify.ts";

// Ten distinct records, so no shifted line matches by accident.
const lines = (numbered: boolean): ExpectedOutput => ({
  task: "arith",
  numbered,
  header: [],
  rows: Array.from({ length: 10 }, (_, i) => ({ id: i + 1, cells: [`9-${i}`, String(9 - i)] })),
});
// Four rows of two cells under a header: 8 records, 5 output lines, matched by position.
const table: ExpectedOutput = {
  task: "table",
  numbered: false,
  header: ["[C1]", "[C0]"],
  rows: [1, 2, 3, 4].map((r) => ({ id: r, label: `[R${r - 1}]`, cells: [`${r}1`, `${r}0`] })),
};

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

  it("tables: records are data cells matched by position; truncate-half keeps 2 of 5 lines", () => {
    expect(accuracy("oracle", table)).toBe(1);
    // Row 3 dropped: row 4 shifts into its place and row 4 is missing.
    expect(accuracy("drop-one", table)).toBe(0.5);
    expect(accuracy("swap-two", table)).toBe(0.5);
    expect(accuracy("off-by-one", table)).toBe(7 / 8);
    // The header and row 1 are kept.
    expect(accuracy("truncate-half", table)).toBe(0.25);
  });

  it("writes the required output lines for the oracle", () => {
    expect(referenceOutput("oracle", table)).toBe(
      ",[C1],[C0]\n[R0],11,10\n[R1],21,20\n[R2],31,30\n[R3],41,40\n",
    );
    expect(referenceOutput("oracle", lines(true)).split("\n")[0]).toBe("[1]9-0=9");
    expect(referenceOutput("oracle", lines(false)).split("\n")[0]).toBe("9-0=9");
  });

  it("off-by-one moves an arithmetic value, keeping the copied expression", () => {
    expect(referenceOutput("off-by-one", lines(true)).split("\n")[5]).toBe("[6]9-5=5");
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
