/**
 * What a MAGMA scenario family is: data (robots, places, items, the skill interface grounded
 * in a world-engine catalog, permanent rules, durations, vocabulary for semantic realizations)
 * plus small scenario programs: `step` (the expert's next skill for a free robot on a unit,
 * from the symbolic state) and `generate` (state-valid requests sampled from the current
 * symbolic state, through a MissionBuilder, each request's goal as units of world atoms and
 * log goals).
 */
import type { Json } from "../../core/index.ts";
import type { Catalog, SceneGraph } from "../../world/index.ts";
import type { MissionBuilder } from "./mission-builder.ts";
import type { SymState } from "./sym-state.ts";
import type { FaultSpec, Perturbation, Unit } from "./types.ts";

/** How a skill's world action gets its arguments. */
export type ArgSource =
  /** a tool parameter */
  | `param:${string}`
  /** what the robot holds */
  | "$held"
  /** the robot's own id */
  | "$robot"
  /** a fixed node */
  | `@${string}`
  /** the place of the robot's room where it puts things down (Family.here) */
  | "$here"
  /** the container the robot carries (Family.tray) */
  | "$tray";

/** What a successful skill reports (canonical names). */
export interface SkillReport {
  message: string;
  /** Structured result logged with the call (log goals match on it). */
  content?: Record<string, string>;
  /** Items the agent now knows of (a detection's findings). */
  reveal?: string[];
  /** What the call acted on, when not its arguments (a wash: the machine's load). */
  items?: string[];
}

/** One skill of the interface, grounded in a catalog action. */
export interface SkillDef {
  name: string;
  description: string;
  params: Record<string, { type: "string" | "object"; description: string }>;
  /** The catalog action, or a choice of action by the call's arguments. */
  action: string | ((args: Record<string, string>) => string);
  args: ArgSource[];
  /** perception skills report what they see (missed detections apply); info skills look things up. */
  kind: "act" | "perception" | "info";
  /** Fault kinds this skill is compatible with. */
  faults: FaultSpec["kind"][];
  /** The parameter naming the item it acts on (grasp faults, detection requirement). */
  item?: string;
  /** The item must have been detected first (perception localises it). */
  needsDetection?: boolean;
  /** A precondition the catalog cannot express (reach, robot class), at start and end. */
  guard?(s: SymState, robot: string, args: Record<string, string>): string | null;
  /** The success report; `hidden` are the items a missed detection leaves out. */
  report?(
    s: SymState,
    robot: string,
    args: Record<string, string>,
    hidden: readonly string[],
  ): SkillReport;
}

/** A skill call the expert chooses (canonical). */
export interface ExpertCall {
  skill: string;
  args: Record<string, string>;
}

/** What the expert's step sees. */
export interface StepContext {
  s: SymState;
  robot: string;
  /** Items known to the agent (detected or named). */
  known: ReadonlySet<string>;
  /** Items other robots are working on (running or assigned in this decision). */
  reserved: ReadonlySet<string>;
  /** Robots busy now (running a skill or assigned one in this decision). */
  busy: ReadonlySet<string>;
  /** Units of the current stage still to complete, in stage order. */
  open: readonly Unit[];
}

/** A MAGMA scenario family (Table 2 row). */
export interface Family {
  id: string;
  title: string;
  robots: number;
  perturbations: readonly Perturbation[];
  /** The setting as the task card describes it. */
  setting: string;
  /** Permanent rules R_p (card.rules). */
  rules: readonly string[];
  catalog: Catalog;
  skills: readonly SkillDef[];
  /** Nominal seconds per skill (durations are drawn around them). */
  durations: Readonly<Record<string, number>>;
  /** Canonical token -> its two alternative realizations (realization 0 keeps the canonical). */
  vocabulary: Readonly<Record<string, readonly [string, string]>>;
  /** Observed task attributes k_t besides robot statuses (canonical names). */
  attributes(s: SymState, known: ReadonlySet<string>): Record<string, Json>;
  /** Items the agent knows from the start. */
  initiallyKnown(scene: SceneGraph): string[];
  /** Items the attributes list now (the agent observes them without detecting). */
  listed?(s: SymState): string[];
  /** Where a robot puts things down in its current room (`$here`). */
  here?(s: SymState, robot: string): string | undefined;
  /** The container a robot carries things in (`$tray`). */
  tray?(robot: string): string | undefined;
  /** Expected successful skills of a unit from a state (horizon targeting). */
  cost(unit: Unit, s: SymState): number;
  /** The expert's next call for a free robot on the open units, or null. */
  step(ctx: StepContext): ExpertCall | null;
  /** The scenario program: state-valid requests until the target horizon is reached. */
  generate(b: MissionBuilder): void;
}
