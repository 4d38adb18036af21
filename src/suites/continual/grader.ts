/**
 * The authors' released grader (graph_env/grading `grade_trace`), reimplemented: a success
 * term, an efficiency term (shortest path over valid actions taken), a path-quality term (the
 * longest common subsequence with the reference path, less repeated states) and, for failed
 * episodes, node, prefix and goal-predicate progress, with a penalty for invalid actions:
 *
 *   reached:  overall = 0.55 success + 0.25 efficiency + 0.20 path_quality - invalid_penalty
 *   else:     overall = 0.25 node_progress + 0.50 predicate_progress + 0.25 path_quality - invalid_penalty
 *   invalid_penalty = 0.2 (1 - exp(-invalid / 10)), overall clamped to [0, 1].
 *
 * The paper reports success rate only; the suite reports this score beside it.
 */

/** One step of a trace, as the grader reads it. */
export interface GradeStep {
  valid: boolean;
  action: string | null;
  toState: string;
  toDepth: number;
}

/** What the grader needs besides the steps. */
export interface GradeInput {
  steps: GradeStep[];
  reachedGoal: boolean;
  initialState: string;
  initialDepth: number;
  finalPredicates: string[];
  goalPredicates: string[];
  referencePaths: string[][];
  /** Shortest reference length (the authors fall back to the task's shortest trace). */
  shortestLength: number;
  maxGoalDepth: number;
}

/** The grader's terms. */
export interface Grade {
  overall: number;
  success: number;
  efficiency: number;
  pathQuality: number;
  progress: number;
  nodeProgress: number;
  prefixProgress: number;
  predicateProgress: number;
  invalidPenalty: number;
  extraSteps: number;
  redundantActions: number;
}

/** Length of the longest common subsequence. */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let prev = 0;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] as number;
      row[j] = x === b[j - 1] ? prev + 1 : Math.max(current, row[j - 1] as number);
      prev = current;
    }
  }
  return row[b.length] as number;
}

function prefixMatch(actual: readonly string[], reference: readonly string[]): number {
  let n = 0;
  while (n < actual.length && n < reference.length && actual[n] === reference[n]) n++;
  return n;
}

/** Grade one trace. */
export function grade(input: GradeInput): Grade {
  const valid = input.steps.filter((s) => s.valid);
  const invalidCount = input.steps.length - valid.length;
  const actions = valid.map((s) => s.action ?? "");
  const refs = input.referencePaths.filter((p) => p.length > 0);
  const shortest = refs.length > 0 ? Math.min(...refs.map((p) => p.length)) : input.shortestLength;
  const best = refs.reduce<string[]>((b, p) => (b.length === 0 || p.length < b.length ? p : b), []);
  const lcs = lcsLength(actions, best);
  const maxPrefix = Math.max(0, ...refs.map((p) => prefixMatch(actions, p)));
  const shortestGoalDepth = Math.max(
    1,
    Math.min(input.maxGoalDepth, shortest || input.maxGoalDepth),
  );
  const deepest = Math.max(input.initialDepth, ...valid.map((s) => s.toDepth));
  const nodeProgress = Math.min(1, deepest / shortestGoalDepth);
  const prefixProgress = Math.min(1, maxPrefix / Math.max(1, shortest));
  const goal = new Set(input.goalPredicates);
  const final = new Set(input.finalPredicates);
  const predicateProgress =
    goal.size > 0
      ? [...goal].filter((p) => final.has(p)).length / goal.size
      : input.reachedGoal
        ? 1
        : 0;
  const states = [input.initialState, ...valid.map((s) => s.toState)];
  const repeated = states.length - new Set(states).size;
  const validCount = Math.max(1, valid.length);
  const reached = input.reachedGoal;
  const efficiency = reached
    ? valid.length > 0
      ? Math.min(1, shortest / validCount)
      : 0
    : valid.length > 0
      ? Math.min(1, valid.length / Math.max(1, shortest))
      : 0;
  const pathQuality = reached
    ? Math.min(1, Math.max(0, lcs / validCount - repeated / (validCount * 2)))
    : Math.min(1, Math.max(prefixProgress, lcs / Math.max(1, best.length)));
  const invalidPenalty = 0.2 * (1 - Math.exp(-invalidCount / 10));
  const overall = reached
    ? 0.55 + 0.25 * efficiency + 0.2 * pathQuality - invalidPenalty
    : 0.25 * nodeProgress + 0.5 * predicateProgress + 0.25 * pathQuality - invalidPenalty;
  return {
    overall: Math.max(0, Math.min(1, overall)),
    success: reached ? 1 : 0,
    efficiency,
    pathQuality,
    progress: reached ? 1 : Math.max(nodeProgress, prefixProgress, predicateProgress),
    nodeProgress,
    prefixProgress,
    predicateProgress,
    invalidPenalty,
    extraSteps: Math.max(0, input.steps.length - Math.max(1, shortest)),
    redundantActions: Math.max(0, valid.length - lcs, repeated),
  };
}
