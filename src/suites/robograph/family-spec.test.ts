import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compileFamilies } from "./compiler.ts";
import { BUILTIN_FAMILY_FILES, builtinFamilies } from "./families.ts";
import { loadFamilyFile, parseFamily } from "./family-spec.ts";

const example = fileURLToPath(new URL("./examples/laundry.yaml", import.meta.url));

describe("family files", () => {
  it("ships the built-in families as data files, each listed once, in Table 3 order", () => {
    const dir = fileURLToPath(new URL("./families/", import.meta.url));
    expect(readdirSync(dir).sort()).toEqual([...BUILTIN_FAMILY_FILES].sort());
    expect(builtinFamilies().map((f) => `${f.id}/${f.domain}`)).toEqual([
      "buffet/tabletop",
      "buffet/indoor",
      "cosmetics/tabletop",
      "desk/tabletop",
      "dining/tabletop",
      "foodpack/indoor",
      "fridge/tabletop",
      "fridge/indoor",
      "toy/tabletop",
    ]);
    // The same loader user files go through reads them.
    expect(loadFamilyFile(`${dir}/toy.yaml`)).toEqual(builtinFamilies().at(-1));
  });

  it("compiles the shipped example like a built-in family", () => {
    const family = loadFamilyFile(example);
    const specs = compileFamilies([family], "s");
    expect(specs.map((s) => s.id).slice(0, 2)).toEqual(["laundry-t01/base", "laundry-t01/i1"]);
    expect(specs).toHaveLength(21);
    expect(specs[0]?.payload.oracle.length).toBeGreaterThan(0);
  });

  it("names the path of what is wrong", () => {
    const family = loadFamilyFile(example);
    const bad = {
      ...family,
      objects: [{ ...family.objects[0], goal: { rel: "INSIDE", target: "nowhere" } }],
    };
    expect(() => parseFamily(bad)).toThrow(/objects\[0\]\.goal\.target: unknown fixture nowhere/);
    expect(() => parseFamily({ ...family, scenes: 0 })).toThrow(/scenes:/);
    // A drawn parent list must name fixtures listed earlier.
    const fixtures = family.fixtures.map((x, i) =>
      i === 1 ? { ...x, on: ["counter", "hamper"] } : x,
    );
    expect(() => parseFamily({ ...family, fixtures })).toThrow(
      /fixtures\[1\]\.on: hamper must name a fixture listed before this one/,
    );
  });
});
