/**
 * The explorer's belief graph: what an observation-only agent remembers of the scene. Each
 * view refreshes the nodes it shows; nodes out of view keep their last-seen location and
 * attributes as beliefs, and a remembered node whose place is in plain sight but which is
 * not there any more loses its location (it was moved or hidden: re-explore). The harness
 * shows no node types (Figure 11), so what a node is comes from what the payload shows:
 * rooms are the robot's and adjacent rooms, a node with an `open` or `is_full` attribute or
 * something inside it is a container, a node something stands on is a surface, and the goal
 * names INSIDE/ON targets (`markKind`).
 */
import type { GoalAtom, Relation } from "../../world/index.ts";
import type { HarnessView } from "./environment.ts";

/** The parts of the harness view the belief reads (the payload's current_observation). */
export type SeenView = Pick<
  HarnessView,
  "visible_nodes" | "visible_edges" | "held_objects" | "robot"
>;

/** What a node is, as far as the payload shows. */
export type NodeKind = "room" | "container" | "surface" | "thing";

/** A remembered node: last-seen attributes, room and location (null = unknown). */
export interface BeliefNode {
  id: string;
  name: string;
  category: string;
  kind: NodeKind;
  open?: boolean;
  pressed?: boolean;
  assembled?: boolean;
  isFull?: boolean;
  /** Other observable attributes (none in RoboGraph scenes). */
  attrs?: Record<string, boolean>;
  /** The room it was last seen in. */
  room: string | null;
  /** Its last-seen location edge child -> parent, or null when unknown or held. */
  parent: string | null;
  rel: Relation | null;
}

const LOCATION: ReadonlySet<Relation> = new Set(["ON", "INSIDE", "ATTACHED", "IN_ROOM"]);

/** The agent's memory of the scene graph, updated from each view. */
export class Belief {
  readonly nodes = new Map<string, BeliefNode>();
  /** Known room adjacency (undirected), learned from `adjacent_rooms`. */
  readonly adjacency = new Map<string, Set<string>>();
  room = "";
  hands: (string | null)[] = [null, null];
  visible = new Set<string>();

  /** Merge a view; returns the remembered nodes that vanished from where they should be. */
  update(view: SeenView): string[] {
    this.room = view.robot.current_room;
    const hands = view.robot.hands;
    this.hands = Array.isArray(hands) ? hands : [hands.left, hands.right];
    this.visible = new Set(view.visible_nodes.map((n) => n.id));
    for (const a of view.robot.adjacent_rooms) {
      this.link(this.room, a);
      this.link(a, this.room);
    }
    const rooms = new Set([this.room, ...view.robot.adjacent_rooms]);
    for (const e of view.visible_edges) if (e.relation === "IN_ROOM") rooms.add(e.to);
    for (const v of view.visible_nodes) {
      const known = this.nodes.get(v.id);
      const kind: NodeKind = rooms.has(v.id)
        ? "room"
        : v.open !== undefined || v.is_full !== undefined
          ? "container"
          : (known?.kind ?? "thing");
      const node: BeliefNode = {
        id: v.id,
        name: v.name,
        category: v.category,
        kind,
        room: kind === "room" ? v.id : this.room,
        parent: known?.parent ?? null,
        rel: known?.rel ?? null,
      };
      if (v.open !== undefined) node.open = v.open;
      if (v.pressed !== undefined) node.pressed = v.pressed;
      if (v.assembled !== undefined) node.assembled = v.assembled;
      if (v.is_full !== undefined) node.isFull = v.is_full;
      if (v.attrs !== undefined) node.attrs = v.attrs;
      this.nodes.set(v.id, node);
    }
    const located = new Set<string>();
    for (const e of view.visible_edges) {
      if (e.relation === "INSIDE") this.markKind(e.to, "container");
      if (e.relation === "ON") this.markKind(e.to, "surface");
      if (!LOCATION.has(e.relation)) continue;
      const node = this.nodes.get(e.from);
      if (!node) continue;
      node.parent = e.to;
      node.rel = e.relation;
      located.add(e.from);
    }
    for (const id of this.hands) {
      const node = id ? this.nodes.get(id) : undefined;
      if (node) {
        node.parent = null;
        node.rel = null;
        located.add(node.id);
      }
    }
    const vanished: string[] = [];
    for (const node of this.nodes.values()) {
      if (node.kind === "room" || this.visible.has(node.id) || node.parent === null) continue;
      if (node.room !== this.room) continue;
      const parent = this.nodes.get(node.parent);
      // Its resting place is in view and not closed, yet it is not: it moved or got hidden.
      if (this.visible.has(node.parent) && parent?.open !== false) {
        node.parent = null;
        node.rel = null;
        vanished.push(node.id);
      }
    }
    return vanished;
  }

  /** Learn what a remembered node is (a goal's INSIDE target is a container, ON a surface). */
  markKind(id: string, kind: "container" | "surface"): void {
    const node = this.nodes.get(id);
    if (node && node.kind === "thing") node.kind = kind;
  }

  /**
   * Take in the effect of one of the agent's own successful actions (a remembered history
   * entry): where it put things, what it holds, what it opened or closed. Nodes first met
   * here are known by id only, in the robot's current room.
   */
  applyOwn(name: string, args: readonly string[]): void {
    const [first, second] = args;
    if (!first) return;
    const node =
      this.nodes.get(first) ??
      ({
        id: first,
        name: first,
        category: "",
        kind: "thing",
        room: null,
        parent: null,
        rel: null,
      } satisfies BeliefNode);
    this.nodes.set(first, node);
    if (name === "open" || name === "close") {
      node.open = name === "open";
      if (node.kind === "thing") node.kind = "container";
    } else if (name === "grab") {
      node.parent = null;
      node.rel = null;
    } else if ((name === "puton" || name === "putin") && second) {
      node.parent = second;
      node.rel = name === "puton" ? "ON" : "INSIDE";
      node.room = this.nodes.get(second)?.room ?? node.room;
    } else if (name === "press") node.pressed = true;
    else if (name === "attach" && second) {
      node.parent = second;
      node.rel = "ATTACHED";
    }
  }

  private link(a: string, b: string): void {
    const set = this.adjacency.get(a) ?? new Set<string>();
    set.add(b);
    this.adjacency.set(a, set);
  }

  /** True when the node is in one of the robot's hands. */
  isHeld(id: string): boolean {
    return this.hands.includes(id);
  }

  /** Empty hands. */
  freeHands(): number {
    return this.hands.filter((h) => h === null).length;
  }

  /** Where the node is: held nodes travel with the robot; null when never seen or lost. */
  whereabouts(id: string): { room: string; known: boolean } | null {
    if (this.isHeld(id)) return { room: this.room, known: true };
    const node = this.nodes.get(id);
    if (!node?.room) return null;
    return { room: node.room, known: node.parent !== null || this.visible.has(id) };
  }

  /** True when the node's location is known (or it is held). */
  located(id: string): boolean {
    return this.whereabouts(id)?.known ?? false;
  }

  /** The nearest closed container on the node's remembered location chain (itself excluded). */
  closedAncestor(id: string): string | null {
    return this.closedAncestors(id)[0] ?? null;
  }

  /** Every closed container on the node's remembered location chain, innermost first. */
  closedAncestors(id: string): string[] {
    const out: string[] = [];
    let cur = this.nodes.get(id);
    for (let guard = 0; cur?.parent && guard < 64; guard++) {
      const parent = this.nodes.get(cur.parent);
      if (!parent) break;
      if (cur.rel === "INSIDE" && parent.open === false) out.push(parent.id);
      cur = parent;
    }
    return out;
  }

  /** True when `id` rests (transitively) in or on `ancestor`. */
  within(id: string, ancestor: string): boolean {
    let cur = this.nodes.get(id);
    for (let guard = 0; cur?.parent && guard < 64; guard++) {
      if (cur.parent === ancestor) return true;
      cur = this.nodes.get(cur.parent);
    }
    return false;
  }

  /** The belief's verdict on one goal atom (unseen or lost nodes make it false). */
  holds(atom: GoalAtom): boolean {
    switch (atom.pred) {
      case "ON":
      case "INSIDE": {
        const node = this.nodes.get(atom.object);
        return node?.parent === atom.target && node.rel === atom.pred;
      }
      case "OPEN":
        return this.nodes.get(atom.node)?.open === true;
      case "CLOSED":
        return this.nodes.get(atom.node)?.open === false;
      case "PRESSED":
        return this.nodes.get(atom.node)?.pressed === true;
      case "ASSEMBLED": {
        const part = this.nodes.get(atom.part);
        const target = this.nodes.get(atom.target);
        return (
          (part?.rel === "ATTACHED" && part.parent === atom.target) ||
          (target?.rel === "ATTACHED" && target.parent === atom.part)
        );
      }
      case "COUNT": {
        const n = this.countAt(atom.category, atom.rel, atom.target).length;
        return atom.op === "exactly" ? n === atom.n : n >= atom.n;
      }
      case "ATTR":
        return this.nodes.get(atom.node)?.attrs?.[atom.attr] === atom.value;
      case "AT":
        return this.nodes.get(atom.node)?.room === atom.room;
    }
  }

  /** Remembered nodes of a category directly ON/INSIDE a target. */
  countAt(category: string, rel: "ON" | "INSIDE", target: string): string[] {
    return [...this.nodes.values()]
      .filter((n) => n.category === category && n.parent === target && n.rel === rel)
      .map((n) => n.id);
  }

  /** Shortest known path's first step from the robot's room towards `room`, or null. */
  stepToward(room: string): string | null {
    if (room === this.room) return null;
    const prev = new Map<string, string>([[this.room, this.room]]);
    const queue = [this.room];
    while (queue.length > 0) {
      const cur = queue.shift() as string;
      for (const next of [...(this.adjacency.get(cur) ?? [])].sort()) {
        if (prev.has(next)) continue;
        prev.set(next, cur);
        if (next === room) {
          let step = next;
          while (prev.get(step) !== this.room) step = prev.get(step) as string;
          return step;
        }
        queue.push(next);
      }
    }
    return null;
  }

  /** Known rooms in breadth-first order from the robot's room. */
  roomsByDistance(): string[] {
    const seen = [this.room];
    for (let i = 0; i < seen.length; i++)
      for (const next of [...(this.adjacency.get(seen[i] as string) ?? [])].sort())
        if (!seen.includes(next)) seen.push(next);
    return seen;
  }
}
