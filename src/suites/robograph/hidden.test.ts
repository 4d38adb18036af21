import { describe, expect, it } from "vitest";
import { leakedValues } from "../../check/index.ts";
import { DEFAULT_ACCESS } from "../../core/index.ts";
import { compileFamilies, DEFAULT_SEED } from "./compiler.ts";
import { goalNodeIds } from "./environment.ts";
import { builtinFamilies } from "./families.ts";
import { hiddenNodeIds } from "./hidden.ts";
import { robographSuite } from "./index.ts";

describe("RoboGraph's hidden rule", () => {
  it("hides the occluded nodes the goal does not name, and no view shows them", async () => {
    // One built-in family compiles in a fraction of the whole suite's time.
    const dining = builtinFamilies().find((f) => f.id === "dining")!;
    const specs = compileFamilies([{ ...dining, scenes: 4 }], DEFAULT_SEED);
    let checked = 0;
    for (const spec of specs) {
      const env = await robographSuite.make(spec, { access: DEFAULT_ACCESS });
      const observation = await env.reset();
      const latent = env.latent!();
      const hidden = hiddenNodeIds(latent);
      const goal = new Set(goalNodeIds(spec.payload.goal));
      expect(hidden.some((id) => goal.has(id))).toBe(false);
      expect(leakedValues(observation, hidden)).toEqual([]);
      checked += hidden.length;
      // The rule is not vacuous: a view naming a hidden node is caught.
      if (hidden[0]) expect(leakedValues({ view: [hidden[0]] }, hidden)).toEqual([hidden[0]]);
    }
    expect(checked).toBeGreaterThan(10);
  });
});
