/**
 * The compact mutable latent state behind a scene graph: per-node parent/relation arrays, an
 * attribute bitmask, occlusion and adjacency edge lists, and the robot. Cloning copies flat
 * arrays only, so the engine step and the planner stay fast.
 */
import { LonghaulError, parseOrThrow } from "../core/index.ts";
import {
  type Affordance,
  type AttrName,
  type NodeAttrs,
  SceneGraph,
  type WorldEdge,
  type WorldNode,
} from "./types.ts";

/** Location relation codes for `WorldState.rel`. */
export enum Loc {
  None = 0,
  On = 1,
  Inside = 2,
  Attached = 3,
  InRoom = 4,
  Held = 5,
}

/** Attribute bits: `has` marks applicability, `val` the current value. */
export const ATTR_BIT: Record<AttrName, number> = {
  open: 1,
  pressed: 2,
  assembled: 4,
  moved_aside: 8,
};
const ATTRS = Object.keys(ATTR_BIT) as AttrName[];

/** Static per-node facts that never change once the node exists. */
export interface NodeInfo {
  node: WorldNode;
  affords: ReadonlySet<Affordance>;
  compatible: ReadonlySet<string>;
}

/** The latent world state G_t in array form, indexed by node number. */
export class WorldState {
  ids: string[] = [];
  index = new Map<string, number>();
  info: NodeInfo[] = [];
  alive: boolean[] = [];
  parent: number[] = [];
  rel: Loc[] = [];
  has: number[] = [];
  val: number[] = [];
  /** Active-or-not occlusion edges as [blocker, hidden] pairs. */
  occludes: [number, number][] = [];
  /** Undirected room adjacency as pairs. */
  adjacent: [number, number][] = [];
  room = -1;
  hands: [number, number] = [-1, -1];
  navigation = false;

  /** Build and validate a state from a scene graph; throws INVALID_INPUT naming what is wrong. */
  static fromScene(input: unknown): WorldState {
    const scene = parseOrThrow(SceneGraph, input, "scene graph");
    const s = new WorldState();
    s.navigation = scene.navigation;
    scene.nodes.forEach((node, i) => {
      if (s.index.has(node.id)) fail(`nodes[${i}].id`, `duplicate node id ${node.id}`);
      s.addNode(node);
    });
    scene.edges.forEach((edge, i) => {
      s.loadEdge(edge, `edges[${i}]`);
    });
    const room = s.index.get(scene.robot.room);
    if (room === undefined || s.info[room]?.node.type !== "room")
      fail("robot.room", `${scene.robot.room} is not a room`);
    s.room = room;
    scene.robot.hands.forEach((id, h) => {
      if (id === null) return;
      const i = s.index.get(id);
      if (i === undefined) fail(`robot.hands[${h}]`, `unknown node ${id}`);
      if (s.rel[i] !== Loc.None) fail(`robot.hands[${h}]`, `${id} is held but also placed`);
      s.hold(i, h);
    });
    for (let i = 0; i < s.ids.length; i++) {
      const type = s.info[i]?.node.type;
      if (type === "room" || type === "robot") continue;
      if (s.rel[i] === Loc.None) fail("edges", `node ${s.ids[i]} has no location`);
    }
    const cycle = s.findCycle();
    if (cycle >= 0) fail("edges", `placement cycle through ${s.ids[cycle]}`);
    return s;
  }

  /** Append a node (no location yet); returns its index. Copies the id tables clones share. */
  addNode(node: WorldNode): number {
    this.unshareIds();
    const i = this.ids.length;
    this.ids.push(node.id);
    this.index.set(node.id, i);
    this.info.push({
      node,
      affords: new Set(node.affordances),
      compatible: new Set(node.compatible ?? []),
    });
    this.alive.push(true);
    this.parent.push(-1);
    this.rel.push(Loc.None);
    const [has, val] = encodeAttrs(node.attrs);
    this.has.push(has);
    this.val.push(val);
    return i;
  }

  private loadEdge(edge: WorldEdge, path: string): void {
    const from = this.index.get(edge.from);
    const to = this.index.get(edge.to);
    if (from === undefined) fail(`${path}.from`, `unknown node ${edge.from}`);
    if (to === undefined) fail(`${path}.to`, `unknown node ${edge.to}`);
    if (from === to) fail(path, "self edge");
    const problem = this.addEdge(from, to, edge.rel);
    if (problem) fail(path, problem);
  }

  /** Add an edge; returns a problem description instead of changing anything when invalid. */
  addEdge(from: number, to: number, rel: WorldEdge["rel"]): string | null {
    const toType = this.info[to]?.node.type;
    switch (rel) {
      case "OCCLUDES":
        if (!this.occludes.some(([b, t]) => b === from && t === to)) this.occludes.push([from, to]);
        return null;
      case "ADJACENT":
        if (toType !== "room" || this.info[from]?.node.type !== "room")
          return "ADJACENT links rooms";
        if (!this.areAdjacent(from, to)) this.adjacent.push([from, to]);
        return null;
      case "HELD": {
        const hand = this.hands.indexOf(-1);
        if (hand < 0) return "both hands are full";
        this.unplace(to);
        this.hold(to, hand);
        return null;
      }
      case "IN_ROOM":
        if (toType !== "room") return "IN_ROOM target must be a room";
        return this.place(from, Loc.InRoom, to);
      case "ON":
        return this.place(from, Loc.On, to);
      case "INSIDE":
        return this.place(from, Loc.Inside, to);
      case "ATTACHED":
        return this.place(from, Loc.Attached, to);
    }
  }

  /** Set node `i`'s single location, replacing any previous one (including a hand). */
  place(i: number, rel: Loc, target: number): string | null {
    if (i === target || this.isAncestor(i, target)) return "placement cycle";
    this.unplace(i);
    this.parent[i] = target;
    this.rel[i] = rel;
    return null;
  }

  /** Remove node `i` from its location or hand. */
  unplace(i: number): void {
    if (this.rel[i] === Loc.Held) {
      const h = this.hands.indexOf(i);
      if (h >= 0) this.hands[h] = -1;
    }
    this.parent[i] = -1;
    this.rel[i] = Loc.None;
  }

  /** Put node `i` in hand `h`. */
  hold(i: number, h: number): void {
    this.hands[h] = i;
    this.parent[i] = -1;
    this.rel[i] = Loc.Held;
  }

  /** True when `a` is `b` or on `b`'s location chain. */
  isAncestor(a: number, b: number): boolean {
    let cur = b;
    for (let guard = 0; cur >= 0 && guard <= this.ids.length; guard++) {
      if (cur === a) return true;
      cur = this.parent[cur] ?? -1;
    }
    return false;
  }

  /** A node on a location cycle, or -1. */
  findCycle(): number {
    const n = this.ids.length;
    for (let i = 0; i < n; i++) {
      let cur = this.parent[i] ?? -1;
      for (let steps = 0; cur >= 0; steps++) {
        if (cur === i || steps > n) return i;
        cur = this.parent[cur] ?? -1;
      }
    }
    return -1;
  }

  /** Does node `i` have attribute `attr` at all. */
  hasAttr(i: number, attr: AttrName): boolean {
    return ((this.has[i] ?? 0) & ATTR_BIT[attr]) !== 0;
  }

  /** Current value of an attribute (false when not applicable). */
  attr(i: number, attr: AttrName): boolean {
    return ((this.val[i] ?? 0) & ATTR_BIT[attr]) !== 0;
  }

  /** Set an attribute (making it applicable). */
  setAttr(i: number, attr: AttrName, value: boolean): void {
    const bit = ATTR_BIT[attr];
    this.has[i] = (this.has[i] ?? 0) | bit;
    this.val[i] = value ? (this.val[i] ?? 0) | bit : (this.val[i] ?? 0) & ~bit;
  }

  /** Does node `i` have an affordance. */
  affords(i: number, affordance: Affordance): boolean {
    return this.info[i]?.affords.has(affordance) ?? false;
  }

  /** Is room `r` adjacent to room `q`. */
  areAdjacent(r: number, q: number): boolean {
    return this.adjacent.some(([a, b]) => (a === r && b === q) || (a === q && b === r));
  }

  /** Rooms adjacent to the robot's room, in index order. */
  adjacentRooms(): number[] {
    const out: number[] = [];
    for (const [a, b] of this.adjacent) {
      if (a === this.room && this.alive[b]) out.push(b);
      else if (b === this.room && this.alive[a]) out.push(a);
    }
    return out.sort((x, y) => x - y);
  }

  /** Number of items directly ON or INSIDE node `i`. */
  load(i: number): number {
    let n = 0;
    for (let j = 0; j < this.parent.length; j++)
      if (this.parent[j] === i && (this.rel[j] === Loc.On || this.rel[j] === Loc.Inside)) n++;
    return n;
  }

  /** Is node `i` at capacity. */
  isFull(i: number): boolean {
    const cap = this.info[i]?.node.capacity;
    return cap !== undefined && this.load(i) >= cap;
  }

  /** Is node `i` hidden by an active OCCLUDES edge (blocker alive and not moved aside). */
  isOccluded(i: number): boolean {
    for (const [b, t] of this.occludes)
      if (t === i && this.alive[b] && !this.attr(b, "moved_aside")) return true;
    return false;
  }

  /**
   * Visibility (Eq. 8): in the robot's room and reachable from the room without crossing an
   * active blocker — a closed container on the way in, or an active OCCLUDES edge on the node
   * or any node it rests on. Held nodes and the current room are always visible.
   */
  isVisible(i: number): boolean {
    if (!this.alive[i]) return false;
    let cur = i;
    for (let guard = 0; guard <= this.ids.length; guard++) {
      const rel = this.rel[cur];
      if (rel === Loc.Held) return true;
      if (this.info[cur]?.node.type === "room") return cur === this.room;
      if (this.isOccluded(cur)) return false;
      const p = this.parent[cur] ?? -1;
      if (p < 0) return false;
      if (rel === Loc.Inside && this.hasAttr(p, "open") && !this.attr(p, "open")) return false;
      cur = p;
    }
    return false;
  }

  /** Every node's visibility at once, memoised along location chains (O(n + occluders)). */
  visibility(): boolean[] {
    const n = this.ids.length;
    const occluded = new Array<boolean>(n).fill(false);
    for (const [b, t] of this.occludes)
      if (this.alive[b] && !this.attr(b, "moved_aside")) occluded[t] = true;
    const memo = new Int8Array(n); // 0 unknown, 1 visible, 2 hidden
    const stack: number[] = [];
    for (let i = 0; i < n; i++) {
      let cur = i;
      let verdict = 0;
      while (verdict === 0) {
        const known = memo[cur] ?? 0;
        if (known) {
          verdict = known;
          break;
        }
        stack.push(cur);
        const rel = this.rel[cur];
        if (!this.alive[cur]) verdict = 2;
        else if (rel === Loc.Held) verdict = 1;
        else if (this.info[cur]?.node.type === "room") verdict = cur === this.room ? 1 : 2;
        else if (occluded[cur]) verdict = 2;
        else {
          const p = this.parent[cur] ?? -1;
          if (p < 0 || stack.length > n) verdict = 2;
          else if (rel === Loc.Inside && this.hasAttr(p, "open") && !this.attr(p, "open"))
            verdict = 2;
          else cur = p;
        }
      }
      // A node is visible only if it and its whole chain are; the first hidden link hides the rest.
      for (let k = stack.length - 1; k >= 0; k--) {
        const node = stack[k] as number;
        memo[node] = verdict;
      }
      stack.length = 0;
    }
    return Array.from(memo, (v) => v === 1);
  }

  /** The room a node is in (following its location chain), or -1. */
  roomOf(i: number): number {
    let cur = i;
    for (let guard = 0; cur >= 0 && guard <= this.ids.length; guard++) {
      if (this.rel[cur] === Loc.Held) return this.room;
      if (this.info[cur]?.node.type === "room") return cur;
      cur = this.parent[cur] ?? -1;
    }
    return -1;
  }

  /** Give this state its own id tables before changing them (clones share them). */
  unshareIds(): void {
    this.ids = this.ids.slice();
    this.index = new Map(this.index);
    this.info = this.info.slice();
  }

  /** A copy of the dynamic state; id tables are shared until `unshareIds`. */
  clone(): WorldState {
    const s = new WorldState();
    s.ids = this.ids;
    s.index = this.index;
    s.info = this.info;
    s.alive = this.alive.slice();
    s.parent = this.parent.slice();
    s.rel = this.rel.slice();
    s.has = this.has.slice();
    s.val = this.val.slice();
    s.occludes = this.occludes.map(([b, t]) => [b, t]);
    s.adjacent = this.adjacent.map(([a, b]) => [a, b]);
    s.room = this.room;
    s.hands = [this.hands[0], this.hands[1]];
    s.navigation = this.navigation;
    return s;
  }

  /** A compact key of the dynamic state, with the two hands sorted (they are symmetric). */
  key(): string {
    const [h0, h1] = this.hands;
    let out = `${this.room}|${Math.min(h0, h1)},${Math.max(h0, h1)}|`;
    for (let i = 0; i < this.parent.length; i++)
      out += `${this.parent[i]}${"nOIAR"[this.rel[i] ?? 0] ?? "H"}${this.val[i]};`;
    for (const [b, t] of this.occludes) out += `o${b}-${t}`;
    return out;
  }

  /** The latent graph as plain data (node attrs reflect the current state). */
  toScene(): SceneGraph {
    const nodes: WorldNode[] = [];
    const edges: WorldEdge[] = [];
    for (let i = 0; i < this.ids.length; i++) {
      const info = this.info[i];
      if (!info || !this.alive[i]) continue;
      nodes.push({ ...info.node, attrs: decodeAttrs(this.has[i] ?? 0, this.val[i] ?? 0) });
      const rel = this.rel[i];
      const p = this.parent[i] ?? -1;
      if (p >= 0 && rel !== undefined && rel !== Loc.None && rel !== Loc.Held)
        edges.push({ from: this.ids[i] as string, to: this.ids[p] as string, rel: LOC_REL[rel] });
    }
    for (const [b, t] of this.occludes)
      if (this.alive[b] && this.alive[t])
        edges.push({ from: this.ids[b] as string, to: this.ids[t] as string, rel: "OCCLUDES" });
    for (const [a, b] of this.adjacent)
      edges.push({ from: this.ids[a] as string, to: this.ids[b] as string, rel: "ADJACENT" });
    const hand = (h: number) => (h >= 0 ? (this.ids[h] as string) : null);
    return {
      nodes,
      edges,
      robot: {
        room: this.ids[this.room] as string,
        hands: [hand(this.hands[0]), hand(this.hands[1])],
      },
      navigation: this.navigation,
    };
  }
}

/** Location codes to edge relation names. */
export const LOC_REL = ["ON", "ON", "INSIDE", "ATTACHED", "IN_ROOM", "HELD"] as const;

function encodeAttrs(attrs: NodeAttrs): [number, number] {
  let has = 0;
  let val = 0;
  for (const name of ATTRS) {
    const v = attrs[name];
    if (v === undefined) continue;
    has |= ATTR_BIT[name];
    if (v) val |= ATTR_BIT[name];
  }
  return [has, val];
}

function decodeAttrs(has: number, val: number): NodeAttrs {
  const out: NodeAttrs = {};
  for (const name of ATTRS) if (has & ATTR_BIT[name]) out[name] = (val & ATTR_BIT[name]) !== 0;
  return out;
}

function fail(path: string, message: string): never {
  throw new LonghaulError("INVALID_INPUT", `invalid scene graph: ${message}`, path);
}
