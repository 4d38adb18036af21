/**
 * A read-only symbolic view of a MAGMA world for scenario programs (guards, reports, the
 * expert, attribute builders): where each node is, its attributes, what each robot holds. It is
 * built from a live World (inside the simulator) or from the latent JSON snapshot (the oracle),
 * so both read the same state through one API.
 */
import type { SceneGraph, World, WorldNode } from "../../world/index.ts";

/** Static facts of a scene's nodes, shared by every state of an episode. */
export class NodeIndex {
  readonly nodes: ReadonlyMap<string, WorldNode>;
  readonly robots: readonly string[];
  constructor(scene: SceneGraph) {
    this.nodes = new Map(scene.nodes.map((n) => [n.id, n]));
    this.robots = scene.robots.map((r) => r.id);
  }
  category(id: string): string {
    return this.nodes.get(id)?.category ?? "";
  }
  type(id: string): WorldNode["type"] | undefined {
    return this.robots.includes(id) ? "robot" : this.nodes.get(id)?.type;
  }
  capacity(id: string): number | undefined {
    return this.nodes.get(id)?.capacity;
  }
  /** Ids of the nodes of a category, in scene order. */
  ofCategory(category: string): string[] {
    const out: string[] = [];
    for (const n of this.nodes.values()) if (n.category === category) out.push(n.id);
    return out;
  }
  /** Ids of the nodes of a type, in scene order. */
  ofType(type: WorldNode["type"]): string[] {
    const out: string[] = [];
    for (const n of this.nodes.values()) if (n.type === type) out.push(n.id);
    return out;
  }
}

/** Where a node is: its parent and the relation (HELD: in a robot's hand; IN_ROOM: a fixture or robot). */
export type Placement = [parent: string, rel: "ON" | "INSIDE" | "ATTACHED" | "IN_ROOM" | "HELD"];

/** The dynamic part of a world state as JSON (the latent snapshot's `world`). */
export interface LatentWorld {
  loc: Record<string, Placement>;
  attrs: Record<string, string[]>;
}

const REL = ["", "ON", "INSIDE", "ATTACHED", "IN_ROOM", "HELD"] as const;

/** The dynamic state of a live World as JSON (cheap: one pass over the compact arrays). */
export function latentWorld(world: World): LatentWorld {
  const s = world.latentState();
  const loc: Record<string, Placement> = {};
  const attrs: Record<string, string[]> = {};
  for (let i = 0; i < s.ids.length; i++) {
    if (!s.alive[i]) continue;
    const id = s.ids[i] as string;
    const p = s.parent[i] ?? -1;
    if (p >= 0) loc[id] = [s.ids[p] as string, (REL[s.rel[i] ?? 0] ?? "ON") as Placement[1]];
    const has = (s.has[i] ?? 0) & (s.val[i] ?? 0);
    if (has) {
      const on: string[] = [];
      for (const [name, bit] of s.attrBits) if (has & bit) on.push(name);
      attrs[id] = on;
    }
  }
  return { loc, attrs };
}

/** Read access to one symbolic state. */
export class SymState {
  private kids: Map<string, string[]> | undefined;

  constructor(
    readonly index: NodeIndex,
    readonly world: LatentWorld,
  ) {}

  static of(world: World, index: NodeIndex): SymState {
    return new SymState(index, latentWorld(world));
  }

  parent(id: string): string | undefined {
    return this.world.loc[id]?.[0];
  }

  rel(id: string): Placement[1] | undefined {
    return this.world.loc[id]?.[1];
  }

  attr(id: string, name: string): boolean {
    return this.world.attrs[id]?.includes(name) ?? false;
  }

  /** The room a node is in, following its chain (a robot's, through what holds or carries it). */
  room(id: string): string | undefined {
    let cur: string | undefined = id;
    for (let guard = 0; cur !== undefined && guard < 64; guard++) {
      if (this.index.type(cur) === "room") return cur;
      cur = this.parent(cur);
    }
    return undefined;
  }

  /** The robot holding a node in a hand, if any. */
  holder(id: string): string | undefined {
    return this.rel(id) === "HELD" ? this.parent(id) : undefined;
  }

  /** What a robot holds (its first occupied hand). */
  held(robot: string): string | undefined {
    return this.heldAll(robot)[0];
  }

  /** Everything a robot holds, in node order. */
  heldAll(robot: string): string[] {
    return (this.children(robot, "HELD") ?? []).slice();
  }

  /** Nodes directly ON or INSIDE `id` (or HELD by it, with rel "HELD"), in scene order. */
  children(id: string, rel?: "HELD"): string[] {
    if (!this.kids) {
      this.kids = new Map();
      for (const [child, [parent, r]] of Object.entries(this.world.loc)) {
        const key = r === "HELD" ? `${parent}#held` : r === "ON" || r === "INSIDE" ? parent : "";
        if (!key) continue;
        const list = this.kids.get(key);
        if (list) list.push(child);
        else this.kids.set(key, [child]);
      }
    }
    return this.kids.get(rel === "HELD" ? `${id}#held` : id) ?? [];
  }

  /** Is `id` on `place`'s chain (directly or nested)? */
  within(id: string, place: string): boolean {
    let cur = this.parent(id);
    for (let guard = 0; cur !== undefined && guard < 64; guard++) {
      if (cur === place) return true;
      cur = this.parent(cur);
    }
    return false;
  }
}
