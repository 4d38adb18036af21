import { describe, expect, it } from "vitest";
import { pairedOutcomes } from "./paired.ts";

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
