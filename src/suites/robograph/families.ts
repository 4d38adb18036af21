/**
 * The built-in task families of RoboGraphBench (Table 3): seven families, nine domain
 * variants, 84 source scenes, as YAML data files in `families/` read by the loader user family
 * files go through (family-spec.ts). Goal sizes match the paper's per-family subgoal counts
 * (Tables 6-8: buffet 10, cosmetics 20, desk 21, dining 9, food packing 12, fridge 14, toy 16);
 * object, container and occluder counts are tuned so oracle lengths land near the paper's
 * per-family L_o.
 */
import { fileURLToPath } from "node:url";
import { type FamilySpec, loadFamilyFile } from "./family-spec.ts";

/** The family files in Table 3 order (buffet and fridge in both domains). */
export const BUILTIN_FAMILY_FILES = [
  "buffet-tabletop.yaml",
  "buffet-indoor.yaml",
  "cosmetics.yaml",
  "desk.yaml",
  "dining.yaml",
  "foodpack.yaml",
  "fridge-tabletop.yaml",
  "fridge-indoor.yaml",
  "toy.yaml",
] as const;

let cached: readonly FamilySpec[] | undefined;

/**
 * The built-in families, read once from the data files beside this module (in `src/` and in a
 * build alike: the build copies `families/*.yaml`).
 */
export function builtinFamilies(): readonly FamilySpec[] {
  cached ??= BUILTIN_FAMILY_FILES.map((file) =>
    loadFamilyFile(fileURLToPath(new URL(`./families/${file}`, import.meta.url))),
  );
  return cached;
}
