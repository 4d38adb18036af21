/**
 * RoboGraph's action catalog (Table 5) as data. Descriptions, parameters, hand results and
 * failure injectability are the paper's; preconditions/effects make the rows executable, and
 * the table's free hands, held-object and navigation-only columns are derived from them
 * (catalog.ts). Visibility checks come first so a failure never reveals a hidden node.
 */
import { type ActionSchema, Catalog, type CatalogEntry } from "./catalog.ts";
import type { ActionName } from "./types.ts";

const TABLE_5: ActionSchema[] = [
  {
    name: "observe",
    description: "Refresh the current observation without changing object state.",
    parameters: [],
    handResult: "hands unchanged",
    failureInjectable: false,
    preconditions: [],
    effects: [],
  },
  {
    name: "walk",
    description: "Move to an adjacent room in a navigation-enabled indoor scene.",
    parameters: ["target"],
    handResult: "hands unchanged",
    failureInjectable: true,
    preconditions: [{ check: "navigation" }, { check: "adjacent_room", arg: 0 }],
    effects: [{ op: "move_robot", arg: 0 }],
  },
  {
    name: "open",
    description: "Open a visible closed openable container or reveal-capable object.",
    parameters: ["container"],
    handResult: "hands unchanged",
    failureInjectable: true,
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
    handResult: "hands unchanged",
    failureInjectable: true,
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
    handResult: "hands unchanged",
    failureInjectable: true,
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
    handResult: "occupies one hand",
    failureInjectable: true,
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
    handResult: "two-hand coordination",
    failureInjectable: true,
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
    handResult: "frees one hand",
    failureInjectable: true,
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
    handResult: "frees one hand",
    failureInjectable: true,
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
    handResult: "hands unchanged",
    failureInjectable: true,
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
    handResult: "hands unchanged",
    failureInjectable: false,
    preconditions: [],
    effects: [{ op: "terminate" }],
  },
];

/** Table 5 as a catalog; invalid input is reported as `observe`. */
export const ROBOGRAPH_CATALOG = new Catalog({ actions: TABLE_5, idle: "observe" }, "Table 5");

/** The Table 5 rows keyed by action name, in table order. */
export const ACTION_CATALOG = Object.fromEntries(
  ROBOGRAPH_CATALOG.entries.map((e) => [e.name, e]),
) as Readonly<Record<ActionName, CatalogEntry>>;

/** The rows of a scene with and without navigation, computed once: every episode shares them. */
const ROWS = {
  navigation: Object.freeze([...ROBOGRAPH_CATALOG.entries]),
  tabletop: Object.freeze(ROBOGRAPH_CATALOG.entries.filter((e) => !e.navigationOnly)),
};

/** Table 5 rows available in a scene: `walk` only when navigation is enabled (Table 5 †). */
export function catalogFor(navigation: boolean): readonly CatalogEntry[] {
  return navigation ? ROWS.navigation : ROWS.tabletop;
}
