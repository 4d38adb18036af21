/**
 * What a task family provides to the shared playground environment: a MuJoCo world with its
 * tools, monitors (violations found while stepping) and the views each access level may read.
 */
import type { Json } from "../../core/index.ts";
import type { Sim } from "../../physics/index.ts";
import type { Family, FamilyBudget, Violation } from "./protocol.ts";

/** An action the world refuses (bad arguments, a tool not granted, a broken precondition). */
export class ToolRefusal extends Error {
  constructor(
    readonly code: "unknown-tool" | "bad-arguments" | "not-allowed" | "precondition",
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
}

/** Runs control periods for a tool; every period counts as one action. */
export interface Control {
  /**
   * Run up to `max` control periods, stopping early once `done()` holds after a period.
   * Returns false when the episode ended meanwhile (violation, terminal event, budget).
   */
  run(max: number, done?: () => boolean): boolean;
  /** Control periods per simulated second. */
  readonly hz: number;
}

/** What a tool reports back to the agent. */
export interface ToolResult {
  text: string;
  data?: Json;
}

/** A tool's implementation; its declaration (schema, grant) lives in the family definition. */
export type WorldTool = (args: Record<string, unknown>, control: Control) => ToolResult;

/** A terminal event the world declares (e.g. the last projectile has come to rest). */
export interface WorldEnd {
  code: "AMMO" | "DROP";
  detail: string;
}

/** One task instance of a family, live in a Sim. */
export interface World {
  readonly family: Family;
  readonly budget: FamilyBudget;
  readonly sim: Sim;
  /** The family's tools by name (the environment adds observe, step, wait and run_program). */
  tools(): Record<string, WorldTool>;
  /** Apply the `step` tool's low-level command (validated; refusals are ToolRefusal). */
  applyCommand(args: Record<string, unknown>): void;
  /** Called before every physics step (drive mocap targets and mechanisms). */
  beforePhysics(dt: number): void;
  /** Called after every physics step (monitors: contacts, fracture, limits). */
  afterPhysics(): void;
  /** Called after every control period (rule checks, dwell windows). */
  afterControl(): void;
  /** Violations recorded so far, in order. */
  readonly violations: Violation[];
  /** A terminal event, if the task can no longer succeed. */
  ended(): WorldEnd | undefined;
  /** Public observations: proprioception, mechanism readings, declared task state. */
  publicView(): Json;
  /** L3 read-only simulator fields. */
  simulatorView(): Json;
  /** Events since the last call (hits, fractures, seated rings), for the agent. */
  drainEvents(): string[];
  /** Evidence for the independent evaluator (history summaries). */
  evidence(): Json;
  close(): void;
}

/** A family's reading of the evidence: whether the goal (with its stability window) was met. */
export interface Verdict {
  goal: boolean;
  /** Simulated time of the success event. */
  successTime?: number;
  detail: string;
}
