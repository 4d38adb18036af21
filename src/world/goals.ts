/** Goal predicates over the latent state: atoms resolved to node indices and checked fast. */
import { LonghaulError } from "../core/index.ts";
import { Loc, OPEN, PRESSED, type WorldState } from "./state.ts";
import type { Goal, GoalAtom } from "./types.ts";

/** A goal atom with node ids resolved to indices. */
export type ResolvedAtom =
  | { pred: "ON" | "INSIDE"; object: number; target: number; atom: GoalAtom }
  | { pred: "OPEN" | "CLOSED" | "PRESSED"; node: number; atom: GoalAtom }
  | { pred: "ATTR"; node: number; attr: string; value: boolean; atom: GoalAtom }
  | { pred: "AT"; node: number; room: number; atom: GoalAtom }
  | { pred: "ASSEMBLED"; part: number; target: number; atom: GoalAtom }
  | {
      pred: "COUNT";
      rel: Loc;
      category: string;
      target: number;
      op: "exactly" | "at_least";
      n: number;
      atom: GoalAtom;
    };

/** Resolve a goal's node ids against a state; unknown ids are an INVALID_INPUT error. */
export function resolveGoal(state: WorldState, goal: Goal): ResolvedAtom[] {
  return goal.all.map((atom, i) => resolveAtom(state, atom, `goal.all[${i}]`));
}

function resolveAtom(state: WorldState, atom: GoalAtom, path: string): ResolvedAtom {
  const id = (name: string, field: string): number => {
    const i = state.index.get(name);
    if (i === undefined)
      throw new LonghaulError("INVALID_INPUT", `unknown node ${name}`, `${path}.${field}`);
    return i;
  };
  switch (atom.pred) {
    case "ON":
    case "INSIDE":
      return {
        pred: atom.pred,
        object: id(atom.object, "object"),
        target: id(atom.target, "target"),
        atom,
      };
    case "OPEN":
    case "CLOSED":
    case "PRESSED":
      return { pred: atom.pred, node: id(atom.node, "node"), atom };
    case "ATTR":
      return {
        pred: "ATTR",
        node: id(atom.node, "node"),
        attr: atom.attr,
        value: atom.value,
        atom,
      };
    case "AT": {
      const room = id(atom.room, "room");
      if (state.info[room]?.node.type !== "room")
        throw new LonghaulError("INVALID_INPUT", `${atom.room} is not a room`, `${path}.room`);
      return { pred: "AT", node: id(atom.node, "node"), room, atom };
    }
    case "ASSEMBLED":
      return {
        pred: atom.pred,
        part: id(atom.part, "part"),
        target: id(atom.target, "target"),
        atom,
      };
    case "COUNT":
      return {
        pred: "COUNT",
        rel: atom.rel === "ON" ? Loc.On : Loc.Inside,
        category: atom.category,
        target: id(atom.target, "target"),
        op: atom.op,
        n: atom.n,
        atom,
      };
  }
}

/** The node ids one goal atom names (for AT, the node and its room). */
export function atomNodeIds(atom: GoalAtom): string[] {
  switch (atom.pred) {
    case "ON":
    case "INSIDE":
      return [atom.object, atom.target];
    case "ASSEMBLED":
      return [atom.part, atom.target];
    case "COUNT":
      return [atom.target];
    case "AT":
      return [atom.node, atom.room];
    default:
      return [atom.node];
  }
}

/** Number of live nodes of `category` placed `rel` directly at `target`. */
export function countPlaced(state: WorldState, rel: Loc, category: string, target: number): number {
  let n = 0;
  for (let j = 0; j < state.parent.length; j++)
    if (
      state.parent[j] === target &&
      state.rel[j] === rel &&
      state.alive[j] &&
      state.info[j]?.node.category === category
    )
      n++;
  return n;
}

/** Does one resolved atom hold in the state. */
export function atomHolds(state: WorldState, a: ResolvedAtom): boolean {
  switch (a.pred) {
    case "ON":
      return state.rel[a.object] === Loc.On && state.parent[a.object] === a.target;
    case "INSIDE":
      return state.rel[a.object] === Loc.Inside && state.parent[a.object] === a.target;
    case "OPEN":
      return ((state.val[a.node] ?? 0) & OPEN) !== 0;
    case "CLOSED":
      return state.isClosed(a.node);
    case "PRESSED":
      return ((state.val[a.node] ?? 0) & PRESSED) !== 0;
    case "ATTR":
    case "AT":
      return otherAtomHolds(state, a);
    case "ASSEMBLED":
      return (
        (state.rel[a.part] === Loc.Attached && state.parent[a.part] === a.target) ||
        (state.rel[a.target] === Loc.Attached && state.parent[a.target] === a.part)
      );
    case "COUNT": {
      const n = countPlaced(state, a.rel, a.category, a.target);
      return a.op === "exactly" ? n === a.n : n >= a.n;
    }
  }
}

/** ATTR and AT atoms, kept out of `atomHolds` so the planner's hot path stays small. */
function otherAtomHolds(
  state: WorldState,
  a: Extract<ResolvedAtom, { pred: "ATTR" | "AT" }>,
): boolean {
  return a.pred === "AT"
    ? state.roomOf(a.node) === a.room
    : state.hasAttr(a.node, a.attr) && state.attr(a.node, a.attr) === a.value;
}

/** Does every atom hold (G_t ⊨ g). */
export function goalHolds(state: WorldState, atoms: readonly ResolvedAtom[]): boolean {
  for (const a of atoms) if (!atomHolds(state, a)) return false;
  return true;
}
