/**
 * MAGMA-Bench's compiled data (seed 000, §4; the authors' compiled-benchmark schema): an episode
 * is one condition of one nominal task specification under one semantic realization. Its payload
 * holds the initial scene, the stage sequence the user channel releases on progress, the frozen
 * stage-scoped faults and the realization's renaming. Everything here is plain JSON.
 */
import type { GoalAtom, Rewrite, SceneGraph } from "../../world/index.ts";

/** The five conditions of §4.3: clean, mission update, stochastic execution, interruption, combined. */
export const CONDITIONS = ["CE", "MU", "SE", "IN", "CO"] as const;
export type Condition = (typeof CONDITIONS)[number];

/** The individual perturbation families a scenario supports (Table 2's last column). */
export type Perturbation = "MU" | "SE" | "IN";

/** Nominal horizon buckets (§4.3): successful skill executions of the clean expert solution. */
export const BUCKETS = [
  { id: "short", min: 10, max: 15 },
  { id: "medium", min: 16, max: 30 },
  { id: "long", min: 31, max: 45 },
  { id: "very-long", min: 46, max: 65 },
  { id: "extreme", min: 66, max: 90 },
] as const;
export type Bucket = (typeof BUCKETS)[number]["id"];

/** Generalization tracks (§4.3): in-domain, compositional, held-out family. */
export type Track = "ID" | "CG" | "HO";

/** Which successful skill calls a log rule counts: subset matches on canonical names. */
export interface LogMatch {
  skill?: string;
  /** The call acts on this node (an argument, or what the robot held). */
  item?: string;
  robot?: string;
  args?: Record<string, string>;
  content?: Record<string, string>;
}

/** A goal over the ordered action log of the stage: `count` calls matching, exactly or at least. */
export interface LogGoal {
  match: LogMatch;
  op: "eq" | "ge";
  count: number;
}

/** One unit of work of an action stage: world atoms and log goals that must all hold. */
export interface Unit {
  /** Family-specific kind, e.g. "sort", "coffee", "press"; the expert's program for it. */
  kind: string;
  /** Canonical parameters (item, destination, person, ...). */
  args: Record<string, string>;
  atoms: GoalAtom[];
  logs: LogGoal[];
  /** The rule (stage id) this unit's parameters come from, when the request left them out. */
  rule?: string;
}

/**
 * Where a constraint comes from: the current instruction (breaking it is a rule-comprehension
 * failure) or an earlier rule (a constraint violation, §5.3).
 */
export type ConstraintSource = "instruction" | "rule";

/** What an action stage forbids; violating it fails the stage. */
export type Constraint =
  | { kind: "atom"; atom: GoalAtom; source: ConstraintSource }
  | { kind: "log"; match: LogMatch; source: ConstraintSource };

/** A frozen, stage-scoped execution fault (SE): it fires only when the policy reaches the stage. */
export interface FaultSpec {
  id: string;
  /** A failed grasp or placement leaves the world unchanged; a missed detection hides items. */
  kind: "grasp" | "execution" | "missed_detection";
  /** Compatible canonical skills. */
  skills: string[];
  /** Only a call naming this item triggers it (grasp faults). */
  item?: string;
  /** Items a missed detection leaves out of its report. */
  hidden?: string[];
  /** How many compatible calls it hits. */
  times: number;
}

/** The deterministic semantic rule an open answer is judged by (§4.1, "episode-specific semantic rule"). */
export type AnswerRule =
  | { kind: "count"; n: number }
  | { kind: "set"; items: string[]; universe: string[] }
  | { kind: "value"; value: string; others: string[] }
  | { kind: "clarify" };

/** One stage of the mission script (the authors' declarative stage: act, answer or acknowledge). */
export interface Stage {
  id: string;
  type: "act" | "answer" | "acknowledge";
  /** The user's words that open the stage (realized); absent: it continues the previous work. */
  instruction?: string;
  /** Request primitive, for reports and the trace audit (direct, ordered, rule, update, ...). */
  request: string;
  /** act: the units of work (all must hold, or `minUnits` of them: an interrupted X1). */
  units?: Unit[];
  minUnits?: number;
  /** act: units must complete in this order; who said so decides the failure label. */
  ordered?: ConstraintSource;
  /** act: pairs [i, j]: unit i must complete before unit j (a precedence rule's partial order). */
  precedes?: [number, number][];
  precedesSource?: ConstraintSource;
  forbid?: Constraint[];
  /** act: tool-call budget: the clean expert's calls and the limit (authors: twice the target). */
  target?: number;
  max?: number;
  faults?: FaultSpec[];
  /** answer: the deterministic rule, the expert's answer and the skills allowed before answering. */
  rule?: AnswerRule;
  answer?: string;
  allowTools?: string[];
  /** Stages whose instructions this one relies on (rules, the interrupted request). */
  needs?: string[];
  /** An interrupted request's stage (X1 of X1 -> Y -> X2) or its resumption (X2). */
  split?: "before" | "after";
  /** The interruption Y of an IN condition. */
  interrupts?: string;
  /** An external change when the stage starts (new items arrive, dishes get dirty). */
  enter?: Rewrite[];
}

/** A perturbation injected into the clean stage sequence (the authors' InterventionSpec). */
export interface Intervention {
  type: "mission_update" | "interruption" | "execution_error";
  injectedAt: string;
  /** The stage where remembering it matters (lag = its index minus injectedAt's). */
  relevantAt?: string;
}

/** A tool (skill) as the agent sees it, realized. */
export interface SkillInterface {
  name: string;
  description: string;
  parameters: Record<string, { type: "string" | "object"; description: string }>;
}

/** A pinned judge: "provider:model", an optional endpoint and its price (USD per million tokens). */
export interface JudgeSpec {
  model: string;
  baseUrl?: string;
  price?: { input: number; output: number; cachedInput?: number };
}

/** The payload of one compiled episode. */
export interface MagmaPayload {
  family: string;
  /** The nominal task specification this episode instantiates (e.g. color-sorting-04). */
  spec: string;
  condition: Condition;
  realization: number;
  bucket: Bucket;
  /** Successful skill executions of the clean expert solution. */
  horizon: number;
  track: Track;
  robots: number;
  /** Canonical initial state, shared by every condition and realization of the spec. */
  scene: SceneGraph;
  stages: Stage[];
  interventions: Intervention[];
  /** The clean episode with the same spec and realization (paired evaluation). */
  control: string;
  /** Realization: canonical token -> realized token (robots, skills, items, places, classes). */
  names: Record<string, string>;
  /** Pinned LLM judge for open answers, when compiled with one. */
  judge?: JudgeSpec;
}
