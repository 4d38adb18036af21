/**
 * EmbodiedCLBench's atomic action templates (the authors' `atomic_templates_updated_env_v3`:
 * look_at, walk_to, pick_up, place on/in, drop, open, close, switch on/off, pour, hang, hand
 * over, cut, plug in, unplug, turn, stand up) as a world-engine catalog. Each template's pre- and
 * post-state predicates become preconditions and effects: `look_at` brings an object into view
 * (`in_view`), `walk_to` needs it in view and makes it reachable (`with_reach`), every other
 * action needs its object (or its target) within reach. Where a template leaves its target
 * implicit (drop, hang, hand over, pour, cut: "with a knife") the engine action names it, so
 * that an atomic goal is look_at -> walk_to -> operate on one object (paper §4.1).
 */
import { type ActionSchema, Catalog, type Precondition } from "../../world/index.ts";

/** Names of the engine actions, in catalog order (the authors' action types). */
export const ACTION_NAMES = [
  "look_at",
  "walk_to",
  "pick_up",
  "place_on",
  "place_in",
  "drop",
  "open",
  "close",
  "switch_on",
  "switch_off",
  "pour",
  "hang",
  "hand_over",
  "cut",
  "plug_in",
  "unplug",
  "turn",
  "stand_up",
] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

/** The authors' template id of each action (the `template_id` of their graph edges). */
export const TEMPLATE_IDS: Record<ActionName, string> = {
  look_at: "look_at_{object}",
  walk_to: "walk_to_{object}",
  pick_up: "pick_up_{object}",
  place_on: "place_{object1}_on_{object2}",
  place_in: "place_{object1}_in_{object2}",
  drop: "drop_{object}",
  open: "open_{object}",
  close: "close_{object}",
  switch_on: "switch_on_{object}",
  switch_off: "switch_off_{object}",
  pour: "pour_{object}",
  hang: "hang_{object}",
  hand_over: "hand_over_{object}",
  cut: "cut_{object}",
  plug_in: "plug_in_{object}",
  unplug: "unplug_{object}",
  turn: "turn_{object}",
  stand_up: "stand_up",
};

const reach = (arg: number): Precondition => ({
  check: "attr",
  arg,
  attr: "with_reach",
  value: true,
});
const held = (arg: number): Precondition => ({ check: "held", arg, value: true });
const attr = (arg: number, name: string, value: boolean): Precondition => ({
  check: "attr",
  arg,
  attr: name,
  value,
});
const affords = (arg: number, affordance: string): Precondition => ({
  check: "affords",
  arg,
  affordance,
});

/** A toggle on a reachable object: `name` sets `attrName` to `value`. */
function toggle(
  name: ActionName,
  affordance: string,
  attrName: string,
  value: boolean,
  description: string,
): ActionSchema {
  return {
    name,
    description,
    parameters: ["object"],
    failureInjectable: false,
    preconditions: [reach(0), affords(0, affordance), attr(0, attrName, !value)],
    effects: [{ op: "set_attr", arg: 0, attr: attrName, value }],
  };
}

/** Release a held object onto or into a reachable target that affords `affordance`. */
function release(
  name: ActionName,
  affordance: string,
  rel: "ON" | "INSIDE",
  description: string,
): ActionSchema {
  return {
    name,
    description,
    parameters: ["object", "target"],
    failureInjectable: false,
    preconditions: [
      held(0),
      reach(1),
      affords(1, affordance),
      ...(rel === "INSIDE" ? [{ check: "open_if_openable", arg: 1 } as const] : []),
      { check: "acyclic", object: 0, target: 1 },
    ],
    effects: [{ op: "place", object: 0, rel, target: 1 }],
  };
}

/** The catalog as data (exported so tests and docs can read the rows). */
export const CONTINUAL_ACTIONS: ActionSchema[] = [
  {
    name: "look_at",
    description: "Look at an object until it enters view.",
    parameters: ["object"],
    failureInjectable: false,
    preconditions: [{ check: "visible", arg: 0 }, attr(0, "in_view", false)],
    effects: [{ op: "set_attr_only", arg: 0, attr: "in_view" }],
  },
  {
    name: "walk_to",
    description: "Walk to an object that is already in view until it becomes reachable.",
    parameters: ["object"],
    failureInjectable: false,
    // Not already within reach: walking on the spot would be a self-loop, no edge of the
    // authors' DAG (and look_at likewise needs the object out of view).
    preconditions: [
      attr(0, "in_view", true),
      attr(0, "with_reach", false),
      { check: "held", arg: 0, value: false },
    ],
    effects: [{ op: "set_attr_only", arg: 0, attr: "with_reach" }],
  },
  {
    name: "pick_up",
    description: "Pick up a pickable object that is within reach.",
    parameters: ["object"],
    failureInjectable: false,
    preconditions: [
      reach(0),
      affords(0, "grabbable"),
      { check: "held", arg: 0, value: false },
      { check: "free_hands", n: 1 },
    ],
    effects: [{ op: "grab", arg: 0 }],
  },
  release("place_on", "support", "ON", "Place a held object onto a reachable surface."),
  release("place_in", "contain", "INSIDE", "Place a held object into a reachable container."),
  release("drop", "disposal", "INSIDE", "Drop a held object into a reachable bin or basket."),
  toggle("open", "openable", "open", true, "Open an openable object that is within reach."),
  toggle("close", "openable", "open", false, "Close an openable object that is within reach."),
  toggle("switch_on", "switchable", "on", true, "Switch on a powerable object within reach."),
  toggle("switch_off", "switchable", "on", false, "Switch off a powerable object within reach."),
  {
    name: "pour",
    description: "Pour from a held, filled container into a reachable empty one.",
    parameters: ["object", "target"],
    failureInjectable: false,
    preconditions: [
      held(0),
      affords(0, "pourable"),
      attr(0, "filled", true),
      reach(1),
      affords(1, "fillable"),
      attr(1, "filled", false),
    ],
    effects: [
      { op: "set_attr", arg: 0, attr: "filled", value: false },
      { op: "set_attr", arg: 1, attr: "filled", value: true },
    ],
  },
  release("hang", "hang", "ON", "Hang a held object on a reachable hook or rack."),
  release("hand_over", "receive", "ON", "Hand a held object over to a person within reach."),
  {
    name: "cut",
    description: "Cut a reachable cuttable object while holding a knife.",
    parameters: ["object", "tool"],
    failureInjectable: false,
    preconditions: [
      reach(0),
      affords(0, "cuttable"),
      attr(0, "cut", false),
      held(1),
      affords(1, "blade"),
    ],
    effects: [{ op: "set_attr", arg: 0, attr: "cut", value: true }],
  },
  toggle("plug_in", "pluggable", "plugged", true, "Plug in a reachable pluggable object."),
  toggle("unplug", "pluggable", "plugged", false, "Unplug a reachable pluggable object."),
  toggle("turn", "turnable", "turned", true, "Turn a reachable tap, knob or valve."),
  {
    name: "stand_up",
    description: "Stand up from a seated posture.",
    parameters: ["seat"],
    failureInjectable: false,
    preconditions: [affords(0, "seat"), attr(0, "seated", true)],
    effects: [{ op: "set_attr", arg: 0, attr: "seated", value: false }],
  },
];

/** The catalog the continual suite's worlds run on. */
export const CONTINUAL_CATALOG = new Catalog({ actions: CONTINUAL_ACTIONS }, "continual catalog");

/**
 * The authors' action id of an engine action: the template with its roles bound, e.g.
 * `look_at_table_lamp`, `place_cup_on_dining_table`; a named target of an action whose
 * template leaves it implicit follows `_into_` / `_on_` / `_to_` / `_with_`.
 */
export function actionId(name: ActionName, args: readonly string[]): string {
  const [a = "", b = ""] = args;
  switch (name) {
    case "place_on":
      return `place_${a}_on_${b}`;
    case "place_in":
      return `place_${a}_in_${b}`;
    case "drop":
    case "pour":
      return `${name}_${a}_into_${b}`;
    case "hang":
      return `hang_${a}_on_${b}`;
    case "hand_over":
      return `hand_over_${a}_to_${b}`;
    case "cut":
      return `cut_${a}_with_${b}`;
    case "stand_up":
      return `stand_up_from_${a}`;
    default:
      return `${name}_${a}`;
  }
}
