/** The four task families by name. */

import type { Family } from "./family.ts";
import { arithFamily } from "./family-arith.ts";
import { lookupFamily } from "./family-lookup.ts";
import { tableFamily } from "./family-table.ts";
import { uuidFamily } from "./family-uuid.ts";
import type { TaskName } from "./params.ts";

/** Generator of each task family. */
export const FAMILIES: Record<TaskName, Family> = {
  arith: arithFamily,
  uuid: uuidFamily,
  lookup: lookupFamily,
  table: tableFamily,
};
