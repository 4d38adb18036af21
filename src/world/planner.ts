/**
 * The privileged oracle: optimal plans on the full latent state by A* with the admissible
 * estimate of requirements.ts, compact state keys (hands sorted) and a binary heap. Plans are
 * the non-stop actions only (L_o); the caller appends `stop`. It plans RoboGraph's Table 5
 * catalog for the scene's first robot.
 */
import { sha256 } from "../core/index.ts";
import { applyEffects, checkPreconditions, resolveArgs } from "./actions.ts";
import { goalHolds, type ResolvedAtom } from "./goals.ts";
import { admissibleEstimate, requirements } from "./requirements.ts";
import { ACTION_CATALOG, ROBOGRAPH_CATALOG } from "./robograph-catalog.ts";
import { Loc, type WorldState } from "./state.ts";
import type { ActionName, GoalAtom, WorldAction } from "./types.ts";

/** An optimal plan and search statistics. */
export interface OraclePlan {
  actions: WorldAction[];
  expanded: number;
}

/** Planner limits. */
export interface PlanOptions {
  /** Give up (return null) after this many expansions; default 2,000,000. */
  maxExpansions?: number;
  /** Memo of plans shared across calls (the conditions of a scene share G_0). */
  cache?: PlanCache;
}

/**
 * Plans memoised by the full latent state (static node data included) and the goal. The
 * planner is deterministic, so a hit returns exactly what a fresh search would; the oldest
 * entries go first when full.
 */
export class PlanCache {
  private readonly plans = new Map<string, OraclePlan | null>();

  constructor(private readonly capacity = 2048) {}

  /** The cached plan for a state and goal, computing and storing it on a miss. */
  plan(key: string, compute: () => OraclePlan | null): OraclePlan | null {
    let plan = this.plans.get(key);
    if (plan === undefined) {
      plan = compute();
      if (this.plans.size >= this.capacity) {
        const oldest = this.plans.keys().next().value;
        if (oldest !== undefined) this.plans.delete(oldest);
      }
      this.plans.set(key, plan);
    }
    return plan && { actions: plan.actions.slice(), expanded: plan.expanded };
  }
}

/** A grounded successor: the action and the state it leads to. */
export interface Successor {
  action: WorldAction;
  state: WorldState;
}

/**
 * Executable actions that can matter for the goal: everything the catalog allows except
 * observe/stop, with press/close/attach limited to goal nodes (their only effect is the goal
 * attribute, so other uses never shorten a plan).
 */
export function successors(state: WorldState, atoms: readonly ResolvedAtom[]): Successor[] {
  const press = new Set<number>();
  const close = new Set<number>();
  const attach: [number, number][] = [];
  for (const a of atoms) {
    if (a.pred === "PRESSED") press.add(a.node);
    else if (a.pred === "CLOSED") close.add(a.node);
    else if (a.pred === "ASSEMBLED") attach.push([a.part, a.target], [a.target, a.part]);
  }
  const vis = state.visibility(0);
  const out: Successor[] = [];
  const tryAction = (name: ActionName, args: number[]) => {
    const schema = ACTION_CATALOG[name];
    const ids = args.map((i) => state.ids[i] as string);
    if (checkPreconditions(state, schema, args, ids, 0)) return;
    const next = state.clone();
    applyEffects(next, schema, args, 0);
    out.push({ action: { name, args: ids }, state: next });
  };
  const held = (state.hands[0] ?? []).filter((h) => h >= 0);
  for (const r of state.adjacentRooms(state.robotRoom(0))) tryAction("walk", [r]);
  for (let i = 0; i < vis.length; i++) {
    if (!vis[i]) continue;
    if (state.affords(i, "openable")) {
      if (!state.attr(i, "open")) tryAction("open", [i]);
      else if (close.has(i)) tryAction("close", [i]);
    }
    if (press.has(i)) tryAction("press", [i]);
    if (state.affords(i, "grabbable") && state.rel[i] !== Loc.Held) tryAction("grab", [i]);
    if (state.affords(i, "movable")) tryAction("move_aside", [i]);
    for (const h of held) {
      if (state.affords(i, "support")) tryAction("puton", [h, i]);
      if (state.affords(i, "contain")) tryAction("putin", [h, i]);
    }
  }
  for (const [p, t] of attach) if (vis[p] && vis[t]) tryAction("attach", [p, t]);
  return out;
}

/** Why a search found no plan: every reachable state was expanded, or the limit was hit. */
interface NoPlan {
  exhausted: boolean;
  expanded: number;
}

const DEFAULT_MAX_EXPANSIONS = 2_000_000;

/** A* to a goal-satisfying state; null when no plan exists within the limit. */
export function planOracle(
  start: WorldState,
  atoms: readonly ResolvedAtom[],
  options: PlanOptions = {},
): OraclePlan | null {
  const limit = options.maxExpansions ?? DEFAULT_MAX_EXPANSIONS;
  if (!options.cache) return planOrNull(search(start, atoms, limit));
  return options.cache.plan(planKey(start, atoms, limit), () =>
    planOrNull(search(start, atoms, limit)),
  );
}

/** The static data of one id table, hashed: what `staticDigest` computed for it. */
interface StaticDigest {
  ids: readonly string[];
  robots: WorldState["robots"];
  navigation: boolean;
  digest: string;
}

/** Per id table (clones share it; adding a node copies it): its static data's digest. */
const staticDigests = new WeakMap<WorldState["info"], StaticDigest>();

/**
 * A hash of what a state never changes: node numbering (removed nodes included), every node's
 * declared data, the robots and navigation. Equal content gives equal digests, so the worlds of
 * a scene's conditions, each built from the scene anew, share plans.
 */
function staticDigest(state: WorldState): string {
  const known = staticDigests.get(state.info);
  if (
    known?.ids === state.ids &&
    known.robots === state.robots &&
    known.navigation === state.navigation
  )
    return known.digest;
  const digest = sha256(
    JSON.stringify([
      state.ids,
      state.info.map((info) => info.node),
      state.robots.map((robot) => robot.spec),
      state.navigation,
    ]),
  );
  staticDigests.set(state.info, {
    ids: state.ids,
    robots: state.robots,
    navigation: state.navigation,
    digest,
  });
  return digest;
}

/**
 * The plan cache's key: the limit, the goal, the static digest, the search's own state key
 * (hands sorted) and the dynamic arrays that key leaves out (which nodes are alive, which
 * attributes each has, the attribute names, room adjacency, hands in order). Everything
 * `toScene()` is made of is in it, so two states share a plan only when their scene graphs are
 * equal (node numbering and hand order included: they steer the search's tie-breaking), at
 * about a quarter of the cost of serialising `toScene()` on every call (6 against 26 us on
 * RoboGraph scenes, measured).
 */
export function planKey(start: WorldState, atoms: readonly ResolvedAtom[], limit: number): string {
  let alive = "";
  for (const a of start.alive) alive += a ? "1" : "0";
  return [
    limit,
    JSON.stringify(atoms.map((a) => a.atom)),
    staticDigest(start),
    start.key(),
    alive,
    start.has.join(","),
    [...start.attrBits.keys()].join(","),
    start.adjacent.join(";"),
    start.hands.join(";"),
  ].join("|");
}

function planOrNull(result: OraclePlan | NoPlan): OraclePlan | null {
  return "actions" in result ? result : null;
}

/** Why a goal has no plan (see explainNoPlan). */
export interface NoPlanReason {
  /**
   * Goal facts, in goal order, that no plan reaches together with the facts before them that
   * could be reached (a fact unreachable on its own is always here).
   */
  unreachable: GoalAtom[];
  /** Set when a search hit its expansion limit before deciding: the bound, not the goal. */
  bound?: number;
}

/**
 * Why the planner finds no plan from `start`: the goal facts that cannot be reached (searched
 * in goal order, each with the facts before it that could), or the expansion bound that was
 * hit first. Exhaustive searches of unsolvable goals: use it to explain a failure, not in a loop.
 */
export function explainNoPlan(
  start: WorldState,
  atoms: readonly ResolvedAtom[],
  options: Pick<PlanOptions, "maxExpansions"> = {},
): NoPlanReason {
  const limit = options.maxExpansions ?? DEFAULT_MAX_EXPANSIONS;
  const whole = search(start, atoms, limit);
  if ("actions" in whole) return { unreachable: [] };
  if (!whole.exhausted) return { unreachable: [], bound: limit };
  const reachable: ResolvedAtom[] = [];
  const unreachable: GoalAtom[] = [];
  for (const atom of atoms) {
    const result = search(start, [...reachable, atom], limit);
    if ("actions" in result) reachable.push(atom);
    else if (result.exhausted) unreachable.push(atom.atom);
    else return { unreachable, bound: limit };
  }
  return { unreachable };
}

/**
 * Is the rest of a plan still optimal after the state changed under it (an event fired): it
 * is executable, still reaches the goal, and is as short as the admissible estimate.
 */
export function planStillOptimal(
  state: WorldState,
  atoms: readonly ResolvedAtom[],
  rest: readonly WorldAction[],
): boolean {
  return rest.length === estimate(state, atoms) && reaches(state, atoms, rest);
}

/** Does executing `plan` from `state` succeed step by step and end in a goal state. */
function reaches(
  state: WorldState,
  atoms: readonly ResolvedAtom[],
  plan: readonly WorldAction[],
): boolean {
  const s = state.clone();
  for (const action of plan) {
    const resolved = resolveArgs(s, ROBOGRAPH_CATALOG.get(action.name), action);
    if ("type" in resolved || checkPreconditions(s, resolved.schema, resolved.args, action.args, 0))
      return false;
    applyEffects(s, resolved.schema, resolved.args, 0);
  }
  return goalHolds(s, atoms);
}

function search(
  start: WorldState,
  atoms: readonly ResolvedAtom[],
  limit: number,
): OraclePlan | NoPlan {
  const states: WorldState[] = [start];
  const gs: number[] = [0];
  const parents: number[] = [-1];
  const actions: (WorldAction | null)[] = [null];
  const best = new Map<string, number>([[start.key(), 0]]);
  const heap = new MinHeap();
  heap.push(0, estimate(start, atoms), 0);
  let expanded = 0;
  while (heap.size > 0) {
    const id = heap.pop();
    const s = states[id] as WorldState;
    const g = gs[id] as number;
    if ((best.get(s.key()) ?? Number.POSITIVE_INFINITY) < g) continue;
    if (goalHolds(s, atoms)) return { actions: reconstruct(id, parents, actions), expanded };
    if (++expanded > limit) return { exhausted: false, expanded };
    for (const next of successors(s, atoms)) {
      const key = next.state.key();
      const ng = g + 1;
      if ((best.get(key) ?? Number.POSITIVE_INFINITY) <= ng) continue;
      best.set(key, ng);
      const nid = states.length;
      states.push(next.state);
      gs.push(ng);
      parents.push(id);
      actions.push(next.action);
      heap.push(nid, ng + estimate(next.state, atoms), ng);
    }
  }
  return { exhausted: true, expanded };
}

function estimate(state: WorldState, atoms: readonly ResolvedAtom[]): number {
  return admissibleEstimate(requirements(state, atoms));
}

function reconstruct(
  id: number,
  parents: number[],
  actions: (WorldAction | null)[],
): WorldAction[] {
  const out: WorldAction[] = [];
  for (let cur = id; cur > 0; cur = parents[cur] ?? 0) out.push(actions[cur] as WorldAction);
  return out.reverse();
}

/** A binary min-heap of ids by (f ascending, g descending): deeper nodes first on ties. */
class MinHeap {
  private ids: number[] = [];
  private fs: number[] = [];
  private gs: number[] = [];

  get size(): number {
    return this.ids.length;
  }

  push(id: number, f: number, g: number): void {
    this.ids.push(id);
    this.fs.push(f);
    this.gs.push(g);
    let i = this.ids.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  pop(): number {
    const top = this.ids[0] as number;
    const last = this.ids.length - 1;
    this.swap(0, last);
    this.ids.pop();
    this.fs.pop();
    this.gs.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.ids.length && this.less(l, m)) m = l;
      if (r < this.ids.length && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
    return top;
  }

  private less(a: number, b: number): boolean {
    const fa = this.fs[a] as number;
    const fb = this.fs[b] as number;
    return fa < fb || (fa === fb && (this.gs[a] as number) > (this.gs[b] as number));
  }

  private swap(a: number, b: number): void {
    [this.ids[a], this.ids[b]] = [this.ids[b] as number, this.ids[a] as number];
    [this.fs[a], this.fs[b]] = [this.fs[b] as number, this.fs[a] as number];
    [this.gs[a], this.gs[b]] = [this.gs[b] as number, this.gs[a] as number];
  }
}
