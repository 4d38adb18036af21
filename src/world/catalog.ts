/**
 * RoboGraph's action catalog (Table 5) as data. Descriptions, parameters, hand usage and
 * failure injectability are the paper's; preconditions/effects make the rows executable.
 * Visibility checks come first so a failure never reveals anything about a hidden node.
 */
import type { ActionName, ActionSchema } from "./types.ts";

const schemas: ActionSchema[] = [
  {
    name: "observe",
    description: "Refresh the current observation without changing object state.",
    parameters: [],
    requiredFreeHands: 0,
    heldObjectRequired: false,
    handResult: "hands unchanged",
    failureInjectable: false,
    navigationOnly: false,
    preconditions: [],
    effects: [],
  },
  {
    name: "walk",
    description: "Move to an adjacent room in a navigation-enabled indoor scene.",
    parameters: ["target"],
    requiredFreeHands: 0,
    heldObjectRequired: false,
    handResult: "hands unchanged",
    failureInjectable: true,
    navigationOnly: true,
    preconditions: [{ check: "navigation" }, { check: "adjacent_room", arg: 0 }],
    effects: [{ op: "move_robot", arg: 0 }],
  },
  {
    name: "open",
    description: "Open a visible closed openable container or reveal-capable object.",
    parameters: ["container"],
    requiredFreeHands: 2,
    heldObjectRequired: false,
    handResult: "hands unchanged",
    failureInjectable: true,
    navigationOnly: false,
    preconditions: [
      { check: "visible", arg: 0 },
      { check: "affords", arg: 0, affordance: "openable" },
      { check: "attr", arg: 0, attr: "open", value: false },
      { check: "free_hands", n: 2 },
    ],
    effects: [{ op: "set_attr", arg: 0, attr: "open", value: true }],
  },
  {
    name: "close",
    description: "Close a visible open openable container.",
    parameters: ["container"],
    requiredFreeHands: 2,
    heldObjectRequired: false,
    handResult: "hands unchanged",
    failureInjectable: true,
    navigationOnly: false,
    preconditions: [
      { check: "visible", arg: 0 },
      { check: "affords", arg: 0, affordance: "openable" },
      { check: "attr", arg: 0, attr: "open", value: true },
      { check: "free_hands", n: 2 },
    ],
    effects: [{ op: "set_attr", arg: 0, attr: "open", value: false }],
  },
  {
    name: "press",
    description: "Press a visible reachable object with PRESSABLE affordance.",
    parameters: ["object"],
    requiredFreeHands: 1,
    heldObjectRequired: false,
    handResult: "hands unchanged",
    failureInjectable: true,
    navigationOnly: false,
    preconditions: [
      { check: "visible", arg: 0 },
      { check: "affords", arg: 0, affordance: "pressable" },
      { check: "attr", arg: 0, attr: "pressed", value: false },
      { check: "free_hands", n: 1 },
    ],
    effects: [{ op: "set_attr", arg: 0, attr: "pressed", value: true }],
  },
  {
    name: "grab",
    description:
      "Try to hold a visible reachable grabbable movable object; loaded carriers may reject the attempt.",
    parameters: ["object"],
    requiredFreeHands: 1,
    heldObjectRequired: false,
    handResult: "occupies one hand",
    failureInjectable: true,
    navigationOnly: false,
    preconditions: [
      { check: "visible", arg: 0 },
      { check: "affords", arg: 0, affordance: "grabbable" },
      { check: "held", arg: 0, value: false },
      { check: "detached", arg: 0 },
      { check: "unloaded", arg: 0 },
      { check: "free_hands", n: 1 },
    ],
    effects: [{ op: "grab", arg: 0 }],
  },
  {
    name: "attach",
    description:
      "Attach two visible or held compatible part nodes; use this action to satisfy ASSEMBLED goals.",
    parameters: ["part", "target"],
    requiredFreeHands: 2,
    heldObjectRequired: false,
    handResult: "two-hand coordination",
    failureInjectable: true,
    navigationOnly: false,
    preconditions: [
      { check: "visible", arg: 0 },
      { check: "visible", arg: 1 },
      { check: "affords", arg: 0, affordance: "attachable" },
      { check: "compatible", part: 0, target: 1 },
      { check: "detached", arg: 0 },
      { check: "acyclic", object: 0, target: 1 },
      { check: "free_hands", n: 2 },
    ],
    effects: [{ op: "attach", part: 0, target: 1 }],
  },
  {
    name: "puton",
    description:
      "Place a held object on a visible surface without creating a self-placement or placement cycle.",
    parameters: ["object", "target"],
    requiredFreeHands: 0,
    heldObjectRequired: true,
    handResult: "frees one hand",
    failureInjectable: true,
    navigationOnly: false,
    preconditions: [
      { check: "held", arg: 0, value: true },
      { check: "visible", arg: 1 },
      { check: "acyclic", object: 0, target: 1 },
      { check: "affords", arg: 1, affordance: "support" },
      { check: "not_full", arg: 1 },
    ],
    effects: [{ op: "place", object: 0, rel: "ON", target: 1 }],
  },
  {
    name: "putin",
    description:
      "Place a held object inside a visible container that is open if openable, without creating a self-containment or containment cycle.",
    parameters: ["object", "container"],
    requiredFreeHands: 0,
    heldObjectRequired: true,
    handResult: "frees one hand",
    failureInjectable: true,
    navigationOnly: false,
    preconditions: [
      { check: "held", arg: 0, value: true },
      { check: "visible", arg: 1 },
      { check: "acyclic", object: 0, target: 1 },
      { check: "affords", arg: 1, affordance: "contain" },
      { check: "open_if_openable", arg: 1 },
      { check: "not_full", arg: 1 },
    ],
    effects: [{ op: "place", object: 0, rel: "INSIDE", target: 1 }],
  },
  {
    name: "move_aside",
    description: "Move a visible movable blocker aside so hidden nodes may become visible.",
    parameters: ["object"],
    requiredFreeHands: 1,
    heldObjectRequired: false,
    handResult: "hands unchanged",
    failureInjectable: true,
    navigationOnly: false,
    preconditions: [
      { check: "visible", arg: 0 },
      { check: "affords", arg: 0, affordance: "movable" },
      { check: "held", arg: 0, value: false },
      { check: "attr", arg: 0, attr: "moved_aside", value: false },
      { check: "free_hands", n: 1 },
    ],
    effects: [{ op: "set_attr", arg: 0, attr: "moved_aside", value: true }],
  },
  {
    name: "stop",
    description: "End the episode and submit the current state for success evaluation.",
    parameters: [],
    requiredFreeHands: 0,
    heldObjectRequired: false,
    handResult: "hands unchanged",
    failureInjectable: false,
    navigationOnly: false,
    preconditions: [],
    effects: [{ op: "terminate" }],
  },
];

/** The complete catalog keyed by action name, in Table 5 order. */
export const ACTION_CATALOG: Readonly<Record<ActionName, ActionSchema>> = Object.fromEntries(
  schemas.map((s) => [s.name, s]),
) as Record<ActionName, ActionSchema>;

/** Catalog entries available in a scene: `walk` only when navigation is enabled (Table 5 †). */
export function catalogFor(navigation: boolean): ActionSchema[] {
  return schemas.filter((s) => navigation || !s.navigationOnly);
}
