/**
 * The Embodied Playground protocol constants: Table 4 budgets, the §5.1 access levels as tool
 * grants, and the Table 19 failure codes.
 */

/** Table 4 limits of one task family. */
export interface FamilyBudget {
  physicsHz: number;
  controlHz: number;
  /** Control periods the episode may execute (planning tools count every period they run). */
  maxActions: number;
  /** Simulated seconds. */
  maxSimTime: number;
  /** Wall-clock seconds (startup included). */
  maxWallSeconds: number;
}

/** Table 4 rows for the families implemented here. */
export const FAMILY_BUDGETS = {
  launcher: {
    physicsHz: 1000,
    controlHz: 50,
    maxActions: 7500,
    maxSimTime: 150,
    maxWallSeconds: 600,
  },
  hanoi: {
    physicsHz: 120,
    controlHz: 30,
    maxActions: 18000,
    maxSimTime: 600,
    maxWallSeconds: 3600,
  },
} as const satisfies Record<string, FamilyBudget>;
export type Family = keyof typeof FAMILY_BUDGETS;

/** §5.1 access levels. */
export const LEVELS = ["L0", "L1", "L2", "L3"] as const;
export type Level = (typeof LEVELS)[number];

/** The paper's headline setting (§6.1: L3 privileged observations). */
export const DEFAULT_LEVEL: Level = "L3";

/** What each grant means; a level's grants are cumulative. */
export const GRANTS = {
  control: "low-level control: gripper pose targets and closure, mechanism actuators (every level)",
  code: "run_program: a JavaScript program in a WebAssembly sandbox calling observe/step (every level)",
  planning: "planning tools that run many control periods per call (L1+)",
  grasp: "grasp proposals for task objects (L2+)",
  simulator:
    "read-only simulator fields (the paper's privileged observations): object poses, velocities, contacts (L3)",
} as const;
export type Grant = keyof typeof GRANTS;

/** The grants of a level (cumulative, §5.1). */
export function grantsOf(level: Level): Grant[] {
  const rank = LEVELS.indexOf(level);
  const grants: Grant[] = ["control", "code"];
  if (rank >= 1) grants.push("planning");
  if (rank >= 2) grants.push("grasp");
  if (rank >= 3) grants.push("simulator");
  return grants;
}

/**
 * What a rejected action (unknown tool, bad arguments, a tool not granted, a wrong mode, a failed
 * precondition; in code mode a bridge call refused the same way) does to the attempt. §5.4:
 * "rejected actions ... produce invalid attempts": under "invalid" (the default) the first one
 * ends the episode and the attempt is invalid (ERR, consuming no Pass@k opportunity). Under
 * "feedback" (a compile option for developing agents, recorded in every spec's tags) the action
 * is refused with typed feedback and play goes on; the count is in the outcome.
 */
export const REJECTION_RULES = ["invalid", "feedback"] as const;
export type RejectionRule = (typeof REJECTION_RULES)[number];

/** Table 19 failure codes. */
export const FAILURE_CODES = {
  COLL: "Forbidden or excessive contact (robot-object, arm-arm, force limit)",
  PEN: "Penetration beyond the audited limit",
  LIMIT: "Joint, speed or physics limit exceeded",
  DROP: "Object dropped, unseated or pushed out of the workspace",
  RULE: "Task rule broken (illegal move, wrong order, protected item hit, launcher interlock)",
  MECH: "Assist-mechanism constraint broken (cube fixture relation, mechanism command)",
  AMMO: "All shots used without clearing the required targets",
  TIME: "Environment step, simulated-time or wall-clock budget exhausted",
  QUIT: "Agent finished without a qualified success",
  BUDGET: "Agent token or image budget exhausted (orchestrator stop)",
  ERR: "Invalid attempt caused by a runtime, evidence, or model-provider fault",
} as const;
export type FailureCode = keyof typeof FAILURE_CODES;

/** A recorded violation: binding for the rest of the episode (§5.4). */
export interface Violation {
  code: FailureCode;
  /** Simulated time of the violation. */
  time: number;
  detail: string;
}

/** Audited limits shared by the families (the paper leaves most undisclosed; ours are public). */
export const PHYSICAL_LIMITS = {
  /** Contact penetration beyond this is PEN (metres). */
  penetration: 0.012,
  /** A gripper palm faster than this is LIMIT (m/s); commands are rate-limited far below it. */
  palmSpeed: 1.5,
} as const;
