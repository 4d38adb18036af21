/**
 * Stage evaluation (§4.1 "Answer evaluation"): action stages by executable state predicates
 * (world atoms on the symbolic state) and constraints over the ordered action log (count,
 * requires-before through ordered units, not-in through forbidden calls); open answers by the
 * episode's deterministic semantic rule. Names in answers are the realization's.
 */
import type { GoalAtom } from "../../world/index.ts";
import type { SymState } from "./sym-state.ts";
import type { AnswerRule, Constraint, LogGoal, LogMatch, Unit } from "./types.ts";

/** One successful skill call in the ordered action log (canonical names). */
export interface LogEntry {
  skill: string;
  robot: string;
  args: Record<string, string>;
  /** Nodes the call acted on: its node arguments and what the robot held. */
  items: string[];
  content?: Record<string, string>;
  /** Stage index when it was dispatched and when it completed. */
  dispatched: number;
  completed: number;
  time: number;
}

/** Does a world atom hold in this state. */
export function atomHolds(s: SymState, a: GoalAtom): boolean {
  switch (a.pred) {
    case "INSIDE":
    case "ON":
      return s.parent(a.object) === a.target && s.rel(a.object) === a.pred;
    case "ATTR":
      return s.attr(a.node, a.attr) === a.value;
    case "PRESSED":
      return s.attr(a.node, "pressed");
    case "OPEN":
      return s.attr(a.node, "open");
    case "CLOSED":
      return !s.attr(a.node, "open");
    case "AT":
      return s.room(a.node) === a.room;
    case "COUNT": {
      let n = 0;
      for (const child of s.children(a.target))
        if (s.rel(child) === a.rel && s.index.category(child) === a.category) n++;
      return a.op === "exactly" ? n === a.n : n >= a.n;
    }
    case "ASSEMBLED":
      return false;
  }
}

/** Does a log entry match. */
export function logMatches(e: LogEntry, m: LogMatch): boolean {
  if (m.skill !== undefined && e.skill !== m.skill) return false;
  if (m.robot !== undefined && e.robot !== m.robot) return false;
  if (m.item !== undefined && !e.items.includes(m.item)) return false;
  if (m.args) for (const [k, v] of Object.entries(m.args)) if (e.args[k] !== v) return false;
  if (m.content)
    for (const [k, v] of Object.entries(m.content)) if (e.content?.[k] !== v) return false;
  return true;
}

/** Does a log goal hold over the calls completed during the stage. */
export function logGoalHolds(g: LogGoal, stageLog: readonly LogEntry[]): boolean {
  let n = 0;
  for (const e of stageLog) if (logMatches(e, g.match)) n++;
  return g.op === "eq" ? n === g.count : n >= g.count;
}

/** Is a unit of work complete. */
export function unitDone(u: Unit, s: SymState, stageLog: readonly LogEntry[]): boolean {
  for (const a of u.atoms) if (!atomHolds(s, a)) return false;
  for (const g of u.logs) if (!logGoalHolds(g, stageLog)) return false;
  return true;
}

/** The first constraint the state or the stage's own calls break, if any. */
export function violated(
  forbid: readonly Constraint[],
  s: SymState,
  dispatchedLog: readonly LogEntry[],
): Constraint | undefined {
  for (const c of forbid) {
    if (c.kind === "atom" && atomHolds(s, c.atom)) return c;
    if (c.kind === "log" && dispatchedLog.some((e) => logMatches(e, c.match))) return c;
  }
  return undefined;
}

/** Ordered units: a later one done while an earlier one is not is out of order. */
export function outOfOrder(done: readonly boolean[]): boolean {
  let open = false;
  for (const d of done) {
    if (!d) open = true;
    else if (open) return true;
  }
  return false;
}

/** Number words from zero to twenty, read in answers and written in instructions. */
export const NUMBER_WORDS = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
  "twenty",
];

/** Lower case, underscores as spaces, single spaces: "red_cube_1" reads "red cube 1". */
export function normalizeText(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/_/g, " ")
    .replace(/[^a-z0-9?]+/g, " ")
    .trim()} `;
}

/** Numbers a text states, in order: digits standing alone and number words up to twenty. */
export function numbersIn(text: string): number[] {
  const out: number[] = [];
  // Digits glued to letters or underscores belong to names (sw2, cube_1), not counts.
  for (const m of text.toLowerCase().matchAll(/[a-z0-9_]+/g)) {
    const token = m[0];
    if (/^\d+$/.test(token)) out.push(Number(token));
    else {
      const k = NUMBER_WORDS.indexOf(token);
      if (k >= 0) out.push(k);
    }
  }
  return out;
}

/** Does the (normalized) text mention a name (normalized the same way). */
export function mentions(normalized: string, name: string): boolean {
  return normalized.includes(normalizeText(name));
}

const NONE_WORDS = [" no ", " none ", " nothing ", " empty ", " zero "];

/**
 * The deterministic semantic rule: a count must be the first number the answer states; a set
 * must be named completely with no other member of its universe; a value must be named without
 * the alternatives; a clarification must ask (a question mark).
 */
export function answerAccepted(rule: AnswerRule, text: string): boolean {
  if (text.trim().length === 0) return false;
  const norm = normalizeText(text);
  switch (rule.kind) {
    case "count": {
      const numbers = numbersIn(text);
      if (numbers.length === 0) return rule.n === 0 && NONE_WORDS.some((w) => norm.includes(w));
      return numbers[0] === rule.n;
    }
    case "set": {
      if (rule.items.length === 0)
        return (
          NONE_WORDS.some((w) => norm.includes(w)) && !rule.universe.some((u) => mentions(norm, u))
        );
      if (!rule.items.every((i) => mentions(norm, i))) return false;
      return !rule.universe.some((u) => !rule.items.includes(u) && mentions(norm, u));
    }
    case "value":
      return mentions(norm, rule.value) && !rule.others.some((o) => mentions(norm, o));
    case "clarify":
      return text.includes("?");
  }
}
