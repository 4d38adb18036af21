/**
 * A scene graph frame laid out as a tree growing to the right: each node sits one column right
 * of its parent, leaves take one row each, a parent centres on its children. Nodes keep their
 * place between frames unless they move, so stepping through an episode reads as a change.
 */
import type { GraphFrame, GraphNode } from "../../core/index.ts";

/** Column width and row height of the drawing, in pixels. */
export const COLUMN = 190;
export const ROW = 26;

/** A node with its position (its centre-left point). */
export interface PlacedNode extends GraphNode {
  x: number;
  y: number;
  depth: number;
}

/** A link between two placed nodes: a tree link (parent to child) or a side relation. */
export interface PlacedLink {
  from: PlacedNode;
  to: PlacedNode;
  label: string;
  visible: boolean;
  tree: boolean;
}

/** The laid-out frame and the size it needs. */
export interface GraphLayout {
  nodes: PlacedNode[];
  links: PlacedLink[];
  width: number;
  height: number;
}

/** Kinds in the order siblings are listed; unknown kinds come last. */
const KIND_ORDER = ["room", "furniture", "container", "surface", "robot", "object", "part"];

const kindRank = (n: GraphNode) => {
  const i = KIND_ORDER.indexOf(n.kind ?? "");
  return i < 0 ? KIND_ORDER.length : i;
};

const siblingOrder = (a: GraphNode, b: GraphNode) =>
  kindRank(a) - kindRank(b) || a.id.localeCompare(b.id, "en", { numeric: true });

/** Lay out a frame. A parent that is not a node of the frame, or a cycle, makes a root. */
export function layoutGraph(frame: GraphFrame): GraphLayout {
  const byId = new Map(frame.nodes.map((n) => [n.id, n]));
  const children = new Map<string, GraphNode[]>();
  const roots: GraphNode[] = [];
  for (const n of frame.nodes) {
    if (n.parent !== undefined && n.parent !== n.id && byId.has(n.parent)) {
      const list = children.get(n.parent) ?? [];
      list.push(n);
      children.set(n.parent, list);
    } else roots.push(n);
  }
  const placed = new Map<string, PlacedNode>();
  let row = 0;
  let maxDepth = 0;
  const place = (n: GraphNode, depth: number): number => {
    const kids = (children.get(n.id) ?? []).filter((k) => !placed.has(k.id)).sort(siblingOrder);
    const node: PlacedNode = { ...n, x: depth * COLUMN, y: 0, depth };
    placed.set(n.id, node);
    maxDepth = Math.max(maxDepth, depth);
    if (kids.length === 0) {
      node.y = row++ * ROW;
      return node.y;
    }
    const ys = kids.map((k) => place(k, depth + 1));
    node.y = ((ys[0] as number) + (ys.at(-1) as number)) / 2;
    return node.y;
  };
  for (const r of roots.sort(siblingOrder)) place(r, 0);
  // Nodes only reachable through a cycle were never placed: each becomes a root.
  for (const n of frame.nodes.filter((n) => !placed.has(n.id)).sort(siblingOrder)) place(n, 0);

  const links: PlacedLink[] = [];
  for (const node of placed.values()) {
    const parent = node.parent === undefined ? undefined : placed.get(node.parent);
    if (parent && node.depth === parent.depth + 1) {
      links.push({
        from: parent,
        to: node,
        label: node.relation ?? "",
        visible: node.visible && parent.visible,
        tree: true,
      });
    }
  }
  for (const e of frame.edges) {
    const from = placed.get(e.from);
    const to = placed.get(e.to);
    if (from && to) links.push({ from, to, label: e.label, visible: e.visible, tree: false });
  }
  return {
    nodes: [...placed.values()],
    links,
    width: (maxDepth + 1) * COLUMN,
    height: Math.max(1, row) * ROW,
  };
}
