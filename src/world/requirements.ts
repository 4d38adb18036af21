/**
 * What a goal still requires of a state: the goal-directed actions and the prerequisite
 * actions (walks, opens, occluder removals, grabs) that distinct entities need. It feeds both
 * the ordered action distance of appendix A and the planner's admissible heuristic.
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
}

/** Analyse what the unsatisfied part of a goal needs from `state`. */
export function requirements(state: WorldState, atoms: readonly ResolvedAtom[]): Requirements {
  const need = new Set<number>();
  const relevant: number[] = [];
  const opens = new Set<number>();
  const closedGoals: number[] = [];
  const countCategories = new Set<string>();
  let stateActions = 0;
  const deficit = new Map<string, number>();
  const surplus = new Map<string, number>();
  for (const a of atoms) {
    if (a.pred === "COUNT") countCategories.add(a.category);
    if (a.pred === "CLOSED" && atomHolds(state, a)) closedGoals.push(a.node);
    if (atomHolds(state, a)) continue;
    switch (a.pred) {
      case "ON":
      case "INSIDE":
        need.add(a.object);
        relevant.push(a.target);
        if (a.pred === "INSIDE" && state.hasAttr(a.target, "open") && !state.attr(a.target, "open"))
          opens.add(a.target);
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
          if (
            a.rel === Loc.Inside &&
            state.hasAttr(a.target, "open") &&
            !state.attr(a.target, "open")
          )
            opens.add(a.target);
        } else surplus.set(key, Math.max(surplus.get(key) ?? 0, n - a.n));
        break;
      }
      default:
        stateActions++;
        relevant.push(a.pred === "ASSEMBLED" ? a.part : a.node);
        if (a.pred === "ASSEMBLED") relevant.push(a.target);
    }
  }
  // Objects that must be carried between rooms to a fixed (non-grabbable) target.
  const moves: [number, number][] = [];
  for (const a of atoms) {
    if (
      (a.pred !== "ON" && a.pred !== "INSIDE") ||
      atomHolds(state, a) ||
      state.affords(a.target, "grabbable")
    )
      continue;
    moves.push([state.roomOf(a.object), state.roomOf(a.target)]);
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
        if (t === cur && state.alive[b] && !state.attr(b, "moved_aside") && !need.has(b))
          blockers.add(b);
      const p = state.parent[cur] ?? -1;
      if (
        p >= 0 &&
        state.rel[cur] === Loc.Inside &&
        state.hasAttr(p, "open") &&
        !state.attr(p, "open")
      )
        opens.add(p);
      cur = p;
    }
  }
  let countCategoryBlockers = 0;
  for (const b of blockers)
    if (countCategories.has(state.info[b]?.node.category ?? "")) countCategoryBlockers++;
  let recloses = 0;
  for (const c of closedGoals) if (opens.has(c)) recloses++;
  const cut = treeWalkBound(state, rooms, moves);
  const walk = walkNeeds(state, rooms);
  // Each walk carries at most two objects one room further.
  let carry = 0;
  for (const [from, to] of moves) carry += roomDistance(state, from, to);
  const sum = (m: Map<string, number>) => [...m.values()].reduce((s, v) => s + v, 0);
  return {
    placements: need.size,
    grabs,
    countDeficit: sum(deficit),
    countSurplus: sum(surplus),
    stateActions,
    opens: opens.size,
    recloses,
    blockers: blockers.size,
    countCategoryBlockers,
    walkLowerBound: Math.max(walk.max, Math.ceil(carry / 2), cut),
    walkTree: walk.tree,
  };
}

/** Number of walks between two rooms (0 when equal or unknown). */
function roomDistance(state: WorldState, from: number, to: number): number {
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

/**
 * Walks needed on a tree-shaped room graph, summed over its edges (every walk crosses exactly
 * one edge). Cutting edge e splits the rooms into the robot's side S and the far side T. The
 * robot must cross S->T at least once if T holds a relevant room, and each crossing carries at
 * most two objects (two hands), so c_down >= ceil(n_down / 2) and c_up >= ceil(n_up / 2) for
 * the objects whose target lies across e; crossings alternate starting from S, so
 * c_up >= c_down - 1 and c_down >= c_up. The least c_down + c_up under these constraints is
 * admissible; 0 when the reachable room graph is not a tree.
 */
function treeWalkBound(
  state: WorldState,
  rooms: ReadonlySet<number>,
  moves: readonly [number, number][],
): number {
  if (state.room < 0 || state.adjacent.length === 0) return 0;
  const parent = new Map<number, number>([[state.room, -1]]);
  const queue = [state.room];
  let edges = 0;
  for (let k = 0; k < queue.length; k++) {
    const r = queue[k] as number;
    for (const [a, b] of state.adjacent) {
      const next = a === r ? b : b === r ? a : -1;
      if (next < 0 || !state.alive[next]) continue;
      edges++;
      if (!parent.has(next)) {
        parent.set(next, r);
        queue.push(next);
      }
    }
  }
  // Each edge of the component was seen from both ends.
  if (edges / 2 !== queue.length - 1) return 0;
  const visit = new Set<number>();
  const up = new Map<number, number>();
  const down = new Map<number, number>();
  const pathUp = (r: number): number[] => {
    const path: number[] = [];
    for (let cur = r; parent.has(cur) && cur !== state.room; cur = parent.get(cur) as number)
      path.push(cur);
    return path;
  };
  for (const r of rooms) for (const v of pathUp(r)) visit.add(v);
  for (const [from, to] of moves) {
    if (from === to || !parent.has(from) || !parent.has(to)) continue;
    const a = pathUp(from);
    const b = pathUp(to);
    const shared = new Set(b.filter((v) => a.includes(v)));
    for (const v of a) if (!shared.has(v)) up.set(v, (up.get(v) ?? 0) + 1);
    for (const v of b) if (!shared.has(v)) down.set(v, (down.get(v) ?? 0) + 1);
  }
  let total = 0;
  for (const v of queue) {
    if (v === state.room) continue;
    const u = Math.ceil((up.get(v) ?? 0) / 2);
    const d = Math.max(Math.ceil((down.get(v) ?? 0) / 2), u, visit.has(v) ? 1 : 0);
    total += d + Math.max(u, d - 1);
  }
  return total;
}

/** BFS over room adjacency from the robot's room: max distance and shortest-path tree size. */
function walkNeeds(state: WorldState, rooms: Set<number>): { max: number; tree: number } {
  rooms.delete(state.room);
  rooms.delete(-1);
  if (rooms.size === 0) return { max: 0, tree: 0 };
  const dist = new Map<number, number>([[state.room, 0]]);
  const prev = new Map<number, number>();
  const queue = [state.room];
  for (let k = 0; k < queue.length; k++) {
    const r = queue[k] as number;
    for (const [a, b] of state.adjacent) {
      const next = a === r ? b : b === r ? a : -1;
      if (next < 0 || dist.has(next)) continue;
      dist.set(next, (dist.get(r) ?? 0) + 1);
      prev.set(next, r);
      queue.push(next);
    }
  }
  let max = 0;
  const tree = new Set<number>();
  for (const r of rooms) {
    max = Math.max(max, dist.get(r) ?? 0);
    for (
      let cur: number | undefined = r;
      cur !== undefined && cur !== state.room;
      cur = prev.get(cur)
    )
      tree.add(cur);
  }
  return { max, tree: tree.size };
}

/** Admissible lower bound on the remaining plan length (each term counts distinct actions). */
export function admissibleEstimate(r: Requirements): number {
  return (
    Math.max(r.placements, r.countDeficit) +
    Math.max(r.grabs, r.countSurplus) +
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
