/** The scenario families by id (Table 2 order). */
import type { Family } from "../family.ts";
import type { PlanHooks } from "../mission-builder.ts";
import { colorSorting } from "./color-sorting.ts";

/** A family with the hooks its perturbation plans need. */
export interface FamilyModule {
  family: Family & PlanHooks;
}

export const FAMILIES: Readonly<Record<string, FamilyModule>> = {
  "color-sorting": { family: colorSorting },
};
