/** An unsolvable task family says why: the goal facts no plan reaches, or the bound that was hit. */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Rng } from "../../core/index.ts";
import { explainNoPlan, World } from "../../world/index.ts";
import { compileFamilies } from "./compiler.ts";
import { loadFamilyFile } from "./family-spec.ts";
import { generateScene } from "./generator.ts";

const LAUNDRY = readFileSync(new URL("./examples/laundry.yaml", import.meta.url), "utf8");

/** The laundry example with its colored garments going into a washer that holds one item. */
function overfullWasher(): string {
  const text = LAUNDRY.replace(
    "goal: { rel: INSIDE, target: colors }",
    "goal: { rel: INSIDE, target: washer }",
  ).replace("mustClose: true }", "mustClose: true, capacity: 1 }");
  expect(text).not.toBe(LAUNDRY);
  const path = join(mkdtempSync(join(tmpdir(), "lh-family-")), "overfull.yaml");
  writeFileSync(path, text);
  return path;
}

describe("an unsolvable family", () => {
  it("names the goal facts no plan reaches", () => {
    const family = loadFamilyFile(overfullWasher());
    // Seed "s" places two colored garments: the first fits the washer, the second cannot.
    expect(() => compileFamilies([family], "s")).toThrow(
      "the family has no solvable goal in scene laundry-t01: no plan reaches this goal fact (each together with the earlier ones that can be reached): green scarf INSIDE washing machine",
    );
  });

  it("names the planner's bound when the search stops before deciding", () => {
    const family = loadFamilyFile(overfullWasher());
    const generated = generateScene(family, new Rng("s", `${family.id}/${family.domain}/0`));
    const world = new World(generated.scene, generated.goal);
    expect(explainNoPlan(world.latentState(), world.goalAtoms(), { maxExpansions: 5 })).toEqual({
      unreachable: [],
      bound: 5,
    });
  });
});
