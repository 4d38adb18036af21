import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GraphFrame } from "../../core/index.ts";
import { COLUMN, layoutGraph, ROW } from "./graph-layout.ts";

const frame: GraphFrame = {
  nodes: [
    {
      id: "cup",
      label: "cup",
      kind: "object",
      parent: "table",
      relation: "ON",
      visible: true,
      marked: true,
    },
    { id: "kitchen", label: "kitchen", kind: "room", visible: true },
    {
      id: "table",
      label: "table",
      kind: "furniture",
      parent: "kitchen",
      relation: "IN_ROOM",
      visible: true,
    },
    {
      id: "plate",
      label: "plate",
      kind: "object",
      parent: "table",
      relation: "ON",
      visible: false,
    },
    { id: "hall", label: "hall", kind: "room", visible: false },
  ],
  edges: [{ from: "kitchen", to: "hall", label: "ADJACENT", visible: false }],
};

describe("layoutGraph", () => {
  const layout = layoutGraph(frame);
  const at = (id: string) => layout.nodes.find((n) => n.id === id)!;

  it("puts children one column right of their parent, leaves one row each", () => {
    expect([at("hall").depth, at("kitchen").depth, at("table").depth, at("cup").depth]).toEqual([
      0, 0, 1, 2,
    ]);
    expect(at("cup").x).toBe(2 * COLUMN);
    // hall and kitchen are rooms sorted by id; the table's leaves are cup then plate.
    expect([at("hall").y, at("cup").y, at("plate").y]).toEqual([0, ROW, 2 * ROW]);
    expect(at("table").y).toBe(1.5 * ROW);
    expect(layout.height).toBe(3 * ROW);
    expect(layout.width).toBe(3 * COLUMN);
  });

  it("links tree edges (visible when both ends are) and side relations", () => {
    const tree = layout.links
      .filter((l) => l.tree)
      .map((l) => `${l.from.id}>${l.to.id}:${l.visible}`);
    expect(tree.sort()).toEqual(["kitchen>table:true", "table>cup:true", "table>plate:false"]);
    expect(layout.links.filter((l) => !l.tree).map((l) => l.label)).toEqual(["ADJACENT"]);
  });

  it("places every node exactly once, whatever the parents (cycles, unknown ids)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1, max: 9 }), { minLength: 1, maxLength: 10 }),
        (parents) => {
          const nodes = parents.map((p, i) => ({
            id: `n${i}`,
            label: `n${i}`,
            visible: true,
            ...(p >= 0 ? { parent: `n${p}` } : {}),
          }));
          const placed = layoutGraph({ nodes, edges: [] }).nodes.map((n) => n.id);
          expect(placed.sort()).toEqual(nodes.map((n) => n.id).sort());
        },
      ),
    );
  });
});
