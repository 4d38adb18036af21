/**
 * PDDL export of one world-engine instance (issue 4): a per-instance domain and a problem in
 * STRIPS with typing, negative preconditions and equality only, whose optimal plans have the
 * oracle's length (planOracle, stop excluded). Every exported action is one variant of one
 * engine action, its first parameters being the engine action's arguments, and in every state
 * an executable engine action has exactly one applicable variant grounding.
 *
 * What the engine computes on the fly is compiled into explicit atoms and variants:
 * - visibility (Eq. 8) is a precondition that walks the location chain: one variant per chain
 *   shape (depth k, ending in the robot's room or in a held node), each link `(loc a b rel)`
 *   not entering a closed container (`(closed b inside)`) and each node on the chain free of
 *   active occluders, checked through static occluder slots `(occ-slot-j n b)`;
 * - active OCCLUDES edges are `(occludes b n)` atoms that move_aside / grab delete through the
 *   blocker's static occludee slots `(hides-slot-j b n)` and the grabbed node's occluder slots;
 * - loads (capacity, "loaded carriers reject") and COUNT goals are unary counters
 *   `(load-ge n c_m)` / `(tally-ge k c_m)` over count objects with `(succ c_m c_m+1)`, so
 *   "exactly n" is `(tally-ge k c_n) ∧ ¬(tally-ge k c_n+1)` and "at least n" `(tally-ge k c_n)`;
 *   placements that change a COUNT key's tally are their own variants (`c` tallied, `u` not);
 * - free hands are a counter `(hands-free c_f)`: the two hands are symmetric for every
 *   precondition, which is also how the oracle's state key treats them;
 * - acyclicity is equality: the held object is not the end of the target's chain (puton/putin),
 *   the part is on no link of the target's chain (attach);
 * - ASSEMBLED (an ATTACHED edge either way) is `(joined a b)`, added both ways by attach.
 * Close, press and attach are limited to goal nodes, exactly as the oracle's successor set
 * (planner.ts), since their only effects are goal attributes.
 */
import { LonghaulError, parseOrThrow } from "../core/index.ts";
import { countPlaced, type ResolvedAtom, resolveGoal } from "./goals.ts";
import { Loc, WorldState } from "./state.ts";
import { Goal, type SceneInput } from "./types.ts";

/** A literal: a predicate (or `=`) over variables and constants, possibly negated. */
interface Lit {
  pred: string;
  args: string[];
  neg?: boolean;
}

/** One exported action schema. */
interface PddlAction {
  name: string;
  params: [string, string][];
  pre: Lit[];
  add: Lit[];
  del: Lit[];
}

/** A visibility chain shape: links to the robot's room (depth ≥ 1) or to a held node (≥ 0). */
interface Shape {
  term: "room" | "held";
  depth: number;
}

/** The structured export, for rendering and for tests that check it against the engine. */
export interface PddlTask {
  name: string;
  actions: PddlAction[];
  predicates: string[];
  constants: string[];
  objects: string[];
  staticAtoms: string[];
  init: string[];
  goal: string[];
  /** The fluent atoms encoding a latent state of the same instance (hands and ids unchanged). */
  encode(state: WorldState): string[];
}

const REL_NAME: Partial<Record<Loc, string>> = {
  [Loc.On]: "on",
  [Loc.Inside]: "inside",
  [Loc.Attached]: "attached",
  [Loc.InRoom]: "in-room",
};

/**
 * The PDDL object name of a node id: `n-` plus the id with lower-case letters, digits and `_`
 * kept and other characters escaped after `-` (`--` for `-`, `-_` for `.`, `-a` for `A`), so
 * names stay injective although PDDL is case-insensitive.
 */
export function pddlName(id: string): string {
  let out = "n-";
  for (const ch of id) {
    if (/[a-z0-9_]/.test(ch)) out += ch;
    else if (ch === "-") out += "--";
    else if (ch === ".") out += "-_";
    else out += `-${ch.toLowerCase()}`;
  }
  return out;
}

/** The engine action name of an exported action (`move-aside_r1` -> `move_aside`). */
export function engineActionName(pddlAction: string): string {
  return (pddlAction.split("_")[0] ?? "").replace(/-/g, "_");
}

/**
 * Export an instance as PDDL (domain and problem text). The goal is resolved against the scene
 * (unknown ids are INVALID_INPUT); scheduled events are not part of the export.
 */
export function exportPddl(
  scene: SceneInput | WorldState,
  goal: Goal,
  options: { name?: string } = {},
): { domain: string; problem: string } {
  const task = buildPddlTask(scene, goal, options);
  return { domain: renderDomain(task), problem: renderProblem(task) };
}

/** Build the structured export (see exportPddl). */
export function buildPddlTask(
  scene: SceneInput | WorldState,
  goal: Goal,
  options: { name?: string } = {},
): PddlTask {
  const state = scene instanceof WorldState ? scene.clone() : WorldState.fromScene(scene);
  if (state.robots.length !== 1)
    throw new LonghaulError("INVALID_INPUT", "PDDL export covers single-robot scenes", "robots");
  const atoms = resolveGoal(state, parseOrThrow(Goal, goal, "goal"));
  if (atoms.some((a) => a.pred === "ATTR" || a.pred === "AT"))
    throw new LonghaulError("INVALID_INPUT", "PDDL export has no ATTR or AT goal atoms", "goal");
  const name = pddlIdentifier(options.name ?? "longhaul-world");
  // The robot is implicit in the domain (robot-at, hands-free), not an object.
  const robot = state.robotNode(0);
  const alive = state.ids.map((_, i) => i).filter((i) => state.alive[i] && i !== robot);
  const isRoom = (i: number) => state.info[i]?.node.type === "room";
  for (const i of alive)
    if (isRoom(i) && (state.affords(i, "support") || state.affords(i, "contain")))
      throw new LonghaulError(
        "INVALID_INPUT",
        `PDDL export: room ${state.ids[i]} cannot be a placement target`,
        "scene.nodes",
      );
  const things = alive.filter((i) => !isRoom(i));
  if (state.parent.some((p, i) => p === robot && state.rel[i] !== Loc.Held))
    throw new LonghaulError("INVALID_INPUT", "PDDL export: nothing may rest on the robot", "edges");
  const n = (i: number) => pddlName(state.ids[i] as string);

  // Goal-restricted actions, as in the oracle's successor set.
  const canPress = new Set<number>();
  const canClose = new Set<number>();
  const canAttach: [number, number][] = [];
  for (const a of atoms) {
    if (a.pred === "PRESSED" && state.affords(a.node, "pressable")) canPress.add(a.node);
    if (a.pred === "CLOSED" && state.affords(a.node, "openable")) canClose.add(a.node);
    if (a.pred === "ASSEMBLED")
      for (const [p, t] of [
        [a.part, a.target],
        [a.target, a.part],
      ] as const)
        if (
          state.affords(p, "attachable") &&
          state.info[p]?.compatible.has(state.ids[t] as string) &&
          !canAttach.some(([x, y]) => x === p && y === t)
        )
          canAttach.push([p, t]);
  }

  // Active occlusion pairs (blockers never re-activate without events) and slot counts.
  const pairs = state.occludes.filter(
    ([b, t]) => state.alive[b] && state.alive[t] && !state.isMovedAside(b),
  );
  const occluders = new Map<number, number[]>();
  const occludees = new Map<number, number[]>();
  for (const [b, t] of pairs) {
    if (!occluders.get(t)?.includes(b)) occluders.set(t, [...(occluders.get(t) ?? []), b]);
    if (!occludees.get(b)?.includes(t)) occludees.set(b, [...(occludees.get(b) ?? []), t]);
  }
  const slotsB = Math.max(0, ...[...occluders.values()].map((l) => l.length));
  const slotsA = Math.max(0, ...[...occludees.values()].map((l) => l.length));

  // COUNT keys (rel, category, target) become tallies.
  const keys: { rel: Loc; category: string; target: number; obj: string }[] = [];
  const keyOf = (a: Extract<ResolvedAtom, { pred: "COUNT" }>) => {
    let k = keys.findIndex(
      (x) => x.rel === a.rel && x.category === a.category && x.target === a.target,
    );
    if (k < 0) {
      k = keys.length;
      keys.push({ rel: a.rel, category: a.category, target: a.target, obj: `k${k}` });
    }
    return keys[k] as (typeof keys)[number];
  };
  for (const a of atoms) if (a.pred === "COUNT") keyOf(a);

  const maxCount = things.length + 2;
  const counter = (m: number) => `c${Math.min(m, maxCount)}`;
  const depths = chainDepths(state, things, canAttach);
  const ctx: Ctx = {
    slotsA,
    slotsB,
    tallies: keys.length > 0,
    navigation: state.navigation,
    roomShapes: range(1, depths.room).map((depth) => ({ term: "room", depth })),
    heldShapes: range(0, depths.held).map((depth) => ({ term: "held", depth })),
  };

  const staticAtoms: string[] = [];
  const fact = (pred: string, ...args: string[]) => staticAtoms.push(atom(pred, args));
  for (let m = 0; m < maxCount; m++) fact("succ", counter(m), counter(m + 1));
  const affordancePreds = [
    ["grabbable", "grabbable"],
    ["movable", "movable"],
    ["support", "support"],
    ["container", "contain"],
    ["openable", "openable"],
  ] as const;
  for (const i of things) {
    for (const [pred, aff] of affordancePreds) if (state.affords(i, aff)) fact(pred, n(i));
    const cap = state.info[i]?.node.capacity;
    fact("capacity", n(i), counter(cap ?? maxCount));
    // Unused slots hold `none`, which never occludes or is occluded.
    const slot = (list: number[] | undefined, j: number) => {
      const b = list?.[j];
      return b === undefined ? "none" : n(b);
    };
    for (let j = 0; j < slotsB; j++) fact(`occ-slot-${j + 1}`, n(i), slot(occluders.get(i), j));
    for (let j = 0; j < slotsA; j++) fact(`hides-slot-${j + 1}`, n(i), slot(occludees.get(i), j));
  }
  for (const i of canPress) fact("can-press", n(i));
  for (const i of canClose) fact("can-close", n(i));
  for (const [p, t] of canAttach) fact("can-attach", n(p), n(t));
  for (const [a, b] of state.adjacent)
    if (state.alive[a] && state.alive[b]) {
      fact("adjacent", n(a), n(b));
      fact("adjacent", n(b), n(a));
    }
  for (const key of keys)
    for (const i of things)
      if (state.info[i]?.node.category === key.category) {
        const rel = REL_NAME[key.rel] as string;
        fact("counted", n(i), n(key.target), rel, key.obj);
        fact("tracked", n(i), n(key.target), rel);
      }

  const encode = (s: WorldState): string[] => {
    const out: string[] = [atom("robot-at", [n(s.robotRoom(0))])];
    const free = s.freeHands(0);
    out.push(atom("hands-free", [counter(free)]));
    for (const i of things) {
      if (!s.alive[i]) continue;
      const rel = s.rel[i] ?? Loc.None;
      const p = s.parent[i] ?? -1;
      if (rel === Loc.Held) out.push(atom("holding", [n(i)]));
      else if (p >= 0) out.push(atom("loc", [n(i), n(p), REL_NAME[rel] as string]));
      if (rel === Loc.Attached && p >= 0)
        out.push(atom("joined", [n(i), n(p)]), atom("joined", [n(p), n(i)]));
      if (s.attr(i, "open")) out.push(atom("open", [n(i)]));
      if (s.hasAttr(i, "open") && !s.attr(i, "open")) out.push(atom("closed", [n(i), "inside"]));
      if (s.attr(i, "pressed")) out.push(atom("pressed", [n(i)]));
      if (s.attr(i, "moved_aside")) out.push(atom("moved-aside", [n(i)]));
      const load = s.load(i);
      for (let m = 0; m <= load; m++) out.push(atom("load-ge", [n(i), counter(m)]));
    }
    for (const [b, t] of s.occludes)
      if (s.alive[b] && s.alive[t] && !s.isMovedAside(b)) out.push(atom("occludes", [n(b), n(t)]));
    for (const key of keys) {
      const count = countPlaced(s, key.rel, key.category, key.target);
      for (let m = 0; m <= count; m++) out.push(atom("tally-ge", [key.obj, counter(m)]));
    }
    return [...new Set(out)].sort();
  };

  const goalLits: string[] = [];
  for (const a of atoms) {
    switch (a.pred) {
      case "ON":
      case "INSIDE":
        goalLits.push(atom("loc", [n(a.object), n(a.target), a.pred.toLowerCase()]));
        break;
      case "OPEN":
        goalLits.push(atom("open", [n(a.node)]));
        break;
      case "CLOSED":
        goalLits.push(atom("closed", [n(a.node), "inside"]));
        break;
      case "PRESSED":
        goalLits.push(atom("pressed", [n(a.node)]));
        break;
      case "ASSEMBLED":
        goalLits.push(atom("joined", [n(a.part), n(a.target)]));
        break;
      case "COUNT": {
        const k = keyOf(a).obj;
        if (a.n > 0) goalLits.push(atom("tally-ge", [k, counter(a.n)]));
        if (a.op === "exactly") goalLits.push(`(not ${atom("tally-ge", [k, counter(a.n + 1)])})`);
        break;
      }
    }
  }

  const objects = [
    ...alive.map((i) => `${n(i)} - ${isRoom(i) ? "room" : "thing"}`),
    ...keys.map((k) => `${k.obj} - tally`),
    ...range(3, maxCount).map((m) => `${counter(m)} - count`),
  ].sort();
  const constants = ["on", "inside", "attached", "in-room"].map((r) => `${r} - rel`);
  constants.push("c0 - count", "c1 - count", "c2 - count");
  if (slotsA + slotsB > 0) constants.push("none - thing");

  return {
    name,
    actions: buildActions(ctx),
    predicates: predicates(ctx),
    constants,
    objects,
    staticAtoms: [...new Set(staticAtoms)].sort(),
    init: [...new Set([...staticAtoms, ...encode(state)])].sort(),
    goal: [...new Set(goalLits)],
    encode,
  };
}

/** What the action variants depend on. */
interface Ctx {
  slotsA: number;
  slotsB: number;
  tallies: boolean;
  navigation: boolean;
  roomShapes: Shape[];
  heldShapes: Shape[];
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i <= to; i++) out.push(i);
  return out;
}

function atom(pred: string, args: string[]): string {
  return `(${[pred, ...args].join(" ")})`;
}

function pddlIdentifier(name: string): string {
  const s = name.toLowerCase().replace(/[^a-z0-9_-]+/g, "-");
  return /^[a-z]/.test(s) ? s : `t-${s}`;
}

/**
 * The longest location chains any reachable state can have: links from a node to a room and
 * to a node that can be held, over "possible parent" edges (the current parent, every support
 * or container for movable nodes, attach targets). Exhaustive over simple paths; only nodes
 * that can move branch, which keeps it small on RoboGraph scenes.
 */
function chainDepths(
  state: WorldState,
  things: number[],
  canAttach: [number, number][],
): { room: number; held: number } {
  const receivers = things.filter(
    (i) => state.affords(i, "support") || state.affords(i, "contain"),
  );
  const holdable = (i: number) => state.affords(i, "grabbable") || state.rel[i] === Loc.Held;
  const parents = new Map<number, number[]>();
  for (const x of things) {
    const set = new Set<number>();
    const p = state.parent[x] ?? -1;
    if (p >= 0 && state.rel[x] !== Loc.Held) set.add(p);
    if (holdable(x)) for (const r of receivers) if (r !== x) set.add(r);
    for (const [a, t] of canAttach) if (a === x) set.add(t);
    parents.set(x, [...set]);
  }
  const longest = (x: number, visited: Set<number>): { room: number; held: number } => {
    const res = {
      room: Number.NEGATIVE_INFINITY,
      held: holdable(x) ? 0 : Number.NEGATIVE_INFINITY,
    };
    for (const p of parents.get(x) ?? []) {
      if (visited.has(p)) continue;
      if (state.info[p]?.node.type === "room") {
        res.room = Math.max(res.room, 1);
        continue;
      }
      visited.add(p);
      const sub = longest(p, visited);
      visited.delete(p);
      res.room = Math.max(res.room, 1 + sub.room);
      res.held = Math.max(res.held, 1 + sub.held);
    }
    return res;
  };
  let room = 0;
  let held = -1;
  for (const x of things) {
    const d = longest(x, new Set([x]));
    room = Math.max(room, d.room);
    held = Math.max(held, d.held);
  }
  return { room, held };
}

/** Predicate declarations (static ones first). */
function predicates(ctx: Ctx): string[] {
  const out = [
    "(succ ?a - count ?b - count)",
    "(capacity ?n - thing ?c - count)",
    "(adjacent ?a - room ?b - room)",
    "(grabbable ?x - thing)",
    "(movable ?x - thing)",
    "(support ?x - thing)",
    "(container ?x - thing)",
    "(openable ?x - thing)",
    "(can-press ?x - thing)",
    "(can-close ?x - thing)",
    "(can-attach ?p - thing ?t - thing)",
  ];
  for (let j = 1; j <= ctx.slotsB; j++) out.push(`(occ-slot-${j} ?n - thing ?b - thing)`);
  for (let j = 1; j <= ctx.slotsA; j++) out.push(`(hides-slot-${j} ?b - thing ?n - thing)`);
  if (ctx.tallies)
    out.push(
      "(counted ?x - thing ?t - node ?r - rel ?k - tally)",
      "(tracked ?x - thing ?t - node ?r - rel)",
      "(tally-ge ?k - tally ?c - count)",
    );
  out.push(
    "(robot-at ?r - room)",
    "(hands-free ?c - count)",
    "(holding ?x - thing)",
    "(loc ?x - thing ?p - node ?r - rel)",
    "(closed ?n - node ?r - rel)",
    "(open ?n - thing)",
    "(pressed ?n - thing)",
    "(moved-aside ?n - thing)",
    "(joined ?a - thing ?b - thing)",
    "(load-ge ?n - thing ?c - count)",
    "(occludes ?b - thing ?n - thing)",
  );
  return out;
}

/** A visibility precondition for `x` along a chain shape; variables are prefixed by `p`. */
interface Chain {
  params: [string, string][];
  pre: Lit[];
  /** The chain's thing nodes after `x` (x's parent first when it is a thing). */
  links: string[];
  /** x's parent and link relation (absent for a held x). */
  parent?: string;
  parentIsRoom: boolean;
  rel0?: string;
  /** The held node ending the chain (held shapes). */
  heldEnd?: string;
  /** x's own occluder slot variables. */
  slots0: string[];
}

function lit(pred: string, ...args: string[]): Lit {
  return { pred, args };
}

function not(pred: string, ...args: string[]): Lit {
  return { pred, args, neg: true };
}

function chain(x: string, p: string, shape: Shape, ctx: Ctx): Chain {
  const k = shape.depth;
  const nodes = [x];
  const params: [string, string][] = [];
  for (let i = 1; i <= k; i++) {
    const isRoomEnd = shape.term === "room" && i === k;
    const v = isRoomEnd ? `?${p}room` : `?${p}${i}`;
    nodes.push(v);
    params.push([v, isRoomEnd ? "room" : "thing"]);
  }
  const pre: Lit[] = [];
  let slots0: string[] = [];
  for (let i = 0; i < k; i++) {
    const a = nodes[i] as string;
    const b = nodes[i + 1] as string;
    const r = `?${p}r${i}`;
    params.push([r, "rel"]);
    pre.push(lit("loc", a, b, r));
    if (!(shape.term === "room" && i === k - 1)) pre.push(not("closed", b, r));
    const slots: string[] = [];
    for (let j = 1; j <= ctx.slotsB; j++) {
      const o = `?${p}o${i}-${j}`;
      slots.push(o);
      params.push([o, "thing"]);
      pre.push(lit(`occ-slot-${j}`, a, o), not("occludes", o, a));
    }
    if (i === 0) slots0 = slots;
  }
  const end = nodes[k] as string;
  pre.push(shape.term === "room" ? lit("robot-at", end) : lit("holding", end));
  const links = nodes.slice(1).filter((_, i) => !(shape.term === "room" && i === k - 1));
  return {
    params,
    pre,
    links,
    ...(k > 0 ? { parent: nodes[1] as string, rel0: `?${p}r0` } : {}),
    parentIsRoom: shape.term === "room" && k === 1,
    ...(shape.term === "held" ? { heldEnd: end } : {}),
    slots0,
  };
}

function shapeCode(shape: Shape): string {
  return `${shape.term === "room" ? "r" : "h"}${shape.depth}`;
}

/** Unary counter step on `(pred owner c)`: +1 (inc) or -1 (dec), with fresh variables. */
function counterStep(
  pred: string,
  owner: string,
  v: string,
  dir: "inc" | "dec",
): { params: [string, string][]; pre: Lit[]; add: Lit[]; del: Lit[] } {
  const cur = `?${v}`;
  const nxt = `?${v}-next`;
  const pre = [lit(pred, owner, cur), lit("succ", cur, nxt), not(pred, owner, nxt)];
  if (dir === "dec") pre.push(not("=", cur, "c0"));
  return {
    params: [
      [cur, "count"],
      [nxt, "count"],
    ],
    pre,
    add: dir === "inc" ? [lit(pred, owner, nxt)] : [],
    del: dir === "dec" ? [lit(pred, owner, cur)] : [],
  };
}

type Part = { params?: [string, string][]; pre?: Lit[]; add?: Lit[]; del?: Lit[] };

function action(name: string, params: [string, string][], ...parts: Part[]): PddlAction {
  const a: PddlAction = { name, params: [...params], pre: [], add: [], del: [] };
  for (const part of parts) {
    a.params.push(...(part.params ?? []));
    a.pre.push(...(part.pre ?? []));
    a.add.push(...(part.add ?? []));
    a.del.push(...(part.del ?? []));
  }
  return a;
}

/**
 * Leaving or entering a placement at `parent` by `rel`: the parent's load counter and, with
 * COUNT goals, the tally variants (`c` the placement is tallied by a COUNT key, `u` it is not).
 */
function placementVariants(
  x: string,
  parent: string,
  rel: string,
  dir: "inc" | "dec",
  ctx: Ctx,
): { code: string; part: Part }[] {
  const load = counterStep("load-ge", parent, "ld", dir);
  if (!ctx.tallies) return [{ code: "", part: load }];
  const tally = counterStep("tally-ge", "?k", "tl", dir);
  return [
    {
      code: "c",
      part: merge(load, {
        params: [["?k", "tally"], ...tally.params],
        pre: [lit("counted", x, parent, rel, "?k"), ...tally.pre],
        add: tally.add,
        del: tally.del,
      }),
    },
    { code: "u", part: merge(load, { pre: [not("tracked", x, parent, rel)] }) },
  ];
}

function merge(a: Part, b: Part): Part {
  return {
    params: [...(a.params ?? []), ...(b.params ?? [])],
    pre: [...(a.pre ?? []), ...(b.pre ?? [])],
    add: [...(a.add ?? []), ...(b.add ?? [])],
    del: [...(a.del ?? []), ...(b.del ?? [])],
  };
}

/** Occludee slots of a blocker `b`: deleting its active OCCLUDES edges. */
function endOcclusions(b: string, ctx: Ctx): Part {
  const params: [string, string][] = [];
  const pre: Lit[] = [];
  const del: Lit[] = [];
  for (let j = 1; j <= ctx.slotsA; j++) {
    const m = `?m${j}`;
    params.push([m, "thing"]);
    pre.push(lit(`hides-slot-${j}`, b, m));
    del.push(lit("occludes", b, m));
  }
  return { params, pre, del };
}

function buildActions(ctx: Ctx): PddlAction[] {
  const out: PddlAction[] = [];
  const all = [...ctx.roomShapes, ...ctx.heldShapes];
  const placed = all.filter((s) => s.depth > 0);
  const oneFree: Part = { pre: [not("hands-free", "c0")] };
  const twoFree: Part = { pre: [lit("hands-free", "c2")] };
  if (ctx.navigation)
    out.push(
      action(
        "walk",
        [
          ["?to", "room"],
          ["?from", "room"],
        ],
        {
          pre: [lit("robot-at", "?from"), lit("adjacent", "?from", "?to")],
          add: [lit("robot-at", "?to")],
          del: [lit("robot-at", "?from")],
        },
      ),
    );
  for (const s of ctx.roomShapes) {
    const c = chain("?c", "c", s, ctx);
    out.push(
      action(`open_${shapeCode(s)}`, [["?c", "thing"]], c, twoFree, {
        pre: [lit("openable", "?c"), not("open", "?c")],
        add: [lit("open", "?c")],
        del: [lit("closed", "?c", "inside")],
      }),
      action(`close_${shapeCode(s)}`, [["?c", "thing"]], c, twoFree, {
        pre: [lit("can-close", "?c"), lit("open", "?c")],
        add: [lit("closed", "?c", "inside")],
        del: [lit("open", "?c")],
      }),
    );
  }
  for (const s of all)
    out.push(
      action(`press_${shapeCode(s)}`, [["?x", "thing"]], chain("?x", "x", s, ctx), oneFree, {
        pre: [lit("can-press", "?x"), not("pressed", "?x")],
        add: [lit("pressed", "?x")],
      }),
    );
  const hands = (dir: "take" | "release"): Part => ({
    params: [
      ["?h", "count"],
      ["?h-next", "count"],
    ],
    pre: [
      lit("hands-free", "?h"),
      dir === "take" ? lit("succ", "?h-next", "?h") : lit("succ", "?h", "?h-next"),
    ],
    add: [lit("hands-free", "?h-next")],
    del: [lit("hands-free", "?h")],
  });
  for (const s of placed) {
    const c = chain("?x", "x", s, ctx);
    const parent = c.parent as string;
    const rel0 = c.rel0 as string;
    const base: Part = {
      pre: [lit("grabbable", "?x"), not("=", rel0, "attached"), not("load-ge", "?x", "c1")],
      add: [lit("holding", "?x")],
      del: [lit("loc", "?x", parent, rel0), ...c.slots0.map((o) => lit("occludes", o, "?x"))],
    };
    const variants = c.parentIsRoom
      ? [{ code: "", part: {} }]
      : placementVariants("?x", parent, rel0, "dec", ctx);
    for (const v of variants)
      out.push(
        action(
          `grab_${shapeCode(s)}${v.code}`,
          [["?x", "thing"]],
          c,
          base,
          hands("take"),
          endOcclusions("?x", ctx),
          v.part,
        ),
      );
  }
  for (const [verb, rel, afford] of [
    ["puton", "on", "support"],
    ["putin", "inside", "container"],
  ] as const)
    for (const s of all) {
      const c = chain("?s", "s", s, ctx);
      const pre: Lit[] = [lit("holding", "?x"), lit(afford, "?s")];
      if (rel === "inside") pre.push(not("closed", "?s", "inside"));
      if (c.heldEnd) pre.push(not("=", c.heldEnd, "?x"));
      pre.push(lit("capacity", "?s", "?cap"), not("load-ge", "?s", "?cap"));
      for (const v of placementVariants("?x", "?s", rel, "inc", ctx))
        out.push(
          action(
            `${verb}_${shapeCode(s)}${v.code}`,
            [
              ["?x", "thing"],
              ["?s", "thing"],
              ["?cap", "count"],
            ],
            c,
            hands("release"),
            v.part,
            { pre, add: [lit("loc", "?x", "?s", rel)], del: [lit("holding", "?x")] },
          ),
        );
    }
  for (const sp of ctx.roomShapes)
    for (const st of ctx.roomShapes) {
      const cp = chain("?p", "p", sp, ctx);
      const ct = chain("?t", "t", st, ctx);
      const parent = cp.parent as string;
      const rel0 = cp.rel0 as string;
      const base: Part = {
        pre: [
          lit("can-attach", "?p", "?t"),
          not("=", rel0, "attached"),
          not("=", "?p", "?t"),
          ...ct.links.map((l) => not("=", "?p", l)),
        ],
        add: [
          lit("loc", "?p", "?t", "attached"),
          lit("joined", "?p", "?t"),
          lit("joined", "?t", "?p"),
        ],
        del: [lit("loc", "?p", parent, rel0)],
      };
      const variants = cp.parentIsRoom
        ? [{ code: "", part: {} }]
        : placementVariants("?p", parent, rel0, "dec", ctx);
      for (const v of variants)
        out.push(
          action(
            `attach_${shapeCode(sp)}${shapeCode(st)}${v.code}`,
            [
              ["?p", "thing"],
              ["?t", "thing"],
            ],
            cp,
            ct,
            twoFree,
            base,
            v.part,
          ),
        );
    }
  for (const s of placed)
    out.push(
      action(
        `move-aside_${shapeCode(s)}`,
        [["?x", "thing"]],
        chain("?x", "x", s, ctx),
        oneFree,
        endOcclusions("?x", ctx),
        { pre: [lit("movable", "?x"), not("moved-aside", "?x")], add: [lit("moved-aside", "?x")] },
      ),
    );
  return out;
}

function renderLit(l: Lit): string {
  const a = atom(l.pred, l.args);
  return l.neg ? `(not ${a})` : a;
}

function renderAction(a: PddlAction): string {
  const params = a.params.map(([v, t]) => `${v} - ${t}`).join(" ");
  const pre = a.pre.map(renderLit).join("\n      ");
  const eff = [...a.del.map((l) => `(not ${atom(l.pred, l.args)})`), ...a.add.map(renderLit)].join(
    "\n      ",
  );
  return [
    `  (:action ${a.name}`,
    `    :parameters (${params})`,
    `    :precondition (and\n      ${pre})`,
    `    :effect (and\n      ${eff}))`,
  ].join("\n");
}

function renderDomain(t: PddlTask): string {
  return [
    `(define (domain ${t.name})`,
    "  (:requirements :strips :typing :negative-preconditions :equality)",
    "  (:types room thing - node node rel count tally - object)",
    `  (:constants ${t.constants.join(" ")})`,
    `  (:predicates\n    ${t.predicates.join("\n    ")})`,
    ...t.actions.map(renderAction),
    ")",
    "",
  ].join("\n");
}

function renderProblem(t: PddlTask): string {
  return [
    `(define (problem ${t.name})`,
    `  (:domain ${t.name})`,
    `  (:objects\n    ${t.objects.join("\n    ")})`,
    `  (:init\n    ${t.init.join("\n    ")})`,
    `  (:goal (and\n    ${t.goal.join("\n    ")}))`,
    ")",
    "",
  ].join("\n");
}
