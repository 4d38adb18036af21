/** Tower of Hanoi logic: states as ring-to-peg assignments, legal moves, shortest plans. */

/** Ring sizes 1 (smallest) to 5; `pegOf[k - 1]` is the peg (0-2) ring k sits on. */
export type HanoiState = number[];

export const RINGS = 5;
export const PEGS = 3;

const key = (s: HanoiState) => s.join("");

/** Rings on a peg, bottom to top (largest first). */
export function stackOn(state: HanoiState, peg: number): number[] {
  const rings: number[] = [];
  for (let k = RINGS; k >= 1; k--) if (state[k - 1] === peg) rings.push(k);
  return rings;
}

/** The top ring of a peg, or undefined. */
export function topRing(state: HanoiState, peg: number): number | undefined {
  for (let k = 1; k <= RINGS; k++) if (state[k - 1] === peg) return k;
  return undefined;
}

/** A move of the exposed ring of `from` onto `to`. */
export interface HanoiMove {
  ring: number;
  from: number;
  to: number;
}

/** Legal moves of a state: an exposed ring onto an empty peg or a larger ring. */
export function legalMoves(state: HanoiState): HanoiMove[] {
  const moves: HanoiMove[] = [];
  for (let from = 0; from < PEGS; from++) {
    const ring = topRing(state, from);
    if (ring === undefined) continue;
    for (let to = 0; to < PEGS; to++) {
      if (to === from) continue;
      const below = topRing(state, to);
      if (below === undefined || below > ring) moves.push({ ring, from, to });
    }
  }
  return moves;
}

export function applyMove(state: HanoiState, move: HanoiMove): HanoiState {
  const next = [...state];
  next[move.ring - 1] = move.to;
  return next;
}

/** A shortest legal move sequence from `start` to `goal` (breadth-first; 243 states). */
export function shortestPlan(start: HanoiState, goal: HanoiState): HanoiMove[] {
  const prev = new Map<string, { from: string; move: HanoiMove } | null>([[key(start), null]]);
  const queue: HanoiState[] = [start];
  const goalKey = key(goal);
  while (queue.length > 0) {
    const state = queue.shift()!;
    if (key(state) === goalKey) break;
    for (const move of legalMoves(state)) {
      const next = applyMove(state, move);
      const k = key(next);
      if (prev.has(k)) continue;
      prev.set(k, { from: key(state), move });
      queue.push(next);
    }
  }
  if (!prev.has(goalKey)) throw new Error("goal unreachable");
  const plan: HanoiMove[] = [];
  for (let k = goalKey; prev.get(k); k = prev.get(k)!.from) plan.unshift(prev.get(k)!.move);
  return plan;
}

/**
 * The start and goal of a case with the given shortest plan length (Table 10's levels 1-4):
 * 1 move: the top ring to the middle peg; 3 moves: the top two rings to the right peg;
 * 31 moves: the whole tower from left to right; 9 moves: the first distributed state (rings on
 * all three pegs, in ring-to-peg order) whose shortest plan to the whole tower on the right is 9.
 */
export function casePuzzle(depth: number): { start: HanoiState; goal: HanoiState } {
  const all = (peg: number) => Array<number>(RINGS).fill(peg);
  switch (depth) {
    case 1:
      return { start: all(0), goal: [1, 0, 0, 0, 0] };
    case 3:
      return { start: all(0), goal: [2, 2, 0, 0, 0] };
    case 31:
      return { start: all(0), goal: all(2) };
    case 9: {
      const goal = all(2);
      for (let code = 0; code < PEGS ** RINGS; code++) {
        const state = Array.from({ length: RINGS }, (_, i) => Math.floor(code / PEGS ** i) % PEGS);
        if (new Set(state).size < PEGS) continue;
        if (shortestPlan(state, goal).length === 9) return { start: state, goal };
      }
      throw new Error("no distributed 9-move state");
    }
    default:
      throw new Error(`no Hanoi case of depth ${depth}`);
  }
}
