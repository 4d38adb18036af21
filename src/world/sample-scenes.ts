/**
 * Hand-built worked examples for tests, the bench and docs: the study scene (appendix A's
 * pencil-case example, extended with a nested closed drawer/box, an assemblable lipstick, a
 * button and a second room) and the two-robot depot scene with its own skill catalog.
 */
import { Catalog } from "./catalog.ts";
import type { Goal, SceneGraph, WorldNode } from "./types.ts";

function node(
  id: string,
  type: WorldNode["type"],
  affordances: WorldNode["affordances"],
  extra: Partial<WorldNode> = {},
): WorldNode {
  return {
    id,
    type,
    name: id.replace(/_/g, " "),
    category: extra.category ?? id,
    affordances,
    attrs: {},
    ...extra,
  };
}

/** The study scene; `navigation` adds the hall with a shelf and two markers. */
export function studyScene(navigation = false): SceneGraph {
  const nodes: WorldNode[] = [
    node("study", "room", []),
    node("desk", "furniture", ["support"]),
    node("pencil_case", "container", ["openable", "contain"], { attrs: { open: true } }),
    node("red_pen", "object", ["grabbable"], { category: "pen" }),
    node("book", "object", ["grabbable", "movable"], { attrs: { moved_aside: false } }),
    node("drawer", "container", ["openable", "contain"], { attrs: { open: false }, capacity: 3 }),
    node("box", "container", ["openable", "contain", "grabbable"], { attrs: { open: false } }),
    node("eraser", "object", ["grabbable"]),
    node("lipstick_body", "part", ["grabbable"], { attrs: { assembled: false } }),
    node("lipstick_cap", "part", ["grabbable", "attachable"], {
      attrs: { assembled: false },
      compatible: ["lipstick_body"],
    }),
    node("lamp_button", "object", ["pressable"], { attrs: { pressed: false } }),
  ];
  const edges: SceneGraph["edges"] = [
    { from: "desk", to: "study", rel: "IN_ROOM" },
    { from: "drawer", to: "study", rel: "IN_ROOM" },
    { from: "pencil_case", to: "desk", rel: "ON" },
    { from: "red_pen", to: "desk", rel: "ON" },
    { from: "book", to: "desk", rel: "ON" },
    { from: "book", to: "red_pen", rel: "OCCLUDES" },
    { from: "box", to: "drawer", rel: "INSIDE" },
    { from: "eraser", to: "box", rel: "INSIDE" },
    { from: "lipstick_body", to: "desk", rel: "ON" },
    { from: "lipstick_cap", to: "desk", rel: "ON" },
    { from: "lamp_button", to: "desk", rel: "ON" },
  ];
  if (navigation) {
    nodes.push(
      node("hall", "room", []),
      node("shelf", "furniture", ["support"]),
      node("marker_1", "object", ["grabbable"], { category: "marker" }),
      node("marker_2", "object", ["grabbable"], { category: "marker" }),
    );
    edges.push(
      { from: "study", to: "hall", rel: "ADJACENT" },
      { from: "shelf", to: "hall", rel: "IN_ROOM" },
      { from: "marker_1", to: "shelf", rel: "ON" },
      { from: "marker_2", to: "shelf", rel: "ON" },
    );
  }
  return {
    nodes,
    edges,
    robots: [{ id: "robot", room: "study", hands: [null, null] }],
    navigation,
  };
}

/** Appendix A's goal: INSIDE(red pen, pencil case) ∧ CLOSED(pencil case). */
export const PEN_GOAL: Goal = {
  all: [
    { pred: "INSIDE", object: "red_pen", target: "pencil_case" },
    { pred: "CLOSED", node: "pencil_case" },
  ],
};

/**
 * A MAGMA-flavoured skill catalog for the depot scene: navigation between places, one-handed
 * picks and puts with a duration each, a switch and a perception skill without effects.
 */
export const DEPOT_CATALOG = new Catalog({
  idle: "detect",
  actions: [
    {
      name: "move_to",
      description: "Drive to a place.",
      parameters: ["place"],
      duration: 5,
      preconditions: [{ check: "type", arg: 0, type: "room" }],
      effects: [{ op: "move_robot", arg: 0 }],
    },
    {
      name: "pick",
      description: "Grasp a visible object.",
      parameters: ["object"],
      duration: 3,
      failureInjectable: true,
      preconditions: [
        { check: "visible", arg: 0 },
        { check: "affords", arg: 0, affordance: "grabbable" },
        { check: "held", arg: 0, value: false },
        { check: "free_hands", n: 1 },
      ],
      effects: [{ op: "grab", arg: 0 }],
    },
    {
      name: "put",
      description: "Put a held object into a visible container.",
      parameters: ["object", "container"],
      duration: 3,
      failureInjectable: true,
      preconditions: [
        { check: "held", arg: 0, value: true },
        { check: "visible", arg: 1 },
        { check: "acyclic", object: 0, target: 1 },
        { check: "affords", arg: 1, affordance: "contain" },
        { check: "not_full", arg: 1 },
      ],
      effects: [{ op: "place", object: 0, rel: "INSIDE", target: 1 }],
    },
    {
      name: "switch_on",
      description: "Switch a visible device on.",
      parameters: ["device"],
      duration: 1,
      preconditions: [
        { check: "visible", arg: 0 },
        { check: "affords", arg: 0, affordance: "switchable" },
        { check: "attr", arg: 0, attr: "on", value: false },
      ],
      effects: [{ op: "set_attr", arg: 0, attr: "on", value: true }],
    },
    {
      name: "detect",
      description: "Report the objects in view.",
      parameters: [],
      duration: 1,
      preconditions: [],
      effects: [],
    },
  ],
});

/**
 * Two robots with different skills: a one-handed `arm` fixed at the station and a `cart`
 * without hands carrying a tray (capacity 2) between the station and the storage room, where a
 * conveyor can be switched on.
 */
export function depotScene(): SceneGraph {
  const nodes: WorldNode[] = [
    node("station", "room", []),
    node("storage", "room", []),
    node("table", "furniture", ["support"]),
    node("red_box", "object", ["grabbable"], { category: "box" }),
    node("blue_box", "object", ["grabbable"], { category: "box" }),
    node("tray", "container", ["contain"], { capacity: 2 }),
    node("conveyor", "furniture", ["switchable"], { attrs: { on: false } }),
  ];
  const edges: SceneGraph["edges"] = [
    { from: "table", to: "station", rel: "IN_ROOM" },
    { from: "red_box", to: "table", rel: "ON" },
    { from: "blue_box", to: "table", rel: "ON" },
    { from: "tray", to: "cart", rel: "ON" },
    { from: "conveyor", to: "storage", rel: "IN_ROOM" },
  ];
  return {
    nodes,
    edges,
    robots: [
      { id: "arm", room: "station", hands: [null], skills: ["pick", "put", "detect"] },
      { id: "cart", room: "station", hands: [], skills: ["move_to", "detect"] },
    ],
    navigation: false,
  };
}

/** Load the red box onto the cart and bring the cart to storage. */
export const DEPOT_GOAL: Goal = {
  all: [
    { pred: "INSIDE", object: "red_box", target: "tray" },
    { pred: "AT", node: "cart", room: "storage" },
  ],
};
