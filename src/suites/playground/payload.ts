/** The compiled payload of one playground task condition. */
import type { Json } from "../../core/index.ts";
import type { CatalogEntry } from "./catalog.ts";
import type { Family, FamilyBudget, Level } from "./protocol.ts";

/** One EP-100 task under one of its four conditions, at one access level. */
export interface PlaygroundPayload {
  entry: CatalogEntry;
  family: Family;
  /** Condition index 0-3 (§5.2). */
  condition: number;
  level: Level;
  budget: FamilyBudget;
  /** Table 18 workload score. */
  workload: number;
  /** Public task description, rules and declared parameters. */
  instructions: string;
  rules: string[];
  /** The family's scene definition after the condition's perturbations (serializable). */
  scene: Json;
}
