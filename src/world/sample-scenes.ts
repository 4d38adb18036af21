/**
 * A small hand-built study scene (appendix A's pencil-case example, extended with a nested
 * closed drawer/box, an assemblable lipstick, a button and a second room). Used by tests, the
 * bench and docs as a worked example.
 */
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
