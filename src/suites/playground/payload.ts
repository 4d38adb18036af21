/** The compiled payload of one playground task condition. */
import type { Json } from "../../core/index.ts";
import type { CatalogEntry } from "./catalog.ts";
import type { Family, FamilyBudget, Level, RejectionRule } from "./protocol.ts";

/** One EP-100 task under one of its four conditions, at one access level. */
export interface PlaygroundPayload {
  entry: CatalogEntry;
  family: Family;
  /** Condition index 0-3 (§5.2). */
  condition: number;
  level: Level;
  /** What a rejected action does to the attempt (§5.4; protocol.ts). */
  rejected: RejectionRule;
  budget: FamilyBudget;
  /** Table 18 workload score. */
  workload: number;
  /** Public task description, rules and declared parameters. */
  instructions: string;
  rules: string[];
  /** The family's scene definition after the condition's perturbations (serializable). */
  scene: Json;
}

/** A payload as a family compiles it, before the suite adds the run-wide rejection rule. */
export type FamilyPayload = Omit<PlaygroundPayload, "rejected">;

/** The card's rule line for each rejection rule. */
export const REJECTION_RULE_TEXT: Record<RejectionRule, string> = {
  invalid:
    "A rejected action (unknown tool, bad arguments, a tool not granted, a failed precondition, also inside a program) ends the episode as an invalid attempt (ERR, §5.4).",
  feedback:
    "A rejected action is refused with feedback and costs nothing (development setting; the paper makes the attempt invalid).",
};

/** The full payload: the family's, with the rejection rule and its card line. */
export function withRejectionRule(
  payload: FamilyPayload,
  rejected: RejectionRule,
): PlaygroundPayload {
  return { ...payload, rejected, rules: [...payload.rules, REJECTION_RULE_TEXT[rejected]] };
}
