/**
 * One EmbodiedCLBench episode (paper §3.4): the agent is given the task description; at each
 * step it sees the current scene (a description standing in for the first-person image) and
 * four options A-D, and selects one with `select_option` (with a brief reason). A valid option
 * moves along the state-transition graph; an invalid one uses the step and leaves the state
 * as it was. The episode ends when the goal state is reached; the step budget (shortest path
 * plus extra steps) is the card's maxSteps, which the episode session enforces. Feedback is
 * the authors' generic one ("Action accepted." / "The selected action failed."), so it never
 * reveals which role an option had.
 */
import type {
  AccessProfile,
  Action,
  Budgets,
  EnvEvent,
  Environment,
  EpisodeOutcome,
  InvalidAction,
  Json,
  Observation,
  StepResult,
  TaskCard,
  TaskSpec,
  ToolSpec,
} from "../../core/index.ts";
import { type EpisodeGraph, episodeGraphOf } from "./episode-graph.ts";
import { type Choice, LABELS, type Role } from "./options.ts";
import type { ContinualPayload } from "./payload.ts";

/** The selection tool (the authors' MCP `select_option`). */
export const SELECT_OPTION: ToolSpec = {
  name: "select_option",
  description:
    "Select one of the listed options by its letter, with a brief reason. Each selection is one step.",
  parameters: {
    type: "object",
    properties: {
      option: { type: "string", enum: [...LABELS], description: "the letter of the option" },
      reason: { type: "string", description: "a brief reason for the choice" },
    },
    required: ["option"],
    additionalProperties: false,
  },
};

/** What the agent observes at each step. */
export interface ContinualView {
  task: string;
  scene: string;
  choices: { label: string; text: string }[];
  /** Feedback on the previous selection. */
  previous?: string;
  /** Selections made so far. */
  step: number;
}

/** One decision as the outcome records it (privileged: roles and states). */
export interface DecisionLog {
  label: string | null;
  /** The selected option's hidden role; "malformed" when no listed option was named. */
  role: Role | "malformed";
  action: string | null;
  from: string;
  to: string;
  toDepth: number;
  valid: boolean;
  distanceBefore: number;
  distanceAfter: number;
}

/** The privileged end state the scorer reads. */
export interface ContinualOutcome {
  reachedGoal: boolean;
  pathLength: number;
  budget: number;
  decisions: DecisionLog[];
  initialState: string;
  initialDepth: number;
  finalState: string;
  finalPredicates: string[];
  goalPredicates: string[];
  referencePaths: string[][];
  maxGoalDepth: number;
}

/** The privileged latent snapshot: where the agent is and what the options really are. */
export interface ContinualLatent {
  state: string;
  distance: number;
  /** The state's predicates in the authors' vocabulary (what the goal predicates are checked against). */
  predicates: string[];
  choices: { label: string; role: Role; action: string; to: string | null }[];
}

export const ACCEPTED = "Action accepted.";
export const FAILED = "The selected action failed.";
export const NOT_LISTED = "That is not one of the listed options.";

/** The system text of every continual card (the authors' safe-choice harness prompt). */
export function instructionsFor(maxSteps: number): string {
  return [
    "You will solve a household task in a home you see described in text.",
    "At each step, read the current scene and choose the best next option.",
    "Use only the task goal, the current scene, the previous feedback and the listed choices.",
    "For each decision, call select_option with exactly one listed letter and a brief reason.",
    `Maximum environment actions: ${maxSteps}.`,
  ].join(" ");
}

const RULES = [
  "Choose exactly one listed option per step.",
  "An option that cannot be carried out in the current situation still uses a step and changes nothing.",
  "The task ends when its goal is reached or the step budget is used up.",
];

/** The letter an option argument names (the authors accept "b" or "B."), or null. */
export function optionLabel(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const m = /^\s*(?:option\s*)?([a-z])\b/i.exec(value);
  return m ? (m[1] as string).toUpperCase() : null;
}

/** One episode of a continual spec. */
export class ContinualEnvironment implements Environment {
  private readonly graph: EpisodeGraph;
  private readonly card: TaskCard;
  private readonly budget: number;
  private state = 0;
  private decisions: DecisionLog[] = [];
  private previous: string | undefined;
  private events: EnvEvent[] = [];

  constructor(
    readonly spec: TaskSpec<ContinualPayload>,
    access: AccessProfile,
    budgets: Budgets = {},
  ) {
    this.graph = episodeGraphOf(spec.payload);
    this.budget = budgets.maxSteps ?? this.graph.pathLength + spec.payload.extra;
    this.card = {
      id: spec.id,
      suite: "continual",
      title: "EmbodiedCLBench household task",
      instructions: `${instructionsFor(this.budget)}\n\nTask: ${this.graph.description}`,
      tools: [SELECT_OPTION],
      modes: ["tool"],
      rules: RULES,
      budgets: { maxSteps: this.budget },
      access,
    };
  }

  describe(): TaskCard {
    return this.card;
  }

  reset(): Observation {
    this.state = 0;
    this.decisions = [];
    this.previous = undefined;
    this.events = [];
    return this.observe();
  }

  private choices(): Choice[] {
    return this.graph.isGoal(this.state) ? [] : this.graph.choices(this.state);
  }

  private observe(): Observation {
    const view: ContinualView = {
      task: this.graph.description,
      scene: this.graph.scene(this.state),
      choices: this.choices().map(({ label, text }) => ({ label, text })),
      ...(this.previous ? { previous: this.previous } : {}),
      step: this.decisions.length,
    };
    return { step: this.decisions.length, events: this.events, view: view as unknown as Json };
  }

  step(action: Action): StepResult {
    const from = this.state;
    const selected = this.selection(action);
    const choice = selected.label
      ? this.choices().find((c) => c.label === selected.label)
      : undefined;
    let invalid: InvalidAction | undefined = selected.invalid;
    if (!invalid && !choice)
      invalid = {
        code: "bad-arguments",
        reason: `option must be one of ${this.labels()}`,
        path: "option",
      };
    if (choice?.to !== null && choice?.to !== undefined) this.state = choice.to;
    else if (choice) invalid = { code: "precondition", reason: FAILED };
    const reached = this.graph.isGoal(this.state);
    this.decisions.push({
      label: choice?.label ?? null,
      role: choice?.role ?? "malformed",
      action: choice?.action ?? null,
      from: this.graph.stateId(from),
      to: this.graph.stateId(this.state),
      toDepth: this.graph.depth(this.state),
      valid: choice?.to !== null && choice?.to !== undefined,
      distanceBefore: this.graph.distance(from),
      distanceAfter: this.graph.distance(this.state),
    });
    this.previous = !choice
      ? NOT_LISTED
      : invalid
        ? FAILED
        : reached
          ? `${ACCEPTED} The task is complete.`
          : ACCEPTED;
    this.events = invalid ? [{ type: "action_failed", text: this.previous }] : [];
    return {
      observation: this.observe(),
      reward: reached ? 1 : 0,
      terminated: reached,
      truncated: false,
      info: invalid ? { invalid } : {},
    };
  }

  private labels(): string {
    return this.choices()
      .map((c) => c.label)
      .join(", ");
  }

  /** The label a decision names, or why it names none. */
  private selection(action: Action): { label: string | null; invalid?: InvalidAction } {
    if (action.kind !== "tool")
      return {
        label: null,
        invalid: { code: "wrong-mode", reason: "select an option with select_option" },
      };
    const call = action.calls[0];
    if (action.calls.length !== 1 || !call)
      return {
        label: null,
        invalid: { code: "bad-arguments", reason: "make exactly one select_option call" },
      };
    if (call.tool !== SELECT_OPTION.name)
      return {
        label: null,
        invalid: { code: "unknown-tool", reason: `unknown tool ${call.tool}; use select_option` },
      };
    return { label: optionLabel((call.args as Record<string, unknown>).option) };
  }

  outcome(): EpisodeOutcome {
    const data: ContinualOutcome = {
      reachedGoal: this.graph.isGoal(this.state),
      pathLength: this.graph.pathLength,
      budget: this.budget,
      decisions: this.decisions,
      initialState: this.graph.stateId(0),
      initialDepth: this.graph.depth(0),
      finalState: this.graph.stateId(this.state),
      finalPredicates: this.graph.predicates(this.state),
      goalPredicates: this.graph.goalPredicates,
      referencePaths: this.graph.referencePaths,
      maxGoalDepth: this.graph.maxGoalDepth,
    };
    return { success: data.reachedGoal, data: data as unknown as Json };
  }

  latent(): Json {
    const latent: ContinualLatent = {
      state: this.graph.stateId(this.state),
      distance: this.graph.distance(this.state),
      predicates: this.graph.predicates(this.state),
      choices: this.choices().map((c) => ({
        label: c.label,
        role: c.role,
        action: c.action,
        to: c.to === null ? null : this.graph.stateId(c.to),
      })),
    };
    return latent as unknown as Json;
  }
}
