/**
 * The compact mutable latent state behind a scene graph: per-node parent/relation arrays, an
 * attribute bitmask, occlusion and adjacency edge lists, and the robots. Robots are nodes (type
 * `robot`) located in a room; a held node's parent is its robot, so whatever a robot carries
 * (in hand, or on a tray resting on it) moves with it. Cloning copies flat arrays only, so the
 * engine step and the planner stay fast.
 */
import { LonghaulError, parseOrThrow } from "../core/index.ts";
import {
  type AttrName,
  type NodeAttrs,
  normalizeScene,
  type RobotSpec,
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

/** Bits of the attributes the engine reads itself (always registered first, in this order). */
export const OPEN = 1;
export const PRESSED = 2;
export const ASSEMBLED = 4;
export const MOVED_ASIDE = 8;
/** The core attributes' bits; shared as every state's initial table, never mutated. */
const CORE_ATTRS: ReadonlyMap<AttrName, number> = new Map([
  ["open", OPEN],
  ["pressed", PRESSED],
  ["assembled", ASSEMBLED],
  ["moved_aside", MOVED_ASIDE],
]);
/** Attribute bits fit a 31-bit integer. */
const MAX_ATTRS = 31;

/** Static per-node facts that never change once the node exists. */
export interface NodeInfo {
  node: WorldNode;
  affords: ReadonlySet<string>;
  compatible: ReadonlySet<string>;
}

/** Static facts about one robot. */
export interface RobotInfo {
  /** The robot as declared (room and hands are its initial state). */
  spec: RobotSpec;
  /** Its node index. */
  node: number;
  /** Catalog actions it may execute; null = all. */
  skills: ReadonlySet<string> | null;
}

/** The latent world state G_t in array form, indexed by node number. */
export class WorldState {
  ids: string[];
  index: Map<string, number>;
  info: NodeInfo[];
  alive: boolean[];
  parent: number[];
  rel: Loc[];
  has: number[];
  val: number[];
  /** Active-or-not occlusion edges as [blocker, hidden] pairs. */
  occludes: [number, number][];
  /** Undirected room adjacency as pairs. */
  adjacent: [number, number][];
  /** Robots in scene order (static; shared by clones). */
  robots: RobotInfo[];
  /** Per robot, what each hand holds (-1 when empty). */
  hands: number[][];
  /** Attribute name -> bit, in registration order (copied before a new name is added). */
  attrBits: ReadonlyMap<AttrName, number>;
  navigation: boolean;

  /**
   * An empty state, or a copy of `from`'s dynamic state sharing its id tables, robots and
   * attribute bits (both paths assign every field in the same order: one object shape).
   */
  private constructor(from?: WorldState) {
    if (from) {
      this.ids = from.ids;
      this.index = from.index;
      this.info = from.info;
      this.alive = from.alive.slice();
      this.parent = from.parent.slice();
      this.rel = from.rel.slice();
      this.has = from.has.slice();
      this.val = from.val.slice();
      this.occludes = from.occludes.map(([b, t]) => [b, t]);
      this.adjacent = from.adjacent.map(([a, b]) => [a, b]);
      this.robots = from.robots;
      // Pushed, not preallocated: a holey array would make hand reads polymorphic.
      this.hands = [];
      for (let r = 0; r < from.hands.length; r++)
        this.hands.push((from.hands[r] as number[]).slice());
      this.attrBits = from.attrBits;
      this.navigation = from.navigation;
    } else {
      this.ids = [];
      this.index = new Map();
      this.info = [];
      this.alive = [];
      this.parent = [];
      this.rel = [];
      this.has = [];
      this.val = [];
      this.occludes = [];
      this.adjacent = [];
      this.robots = [];
      this.hands = [];
      this.attrBits = CORE_ATTRS;
      this.navigation = false;
    }
  }

  /** Build and validate a state from a scene graph; throws INVALID_INPUT naming what is wrong. */
  static fromScene(input: unknown): WorldState {
    const scene = parseOrThrow(SceneGraph, normalizeScene(input), "scene graph");
    const s = new WorldState();
    s.navigation = scene.navigation;
    scene.nodes.forEach((node, i) => {
      if (s.index.has(node.id)) fail(`nodes[${i}].id`, `duplicate node id ${node.id}`);
      if (node.type === "robot")
        fail(`nodes[${i}].type`, "robots are declared in robots, not among the nodes");
      s.addNode(node);
    });
    // Robot nodes come after the scene's nodes, so scene node numbers do not depend on robots.
    scene.robots.forEach((spec, r) => {
      if (s.index.has(spec.id)) fail(`robots[${r}].id`, `duplicate node id ${spec.id}`);
      const node = s.addNode({
        id: spec.id,
        type: "robot",
        name: spec.name ?? spec.id,
        category: "robot",
        affordances: [],
        attrs: {},
      });
      s.robots.push({ spec, node, skills: spec.skills ? new Set(spec.skills) : null });
      s.hands.push(spec.hands.map(() => -1));
    });
    scene.edges.forEach((edge, i) => {
      s.loadEdge(edge, `edges[${i}]`);
    });
    scene.robots.forEach((spec, r) => {
      const room = s.index.get(spec.room);
      if (room === undefined || s.info[room]?.node.type !== "room")
        fail(`robots[${r}].room`, `${spec.room} is not a room`);
      s.place(s.robotNode(r), Loc.InRoom, room);
      spec.hands.forEach((id, h) => {
        if (id === null) return;
        const i = s.index.get(id);
        const path = `robots[${r}].hands[${h}]`;
        if (i === undefined) fail(path, `unknown node ${id}`);
        const type = s.info[i]?.node.type;
        if (type === "room" || type === "robot") fail(path, `a ${type} cannot be held`);
        if (s.rel[i] !== Loc.None) fail(path, `${id} is held but also placed`);
        if ((s.hands[r]?.[h] ?? -1) >= 0) fail(path, "the hand already holds a HELD edge's node");
        s.hold(i, r, h);
      });
    });
    for (let i = 0; i < s.ids.length; i++) {
      if (s.info[i]?.node.type === "room") continue;
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
    let has = 0;
    let val = 0;
    for (const name in node.attrs) {
      const bit = this.registerAttr(name);
      has |= bit;
      if (node.attrs[name]) val |= bit;
    }
    this.has.push(has);
    this.val.push(val);
    return i;
  }

  /** The bit of an attribute, registering a new name (copy-on-write for clones). */
  registerAttr(name: AttrName): number {
    const known = this.attrBits.get(name);
    if (known !== undefined) return known;
    if (this.attrBits.size >= MAX_ATTRS)
      throw new LonghaulError(
        "INVALID_INPUT",
        `a world holds at most ${MAX_ATTRS} distinct attributes; ${name} is one too many`,
      );
    const bit = 2 ** this.attrBits.size;
    this.attrBits = new Map([...this.attrBits, [name, bit]]);
    return bit;
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
    if (this.robotIndex(from) >= 0 && rel !== "HELD" && rel !== "OCCLUDES")
      return "a robot's location is its room (robots[].room), changed by its own actions";
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
        const r = this.robotIndex(from);
        if (r < 0) return "HELD edges go from a robot";
        if (toType === "room" || toType === "robot") return `a ${toType} cannot be held`;
        const hand = this.hands[r]?.indexOf(-1) ?? -1;
        if (hand < 0) return `${this.ids[from]} has no free hand`;
        if (this.isAncestor(to, from)) return "placement cycle";
        this.unplace(to);
        this.hold(to, r, hand);
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
      const hands = this.hands[this.robotIndex(this.parent[i] ?? -1)];
      const h = hands?.indexOf(i) ?? -1;
      if (hands && h >= 0) hands[h] = -1;
    }
    this.parent[i] = -1;
    this.rel[i] = Loc.None;
  }

  /** Put node `i` in hand `h` of robot `r`. */
  hold(i: number, r: number, h: number): void {
    (this.hands[r] as number[])[h] = i;
    this.parent[i] = this.robotNode(r);
    this.rel[i] = Loc.Held;
  }

  /** Robot `r`'s node index. */
  robotNode(r: number): number {
    return this.robots[r]?.node ?? -1;
  }

  /** The robot whose node is `i`, or -1. */
  robotIndex(i: number): number {
    for (let r = 0; r < this.robots.length; r++) if (this.robots[r]?.node === i) return r;
    return -1;
  }

  /** The room robot `r` is in. */
  robotRoom(r: number): number {
    return this.parent[this.robotNode(r)] ?? -1;
  }

  /** The robot holding node `i`, or -1. */
  holder(i: number): number {
    return this.rel[i] === Loc.Held ? this.robotIndex(this.parent[i] ?? -1) : -1;
  }

  /** Number of robot `r`'s empty hands. */
  freeHands(r: number): number {
    const hands = this.hands[r] ?? [];
    let n = 0;
    for (let h = 0; h < hands.length; h++) if ((hands[h] as number) < 0) n++;
    return n;
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
    return ((this.has[i] ?? 0) & (this.attrBits.get(attr) ?? 0)) !== 0;
  }

  /** Current value of an attribute (false when not applicable). */
  attr(i: number, attr: AttrName): boolean {
    return ((this.val[i] ?? 0) & (this.attrBits.get(attr) ?? 0)) !== 0;
  }

  /** Is node `i` an openable that is closed (its contents are hidden). */
  isClosed(i: number): boolean {
    return ((this.has[i] ?? 0) & OPEN) !== 0 && ((this.val[i] ?? 0) & OPEN) === 0;
  }

  /** Is node `i` a blocker that was moved aside. */
  isMovedAside(i: number): boolean {
    return ((this.val[i] ?? 0) & MOVED_ASIDE) !== 0;
  }

  /** Set an attribute (making it applicable). */
  setAttr(i: number, attr: AttrName, value: boolean): void {
    const bit = this.registerAttr(attr);
    this.has[i] = (this.has[i] ?? 0) | bit;
    this.val[i] = value ? (this.val[i] ?? 0) | bit : (this.val[i] ?? 0) & ~bit;
  }

  /** Set an attribute on node `i` and clear it on every other node that has it. */
  setAttrOnly(i: number, attr: AttrName): void {
    const bit = this.registerAttr(attr);
    for (let j = 0; j < this.val.length; j++)
      if (((this.has[j] ?? 0) & bit) !== 0) this.val[j] = (this.val[j] ?? 0) & ~bit;
    this.setAttr(i, attr, true);
  }

  /** Does node `i` have an affordance. */
  affords(i: number, affordance: string): boolean {
    return this.info[i]?.affords.has(affordance) ?? false;
  }

  /** Is room `r` adjacent to room `q`. */
  areAdjacent(r: number, q: number): boolean {
    return this.adjacent.some(([a, b]) => (a === r && b === q) || (a === q && b === r));
  }

  /** Rooms adjacent to room `room`, in index order. */
  adjacentRooms(room: number): number[] {
    const out: number[] = [];
    for (const [a, b] of this.adjacent) {
      if (a === room && this.alive[b]) out.push(b);
      else if (b === room && this.alive[a]) out.push(a);
    }
    return out.sort((x, y) => x - y);
  }

  /** The nodes directly ON or INSIDE node `i`, in node order. */
  children(i: number): number[] {
    const out: number[] = [];
    for (let j = 0; j < this.parent.length; j++)
      if (this.parent[j] === i && (this.rel[j] === Loc.On || this.rel[j] === Loc.Inside))
        out.push(j);
    return out;
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
      if (t === i && this.alive[b] && !this.isMovedAside(b)) return true;
    return false;
  }

  /**
   * Visibility (Eq. 8) for robot `r`: in its room and reachable from the room without crossing
   * an active blocker — a closed container on the way in, or an active OCCLUDES edge on the
   * node or any node it rests on. A held node is seen where its robot is (its own occluders
   * do not count); robots stand IN_ROOM like fixtures.
   */
  isVisible(i: number, r = 0): boolean {
    if (!this.alive[i]) return false;
    const room = this.robotRoom(r);
    let cur = i;
    for (let guard = 0; guard <= this.ids.length; guard++) {
      const rel = this.rel[cur];
      // A held node is seen wherever its robot is; a robot is located IN_ROOM like a fixture.
      if (rel === Loc.Held) {
        cur = this.parent[cur] ?? -1;
        continue;
      }
      if (this.info[cur]?.node.type === "room") return cur === room;
      if (this.isOccluded(cur)) return false;
      const p = this.parent[cur] ?? -1;
      if (p < 0) return false;
      if (rel === Loc.Inside && this.isClosed(p)) return false;
      cur = p;
    }
    return false;
  }

  /** Every node's visibility for robot `r`, memoised along location chains (O(n + occluders)). */
  visibility(r = 0): boolean[] {
    const n = this.ids.length;
    const room = this.robotRoom(r);
    const occluded = new Array<boolean>(n).fill(false);
    for (const [b, t] of this.occludes)
      if (this.alive[b] && !this.isMovedAside(b)) occluded[t] = true;
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
        else if (rel === Loc.Held) cur = this.parent[cur] ?? -1;
        else if (this.info[cur]?.node.type === "room") verdict = cur === room ? 1 : 2;
        else if (occluded[cur]) verdict = 2;
        else {
          const p = this.parent[cur] ?? -1;
          if (p < 0 || stack.length > n) verdict = 2;
          else if (rel === Loc.Inside && this.isClosed(p)) verdict = 2;
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
    const visible = new Array<boolean>(n);
    for (let i = 0; i < n; i++) visible[i] = memo[i] === 1;
    return visible;
  }

  /** The room a node is in (following its location chain, through the robot that holds it), or -1. */
  roomOf(i: number): number {
    let cur = i;
    for (let guard = 0; cur >= 0 && guard <= this.ids.length; guard++) {
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

  /** A copy of the dynamic state; id tables, robots and attribute bits are shared. */
  clone(): WorldState {
    return new WorldState(this);
  }

  /**
   * Overwrite this state's dynamic arrays with `from`'s, in place (a clone without allocating,
   * for search loops that test many successors and keep few). Both must share id tables.
   */
  assign(from: WorldState): void {
    if (from.ids !== this.ids)
      throw new LonghaulError("RUNTIME", "assign needs two states of one world (shared id tables)");
    for (let i = 0; i < from.parent.length; i++) {
      this.alive[i] = from.alive[i] as boolean;
      this.parent[i] = from.parent[i] as number;
      this.rel[i] = from.rel[i] as Loc;
      this.has[i] = from.has[i] as number;
      this.val[i] = from.val[i] as number;
    }
    this.occludes = from.occludes.map(([b, t]) => [b, t]);
    for (let r = 0; r < from.hands.length; r++) {
      const src = from.hands[r] as number[];
      const dst = this.hands[r] as number[];
      for (let h = 0; h < src.length; h++) dst[h] = src[h] as number;
    }
    this.attrBits = from.attrBits;
  }

  /** A compact key of the dynamic state, with each robot's hands sorted (they are symmetric). */
  key(): string {
    let out = "";
    for (const hands of this.hands) {
      if (hands.length === 2) {
        const [h0, h1] = hands as [number, number];
        out += `${Math.min(h0, h1)},${Math.max(h0, h1)}|`;
      } else out += `${hands.slice().sort((a, b) => a - b)}|`;
    }
    for (let i = 0; i < this.parent.length; i++)
      out += `${this.parent[i]}${"nOIAR"[this.rel[i] ?? 0] ?? "H"}${this.val[i]};`;
    for (const [b, t] of this.occludes) out += `o${b}-${t}`;
    return out;
  }

  /** The attributes of node `i` as data, in registration order. */
  attrsOf(i: number): NodeAttrs {
    const has = this.has[i] ?? 0;
    const val = this.val[i] ?? 0;
    const out: NodeAttrs = {};
    for (const [name, bit] of this.attrBits) if (has & bit) out[name] = (val & bit) !== 0;
    return out;
  }

  /** The latent graph as plain data (node attrs, robot rooms and hands reflect the current state). */
  toScene(): SceneGraph {
    const nodes: WorldNode[] = [];
    const edges: WorldEdge[] = [];
    for (let i = 0; i < this.ids.length; i++) {
      const info = this.info[i];
      if (!info || !this.alive[i] || info.node.type === "robot") continue;
      nodes.push({ ...info.node, attrs: this.attrsOf(i) });
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
    const id = (i: number) => (i >= 0 ? (this.ids[i] as string) : null);
    const robots = this.robots.map((robot, r) => ({
      ...robot.spec,
      room: this.ids[this.robotRoom(r)] as string,
      hands: (this.hands[r] ?? []).map(id),
    }));
    return { nodes, edges, robots, navigation: this.navigation };
  }
}

/** Location codes to edge relation names. */
export const LOC_REL = ["ON", "ON", "INSIDE", "ATTACHED", "IN_ROOM", "HELD"] as const;

function fail(path: string, message: string): never {
  throw new LonghaulError("INVALID_INPUT", `invalid scene graph: ${message}`, path);
}
