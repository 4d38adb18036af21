/**
 * The task model: atomic goals (L1, look_at -> walk_to -> operate), the six capability
 * categories of basic tasks (Table 2), and a task definition as compiled into a spec.
 */
import type { GoalAtom } from "../../world/index.ts";
import type { ActionName } from "./catalog.ts";

/** The six capability categories of basic tasks (appendix A, Table 2). */
export const CATEGORIES = [
  {
    id: "appliance",
    title: "Appliance operation",
    question: "Can the agent find an appliance and change its power state?",
  },
  {
    id: "container",
    title: "Container access",
    question: "Can the agent open or close cabinets, drawers, appliances and windows?",
  },
  {
    id: "power",
    title: "Power connection",
    question: "Can the agent connect devices to the mains or disconnect them?",
  },
  {
    id: "placement",
    title: "Spatial placement",
    question: "Can the agent carry an object and put it on or into the right place?",
  },
  {
    id: "handling",
    title: "Object handling",
    question: "Can the agent carry an object and dispose of it, hang it up or hand it to someone?",
  },
  {
    id: "preparation",
    title: "Food and drink preparation",
    question: "Can the agent use a tool or a vessel on something else, and work taps and knobs?",
  },
] as const;
export type CategoryId = (typeof CATEGORIES)[number]["id"];
export const CATEGORY_IDS: CategoryId[] = CATEGORIES.map((c) => c.id);

/** One atomic goal: its operating action with the object (and the target it names). */
export interface AtomicGoal {
  action: ActionName;
  object: string;
  target?: string;
  category: CategoryId;
}

/** Camera heights of the paper's two viewpoints; every task exists at both. */
export type Height = "child" | "adult";

/** A generated task, as its spec carries it (everything else is derived from it). */
export interface TaskDef {
  id: string;
  level: "basic" | "advanced";
  height: Height;
  scene: string;
  room: string;
  /** Atomic goals in the order the description names them. */
  goals: AtomicGoal[];
  /** Distinct categories of the goals, in order. */
  categories: CategoryId[];
  /** Objects actions range over: the goals' objects and targets, then the distractors. */
  objects: string[];
  distractors: string[];
  /** Attribute values that differ from the object kinds' usual ones. */
  initial: Record<string, Record<string, boolean>>;
  /** An object already in the agent's hand at the start. */
  held?: string;
  scenario: string;
  description: string;
  /** Basic tasks ranked by relevance to this advanced task (the first k are its learning tasks). */
  related: string[];
  /** The advanced task a complexity variant derives from (§5.1). */
  parent?: string;
}

/** Actions that toggle a boolean attribute, with the attribute and the value they set. */
export const TOGGLES: Partial<Record<ActionName, { attr: string; value: boolean }>> = {
  switch_on: { attr: "on", value: true },
  switch_off: { attr: "on", value: false },
  open: { attr: "open", value: true },
  close: { attr: "open", value: false },
  plug_in: { attr: "plugged", value: true },
  unplug: { attr: "plugged", value: false },
  turn: { attr: "turned", value: true },
};

/** The inverse of a toggle (turn has none: a turned tap stays turned). */
export const INVERSE: Partial<Record<ActionName, ActionName>> = {
  switch_on: "switch_off",
  switch_off: "switch_on",
  open: "close",
  close: "open",
  plug_in: "unplug",
  unplug: "plug_in",
};

/** The object an atomic goal's look_at and walk_to steps go to. */
export function reachOf(goal: AtomicGoal): string {
  switch (goal.action) {
    case "place_on":
    case "place_in":
    case "drop":
    case "hang":
    case "hand_over":
    case "pour":
      return goal.target ?? goal.object;
    default:
      return goal.object;
  }
}

/** The engine goal atom an atomic goal leaves true (pick_up leaves none: its use does). */
export function goalAtom(goal: AtomicGoal): GoalAtom | null {
  const toggle = TOGGLES[goal.action];
  if (toggle) return { pred: "ATTR", node: goal.object, attr: toggle.attr, value: toggle.value };
  const target = goal.target ?? "";
  switch (goal.action) {
    case "place_on":
    case "hang":
    case "hand_over":
      return { pred: "ON", object: goal.object, target };
    case "place_in":
    case "drop":
      return { pred: "INSIDE", object: goal.object, target };
    case "pour":
      return { pred: "ATTR", node: target, attr: "filled", value: true };
    case "cut":
      return { pred: "ATTR", node: goal.object, attr: "cut", value: true };
    default:
      return null;
  }
}
