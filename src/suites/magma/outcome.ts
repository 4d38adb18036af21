/** What a MAGMA episode ends with: the privileged outcome data the scorer reads. */

/** Terminal outcome labels of unsuccessful episodes (§5.3, Figure 4), as record categories. */
export const LABELS = {
  "no-progress": "No-progress/Timeout",
  "text-for-action": "Text-for-action mismatch",
  "action-for-text": "Action-for-text mismatch",
  "rule-comprehension": "Rule-comprehension failure",
  "constraint-violation": "Constraint violation",
  "invalid-format": "Invalid format",
  "answer-rejected": "Answer rejected",
} as const;
export type Label = keyof typeof LABELS;

/** Per-intervention result: was the stage it matters for reached and completed, at what lag. */
export interface InterventionResult {
  type: string;
  lag: number | null;
  reached: boolean;
  done: boolean;
}

/**
 * The trace audit of §5.4 (Table 4b), counted online in multi-robot episodes: state-dependent
 * assignment errors per evaluable call, reassign/cancel errors per evaluable interruption
 * decision, resume successes per resume obligation.
 */
export interface Audit {
  calls: number;
  assignmentErrors: number;
  interruptionDecisions: number;
  interruptionErrors: number;
  resumeObligations: number;
  resumeSuccesses: number;
}

/** The outcome data of one episode. */
export interface MagmaOutcome {
  success: boolean;
  label?: Label;
  reason?: string;
  /** Stages (subgoals, Eq. 8) completed and in total. */
  stagesDone: number;
  stages: number;
  /** Index of the stage the episode ended in. */
  endedAt: number;
  horizon: number;
  decisions: number;
  toolCalls: number;
  badCalls: number;
  skillsSucceeded: number;
  faultsFired: number;
  simTime: number;
  interventions: InterventionResult[];
  audit: Audit;
  judgeCalls: number;
  judgeCostUsd: number;
}
