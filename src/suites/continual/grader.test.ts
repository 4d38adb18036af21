import { describe, expect, it } from "vitest";
import { type GradeInput, grade, lcsLength } from "./grader.ts";

const ref = ["a", "b", "c", "d", "e", "f"];
const step = (action: string, toState: string, toDepth: number, valid = true) => ({
  valid,
  action: valid ? action : null,
  toState,
  toDepth,
});
const base: Omit<GradeInput, "steps" | "reachedGoal" | "finalPredicates"> = {
  initialState: "s0",
  initialDepth: 0,
  goalPredicates: ["p1", "p2"],
  referencePaths: [ref, [...ref, "g"]],
  shortestLength: 6,
  maxGoalDepth: 9,
};

describe("the authors' grader (hand-worked)", () => {
  it("longest common subsequence", () => {
    expect(lcsLength("abcbdab".split(""), "bdcaba".split(""))).toBe(4);
    expect(lcsLength([], ref)).toBe(0);
    expect(lcsLength(ref, ref)).toBe(6);
  });

  it("a perfect episode scores 1", () => {
    const g = grade({
      ...base,
      steps: ref.map((a, i) => step(a, `s${i + 1}`, i + 1)),
      reachedGoal: true,
      finalPredicates: ["p1", "p2", "q"],
    });
    expect(g).toMatchObject({
      overall: 1,
      success: 1,
      efficiency: 1,
      pathQuality: 1,
      invalidPenalty: 0,
      extraSteps: 0,
    });
  });

  it("reached after a detour, a return and two invalid choices", () => {
    // Valid: a b x y c d e f (8; the return to s2 repeats a state), invalid: 2.
    const steps = [
      step("a", "s1", 1),
      step("b", "s2", 2),
      step("?", "s2", 2, false),
      step("x", "s9", 3),
      step("y", "s2", 2),
      step("?", "s2", 2, false),
      step("c", "s3", 3),
      step("d", "s4", 4),
      step("e", "s5", 5),
      step("f", "s6", 6),
    ];
    const g = grade({ ...base, steps, reachedGoal: true, finalPredicates: ["p1", "p2"] });
    expect(g.efficiency).toBeCloseTo(6 / 8, 12);
    expect(g.pathQuality).toBeCloseTo(6 / 8 - 1 / 16, 12);
    expect(g.invalidPenalty).toBeCloseTo(0.2 * (1 - Math.exp(-0.2)), 12);
    expect(g.overall).toBeCloseTo(
      0.55 + 0.25 * 0.75 + 0.2 * 0.6875 - 0.2 * (1 - Math.exp(-0.2)),
      12,
    );
    expect(g.overall).toBeCloseTo(0.838746, 6);
    expect(g.extraSteps).toBe(4);
    expect(g.redundantActions).toBe(2);
  });

  it("failed after three reference steps and a detour, with half the goal holding", () => {
    const steps = [step("a", "s1", 1), step("b", "s2", 2), step("c", "s3", 3), step("z", "s8", 4)];
    const g = grade({ ...base, steps, reachedGoal: false, finalPredicates: ["p1", "q"] });
    expect(g.nodeProgress).toBeCloseTo(4 / 6, 12);
    expect(g.prefixProgress).toBeCloseTo(0.5, 12);
    expect(g.predicateProgress).toBe(0.5);
    expect(g.pathQuality).toBeCloseTo(0.5, 12);
    expect(g.efficiency).toBeCloseTo(4 / 6, 12);
    expect(g.progress).toBeCloseTo(4 / 6, 12);
    expect(g.overall).toBeCloseTo(0.25 * (4 / 6) + 0.5 * 0.5 + 0.25 * 0.5, 12);
    expect(g.success).toBe(0);
  });

  it("nothing done scores 0; the score never leaves [0, 1]", () => {
    expect(grade({ ...base, steps: [], reachedGoal: false, finalPredicates: [] }).overall).toBe(0);
    const invalidOnly = Array.from({ length: 30 }, () => step("?", "s0", 0, false));
    expect(
      grade({ ...base, steps: invalidOnly, reachedGoal: false, finalPredicates: [] }).overall,
    ).toBe(0);
  });
});
