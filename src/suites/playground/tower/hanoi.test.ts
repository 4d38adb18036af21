import { describe, expect, it } from "vitest";
import { applyMove, casePuzzle, legalMoves, shortestPlan, stackOn } from "./hanoi.ts";

describe("Hanoi logic", () => {
  it("the case puzzles have the paper's shortest plan lengths 1, 3, 9 and 31", () => {
    for (const depth of [1, 3, 9, 31]) {
      const { start, goal } = casePuzzle(depth);
      const plan = shortestPlan(start, goal);
      expect(plan).toHaveLength(depth);
      let s = start;
      for (const m of plan) {
        expect(legalMoves(s)).toContainEqual(m);
        s = applyMove(s, m);
      }
      expect(s).toEqual(goal);
    }
  });

  it("the 9-move start is distributed over all three pegs", () => {
    const { start } = casePuzzle(9);
    expect([0, 1, 2].every((p) => stackOn(start, p).length > 0)).toBe(true);
  });

  it("never allows a ring onto a smaller one", () => {
    // Ring 1 on peg 1, the rest on peg 0: ring 2 may not go onto peg 1.
    const moves = legalMoves([1, 0, 0, 0, 0]);
    expect(moves).not.toContainEqual({ ring: 2, from: 0, to: 1 });
    expect(moves).toContainEqual({ ring: 2, from: 0, to: 2 });
  });
});
