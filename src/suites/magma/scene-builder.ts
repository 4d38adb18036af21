/** A small builder for MAGMA scenes on the world engine: rooms, places, items, robots. */
import type { SceneGraph, WorldEdge, WorldNode } from "../../world/index.ts";

/** Options of a place: a container (things go INSIDE) or a surface (things go ON). */
export interface PlaceOptions {
  in: string;
  kind?: "container" | "surface";
  capacity?: number;
  category?: string;
  attrs?: Record<string, boolean>;
  affords?: string[];
}

/** Options of a movable item. */
export interface ItemOptions {
  at: string;
  category: string;
  attrs?: Record<string, boolean>;
  affords?: string[];
}

/** Builds a SceneGraph in declaration order (node order is scene order everywhere). */
export class SceneBuilder {
  private readonly nodes: WorldNode[] = [];
  private readonly edges: WorldEdge[] = [];
  private readonly robots: SceneGraph["robots"] = [];
  private readonly kinds = new Map<string, "container" | "surface" | "room">();

  room(id: string): this {
    this.nodes.push(node(id, "room", id, []));
    this.kinds.set(id, "room");
    return this;
  }

  place(id: string, o: PlaceOptions): this {
    const kind = o.kind ?? "container";
    const affords = [kind === "container" ? "contain" : "support", ...(o.affords ?? [])];
    const n = node(
      id,
      kind === "container" ? "container" : "surface",
      o.category ?? id,
      affords,
      o.attrs,
    );
    if (o.capacity !== undefined) n.capacity = o.capacity;
    this.nodes.push(n);
    this.locate(id, o.in);
    this.kinds.set(id, kind);
    return this;
  }

  item(id: string, o: ItemOptions): this {
    this.nodes.push(node(id, "object", o.category, ["grabbable", ...(o.affords ?? [])], o.attrs));
    this.locate(id, o.at);
    return this;
  }

  /** A fixed, non-movable thing in a room or on a place (a button, a machine part). */
  fixture(
    id: string,
    o: { in: string; category: string; attrs?: Record<string, boolean>; affords?: string[] },
  ): this {
    this.nodes.push(node(id, "furniture", o.category, o.affords ?? [], o.attrs));
    this.locate(id, o.in);
    return this;
  }

  robot(id: string, o: { room: string; hands: number; skills: string[] }): this {
    this.robots.push({
      id,
      room: o.room,
      hands: Array.from({ length: o.hands }, () => null),
      skills: o.skills,
    });
    return this;
  }

  /** A container resting on a robot (a tray it carries). */
  tray(id: string, o: { robot: string; capacity: number; category?: string }): this {
    const n = node(id, "container", o.category ?? "tray", ["contain"]);
    n.capacity = o.capacity;
    this.nodes.push(n);
    this.edges.push({ from: id, to: o.robot, rel: "ON" });
    this.kinds.set(id, "container");
    return this;
  }

  adjacent(a: string, b: string): this {
    this.edges.push({ from: a, to: b, rel: "ADJACENT" });
    return this;
  }

  build(): SceneGraph {
    return { nodes: this.nodes, edges: this.edges, robots: this.robots, navigation: false };
  }

  private locate(id: string, parent: string): void {
    const kind = this.kinds.get(parent);
    const rel =
      kind === "room" || kind === undefined ? "IN_ROOM" : kind === "surface" ? "ON" : "INSIDE";
    this.edges.push({ from: id, to: parent, rel });
  }
}

function node(
  id: string,
  type: WorldNode["type"],
  category: string,
  affordances: string[],
  attrs: Record<string, boolean> = {},
): WorldNode {
  return { id, type, name: id, category, affordances, attrs: { ...attrs } };
}
