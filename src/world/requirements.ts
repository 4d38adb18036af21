/**
 * What a goal still requires of a state: the goal-directed actions and the prerequisite
 * actions (walks, opens, occluder removals, grabs) that distinct entities need. It feeds both
 * the ordered action distance of appendix A and the planner's admissible heuristic. Like the
 * planner it reasons about RoboGraph's Table 5 catalog and the scene's first robot.
 */
import { atomHolds, countPlaced, type ResolvedAtom } from "./goals.ts";
import { Loc, type WorldState } from "./state.ts";

/** Counts of still-required actions, by kind. */
export interface Requirements {
  /** Objects with an unsatisfied ON/INSIDE goal (each needs one placing action). */
  placements: number;
  /** Of those, objects not already in a hand (each needs one grab). */
  grabs: number;
  /** Σ over distinct COUNT keys of the missing placements. */
  countDeficit: number;
  /** Σ over distinct COUNT keys of the surplus objects to take out (exactly-n goals). */
  countSurplus: number;
  /** Unsatisfied CLOSED/PRESSED/ASSEMBLED atoms (one action each; OPEN goals are in `opens`). */
  stateActions: number;
  /** Closed openable nodes that must be opened to reach a relevant entity. */
  opens: number;
  /** CLOSED goals satisfied now whose node must be opened, so closed again. */
  recloses: number;
  /** Active occluders of relevant entities, excluding objects that will be grabbed anyway. */
  blockers: number;
  /** Blockers whose category appears in a COUNT atom (could double as a surplus grab). */
  countCategoryBlockers: number;
  /** Lower bound on walks: farthest relevant room, half the carrying distance, tree cuts. */
  walkLowerBound: number;
  /** Rooms on the shortest-path tree to all relevant rooms, minus the robot's (shared walks). */
  walkTree: number;
  /**
   * Puts that place nothing for good: while an open, close or attach (two free hands) is still
   * due, a held object without a pending placement must be put down, and a held object whose
   * own placement waits for an open must be put down elsewhere first.
   */
  handReleases: number;
  /** Grabs again of those held objects whose placement waits for an open. */
  regrabs: number;
}

/** Analyse what the unsatisfied part of a goal needs from `state`. */
export function requirements(state: WorldState, atoms: readonly ResolvedAtom[]): Requirements {
  const need = new Set<number>();
  const relevant: number[] = [];
  const opens = new Set<number>();
  const closedGoals: number[] = [];
  const countCategories = new Set<string>();
  let stateActions = 0;
  let twoHanded = false;
  let heldBlocked = 0;
  const deficit = new Map<string, number>();
  const surplus = new Map<string, number>();
  // Objects that must be carried between rooms to a fixed (non-grabbable) target.
  const moves: [number, number][] = [];
  for (const a of atoms) {
    if (a.pred === "COUNT") countCategories.add(a.category);
    if (atomHolds(state, a)) {
      if (a.pred === "CLOSED") closedGoals.push(a.node);
      continue;
    }
    switch (a.pred) {
      case "ON":
      case "INSIDE":
        relevant.push(a.target);
        if (a.pred === "INSIDE" && state.isClosed(a.target)) opens.add(a.target);
        // Per object once: a repeated atom must not count its carrying or hand needs twice.
        if (need.has(a.object)) break;
        need.add(a.object);
        if (state.rel[a.object] === Loc.Held && blockedTarget(state, a.target, a.pred))
          heldBlocked++;
        if (!state.affords(a.target, "grabbable"))
          moves.push([state.roomOf(a.object), state.roomOf(a.target)]);
        break;
      case "OPEN":
        opens.add(a.node);
        break;
      case "COUNT": {
        const key = `${a.rel}|${a.category}|${a.target}`;
        const n = countPlaced(state, a.rel, a.category, a.target);
        if (n < a.n) {
          deficit.set(key, Math.max(deficit.get(key) ?? 0, a.n - n));
          relevant.push(a.target);
          if (a.rel === Loc.Inside && state.isClosed(a.target)) opens.add(a.target);
        } else surplus.set(key, Math.max(surplus.get(key) ?? 0, n - a.n));
        break;
      }
      default:
        stateActions++;
        if (a.pred === "CLOSED" || a.pred === "ASSEMBLED") twoHanded = true;
        relevant.push(a.pred === "ASSEMBLED" ? a.part : a.node);
        if (a.pred === "ASSEMBLED") relevant.push(a.target);
    }
  }
  let grabs = 0;
  for (const x of need) {
    if (state.rel[x] !== Loc.Held) {
      grabs++;
      relevant.push(x);
    }
  }
  const blockers = new Set<number>();
  const rooms = new Set<number>();
  for (const x of relevant) {
    rooms.add(state.roomOf(x));
    // Every closed container and active occluder on the way down to x must be dealt with.
    for (let cur = x, guard = 0; cur >= 0 && guard <= state.ids.length; guard++) {
      for (const [b, t] of state.occludes)
        if (t === cur && state.alive[b] && !state.isMovedAside(b) && !need.has(b)) blockers.add(b);
      const p = state.parent[cur] ?? -1;
      if (p >= 0 && state.rel[cur] === Loc.Inside && state.isClosed(p)) opens.add(p);
      cur = p;
    }
  }
  let countCategoryBlockers = 0;
  for (const b of blockers)
    if (countCategories.has(state.info[b]?.node.category ?? "")) countCategoryBlockers++;
  let recloses = 0;
  for (const c of closedGoals) if (opens.has(c)) recloses++;
  let handReleases = 0;
  let regrabs = 0;
  if (twoHanded || opens.size > 0) {
    for (const h of state.hands[0] ?? []) if (h >= 0 && !need.has(h)) handReleases++;
    // A held object bound into a closed container (or onto a target behind one) cannot be
    // placed before that open, which needs both hands: it is put down and grabbed again.
    handReleases += heldBlocked;
    regrabs += heldBlocked;
  }
  // Single-room scenes (no adjacency) never walk.
  let walk = { max: 0, tree: 0 };
  let walkLowerBound = 0;
  if (state.adjacent.length > 0) {
    const tree = roomTree(state);
    walk = walkNeeds(tree, rooms);
    walkLowerBound = walk.max;
    if (tree.isTree)
      walkLowerBound = Math.max(walkLowerBound, treeWalkBound(state, tree, rooms, moves));
    else {
      // Each walk carries at most two objects one room further.
      let carry = 0;
      for (const [from, to] of moves) carry += roomDistance(state, from, to);
      walkLowerBound = Math.max(
        walkLowerBound,
        Math.ceil(carry / 2),
        layerWalkBound(tree, rooms, moves),
      );
    }
  }
  return {
    placements: need.size,
    grabs,
    countDeficit: sumValues(deficit),
    countSurplus: sumValues(surplus),
    stateActions,
    opens: opens.size,
    recloses,
    blockers: blockers.size,
    countCategoryBlockers,
    walkLowerBound,
    walkTree: walk.tree,
    handReleases,
    regrabs,
  };
}

/** Does placing something ON/INSIDE `target` wait for an open (closed target or enclosure). */
function blockedTarget(state: WorldState, target: number, pred: "ON" | "INSIDE"): boolean {
  if (pred === "INSIDE" && state.isClosed(target)) return true;
  for (let cur = target, guard = 0; cur >= 0 && guard <= state.ids.length; guard++) {
    const p = state.parent[cur] ?? -1;
    if (p >= 0 && state.rel[cur] === Loc.Inside && state.isClosed(p)) return true;
    cur = p;
  }
  return false;
}

/** Number of walks between two rooms (0 when equal or unknown). */
export function roomDistance(state: WorldState, from: number, to: number): number {
  if (from === to || from < 0 || to < 0) return 0;
  const dist = new Map<number, number>([[from, 0]]);
  const queue = [from];
  for (let k = 0; k < queue.length; k++) {
    const r = queue[k] as number;
    for (const [a, b] of state.adjacent) {
      const next = a === r ? b : b === r ? a : -1;
      if (next < 0 || dist.has(next)) continue;
      if (next === to) return (dist.get(r) ?? 0) + 1;
      dist.set(next, (dist.get(r) ?? 0) + 1);
      queue.push(next);
    }
  }
  return 0;
}

function sumValues(m: Map<string, number>): number {
  let total = 0;
  for (const v of m.values()) total += v;
  return total;
}

/** Shortest-path tree of the room graph from the robot's room (BFS in index order). */
interface RoomTree {
  /** Rooms reached, in BFS order (the robot's room first). */
  order: number[];
  /** BFS parent of each reached room (-1 for the robot's room), -2 when unreached. */
  parent: Int32Array;
  dist: Int32Array;
  /** The reachable room graph is a tree. */
  isTree: boolean;
}

function roomTree(state: WorldState): RoomTree {
  const parent = new Int32Array(state.ids.length).fill(-2);
  const dist = new Int32Array(state.ids.length);
  const order: number[] = [];
  let edges = 0;
  const start = state.robotRoom(0);
  if (start >= 0) {
    parent[start] = -1;
    order.push(start);
  }
  for (let k = 0; k < order.length; k++) {
    const r = order[k] as number;
    for (const [a, b] of state.adjacent) {
      const next = a === r ? b : b === r ? a : -1;
      if (next < 0 || !state.alive[next]) continue;
      edges++;
      if (parent[next] !== -2) continue;
      parent[next] = r;
      dist[next] = (dist[r] ?? 0) + 1;
      order.push(next);
    }
  }
  // Each edge of the reachable component was seen from both ends.
  return { order, parent, dist, isTree: edges / 2 === order.length - 1 };
}

/**
 * Walks needed on a tree-shaped room graph, summed over its edges (every walk crosses exactly
 * one edge). Cutting the edge above room v splits the rooms into the robot's side S and v's
 * subtree T. The robot must cross S->T at least once if T holds a relevant room, and each
 * crossing carries at most two objects (two hands), so c_down >= ceil(n_down / 2) and
 * c_up >= ceil(n_up / 2) for the objects whose target lies across the edge; crossings
 * alternate starting from S, so c_down - 1 <= c_up <= c_down. The least c_down + c_up under
 * these constraints is admissible.
 */
function treeWalkBound(
  state: WorldState,
  tree: RoomTree,
  rooms: ReadonlySet<number>,
  moves: readonly [number, number][],
): number {
  const n = state.ids.length;
  const visit = new Uint8Array(n);
  const up = new Int32Array(n);
  const down = new Int32Array(n);
  const { parent, dist } = tree;
  const start = tree.order[0] ?? -1;
  for (const r of rooms)
    for (let v = r; v >= 0 && v !== start && (parent[v] ?? -2) >= 0; v = parent[v] ?? -1)
      visit[v] = 1;
  for (const [from, to] of moves) {
    if (from === to || from < 0 || to < 0 || parent[from] === -2 || parent[to] === -2) continue;
    // Climb both rooms to their lowest common ancestor: edges on the object's side are
    // crossed towards the robot's room (up), edges on the target's side away from it (down).
    let a = from;
    let b = to;
    while (a !== b) {
      if ((dist[a] ?? 0) >= (dist[b] ?? 0)) {
        up[a] = (up[a] ?? 0) + 1;
        a = parent[a] ?? -1;
      } else {
        down[b] = (down[b] ?? 0) + 1;
        b = parent[b] ?? -1;
      }
    }
  }
  let total = 0;
  for (const v of tree.order)
    if (v !== start) total += cutCrossings(up[v] ?? 0, down[v] ?? 0, visit[v] === 1);
  return total;
}

/** The least crossings of one cut, robot's side first (see treeWalkBound). */
function cutCrossings(up: number, down: number, visit: boolean): number {
  const u = Math.ceil(up / 2);
  const d = Math.max(Math.ceil(down / 2), u, visit ? 1 : 0);
  return d + Math.max(u, d - 1);
}

/**
 * Walks needed on any room graph: the cuts "rooms at BFS distance >= k from the robot" have
 * disjoint edge boundaries (an edge joins two layers at most one apart), so a walk crosses at
 * most one of them and their crossing bounds add up.
 */
function layerWalkBound(
  tree: RoomTree,
  rooms: ReadonlySet<number>,
  moves: readonly [number, number][],
): number {
  const { parent, dist } = tree;
  const reached = (r: number) => r >= 0 && parent[r] !== -2;
  let total = 0;
  const depth = dist[tree.order[tree.order.length - 1] ?? -1] ?? 0;
  for (let k = 1; k <= depth; k++) {
    let up = 0;
    let down = 0;
    let visit = false;
    for (const r of rooms) if (reached(r) && (dist[r] ?? 0) >= k) visit = true;
    for (const [from, to] of moves) {
      if (!reached(from) || !reached(to)) continue;
      const a = (dist[from] ?? 0) >= k;
      const b = (dist[to] ?? 0) >= k;
      if (a && !b) up++;
      else if (b && !a) down++;
    }
    total += cutCrossings(up, down, visit);
  }
  return total;
}

/** Over the relevant rooms: the farthest walk distance and the shortest-path tree's size. */
function walkNeeds(tree: RoomTree, rooms: Set<number>): { max: number; tree: number } {
  let max = 0;
  const onTree = new Set<number>();
  const start = tree.order[0] ?? -1;
  for (const r of rooms) {
    if (r < 0 || r === start || tree.parent[r] === -2) continue;
    max = Math.max(max, tree.dist[r] ?? 0);
    for (let cur = r; cur >= 0 && cur !== start; cur = tree.parent[cur] ?? -1) onTree.add(cur);
  }
  return { max, tree: onTree.size };
}

/** Admissible lower bound on the remaining plan length (each term counts distinct actions). */
export function admissibleEstimate(r: Requirements): number {
  return (
    Math.max(r.placements + r.handReleases, r.countDeficit) +
    Math.max(r.grabs + r.regrabs, r.countSurplus) +
    r.stateActions +
    r.opens +
    r.recloses +
    (r.blockers - r.countCategoryBlockers) +
    r.walkLowerBound
  );
}

/**
 * Ordered action distance C_distance = C_goal + C_pre (appendix A): actions that directly
 * satisfy unsatisfied goal atoms plus the prerequisites to reach them, shared ones once.
 */
export function orderedDistance(r: Requirements): { goal: number; pre: number; total: number } {
  const goal = r.placements + r.countDeficit + r.stateActions;
  const pre = r.grabs + r.countSurplus + r.opens + r.recloses + r.blockers + r.walkTree;
  return { goal, pre, total: goal + pre };
}
