import { describe, expect, it } from "vitest";
import { Rng } from "../../core/index.ts";
import { TRAINING_FAMILIES, trainingTask } from "./dataset/index.ts";

/** Target attempts a training task dropped because the expert failed its own mission. */
function expertFailures(rejected: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(rejected).filter(([why]) => why.startsWith("the expert fails")),
  );
}

describe("the expert solves the missions its scenario programs request (§4.4)", () => {
  // Warehouse Sorting closed an area that already held objects ("keep it empty"): its forbid
  // constraint held before any action, so the expert's first skill ended the episode on a
  // constraint violation (11 dropped attempts in the default dataset, all in these two tasks).
  it.each([1287, 1309])("warehouse sorting, training task %i of magma-train-1", (index) => {
    const task = trainingTask("magma-train-1", index);
    expect(task.family).toBe("warehouse-sorting");
    expect(expertFailures(task.rejected)).toEqual({});
  });

  it("in 30 sampled training tasks of every family, under any condition", () => {
    const rng = new Rng("expert-property", "indices");
    const failures: string[] = [];
    TRAINING_FAMILIES.forEach((family, f) => {
      for (let k = 0; k < 30; k++) {
        // Indices congruent to f cycle to family f.
        const task = trainingTask("test-train", rng.int(100_000) * TRAINING_FAMILIES.length + f);
        expect(task.family).toBe(family);
        for (const [why, n] of Object.entries(expertFailures(task.rejected)))
          failures.push(`${task.id}: ${why} x${n}`);
      }
    });
    expect(failures).toEqual([]);
  });
});
