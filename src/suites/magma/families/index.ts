/** The scenario families by id (Table 2 order). */
import type { Family } from "../family.ts";
import type { PlanHooks } from "../mission-builder.ts";
import { advancedCleanTable } from "./advanced-clean-table.ts";
import { advancedDelivery } from "./advanced-delivery.ts";
import { biRobotSorting } from "./bi-robot-sorting.ts";
import { cleanTable } from "./clean-table.ts";
import { colorSorting } from "./color-sorting.ts";
import { delivery } from "./delivery.ts";
import { hallSorting } from "./hall-sorting.ts";
import { laundry } from "./laundry.ts";
import { makeCoffee } from "./make-coffee.ts";
import { packaging } from "./packaging.ts";
import { pressButtons } from "./press-buttons.ts";
import { warehouseSorting } from "./warehouse-sorting.ts";

/** A family with the hooks its perturbation plans need. */
export interface FamilyModule {
  family: Family & PlanHooks;
}

export const FAMILIES: Readonly<Record<string, FamilyModule>> = {
  "warehouse-sorting": { family: warehouseSorting },
  "color-sorting": { family: colorSorting },
  laundry: { family: laundry },
  "bi-robot-sorting": { family: biRobotSorting },
  "make-coffee": { family: makeCoffee },
  "clean-table": { family: cleanTable },
  "press-buttons": { family: pressButtons },
  delivery: { family: delivery },
  "advanced-clean-table": { family: advancedCleanTable },
  "hall-sorting": { family: hallSorting },
  "advanced-delivery": { family: advancedDelivery },
  packaging: { family: packaging },
};
