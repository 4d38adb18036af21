/**
 * Event schedules Λ = {⟨ψ, δ, κ⟩} (RoboGraph Eq. 10/12): triggers on semantic progress or on
 * the clock (steps, simulated time), graph rewrites with trigger bindings, timing and firing
 * limits. An event's rewrites apply atomically to a copy; if any is invalid in the current
 * state the event does not fire (a due clock event is tried again at the next firing point).
 */
import { LonghaulError, parseOrThrow } from "../core/index.ts";
import { type ResolvedAtom, resolveGoal } from "./goals.ts";
import { Loc, type WorldState } from "./state.ts";
import {
  type AttrName,
  EventSchedule,
  type Goal,
  type GoalAtom,
  type Rewrite,
  type WorldAction,
  type WorldEvent,
} from "./types.ts";

/** What changed in one successful action, for matching triggers. */
export interface StepProgress {
  step: number;
  time: number;
  action: WorldAction;
  /** The acting robot's id. */
  robot: string;
  attrChanges: { node: string; attr: AttrName; value: boolean }[];
  newlyFull: string[];
  newlySatisfied: GoalAtom[];
}

/** A trigger match with its bindings. */
export interface EventMatch {
  event: WorldEvent;
  bindings: Record<string, string>;
}

/** Tracks firing limits for one rollout and matches triggers against progress. */
export class EventRunner {
  readonly events: WorldEvent[];
  private fires: number[];
  private actionsFired: Set<string>[];
  /** The schedule has step or time triggers. */
  private clocked: boolean;

  /** Validate a schedule (INVALID_INPUT with the path of what is wrong). */
  constructor(schedule: unknown) {
    this.events = parseOrThrow(EventSchedule, schedule, "event schedule");
    this.events.forEach((e, i) => {
      if (e.timing === "suppress" && e.trigger.on !== "action_success")
        throw new LonghaulError(
          "INVALID_INPUT",
          "suppress timing needs an action_success trigger",
          `event schedule: [${i}].timing`,
        );
      if (isClock(e) && (e.maxFires !== 1 || e.oncePerAction))
        throw new LonghaulError(
          "INVALID_INPUT",
          "step and time triggers fire once (maxFires 1, oncePerAction false)",
          `event schedule: [${i}].maxFires`,
        );
    });
    this.fires = this.events.map(() => 0);
    this.actionsFired = this.events.map(() => new Set());
    this.clocked = this.events.some(isClock);
  }

  /** A copy with the same schedule and firing counts. */
  clone(): EventRunner {
    const out = Object.create(EventRunner.prototype) as EventRunner;
    Object.assign(out, {
      events: this.events,
      clocked: this.clocked,
      fires: this.fires.slice(),
      actionsFired: this.actionsFired.map((s) => new Set(s)),
    });
    return out;
  }

  /** Whether any pending event needs goal-progress or attribute tracking. */
  needsProgress(): boolean {
    return this.events.some(
      (e, i) =>
        e.timing === "after_action" &&
        this.available(i) &&
        e.trigger.on !== "action_success" &&
        !isClock(e),
    );
  }

  private available(i: number): boolean {
    const e = this.events[i] as WorldEvent;
    return (this.fires[i] ?? 0) < e.maxFires;
  }

  /** The first failure-injection event matching an otherwise successful action, consumed. */
  takeSuppression(progress: StepProgress): EventMatch | null {
    const { action } = progress;
    for (let i = 0; i < this.events.length; i++) {
      const e = this.events[i] as WorldEvent;
      if (e.timing !== "suppress" || !this.available(i)) continue;
      const match = matchAction(e, progress);
      if (!match) continue;
      if (e.oncePerAction && this.actionsFired[i]?.has(action.name)) continue;
      this.record(i, action.name);
      return { event: e, bindings: match };
    }
    return null;
  }

  /** Every after-action event whose trigger matches this step's progress, in schedule order. */
  matches(progress: StepProgress): { index: number; match: EventMatch }[] {
    const out: { index: number; match: EventMatch }[] = [];
    this.events.forEach((e, i) => {
      if (e.timing !== "after_action" || !this.available(i) || isClock(e)) return;
      if (e.oncePerAction && this.actionsFired[i]?.has(progress.action.name)) return;
      const bindings = matchProgress(e, progress);
      if (bindings) out.push({ index: i, match: { event: e, bindings } });
    });
    return out;
  }

  /**
   * Pending clock events due at this step count and time: step triggers in schedule order, then
   * time triggers by due time (ties in schedule order).
   */
  due(step: number, time: number): { index: number; at: number; event: WorldEvent }[] {
    if (!this.clocked) return [];
    const out: { index: number; at: number; event: WorldEvent; time: boolean }[] = [];
    this.events.forEach((e, i) => {
      const t = e.trigger;
      if (!this.available(i)) return;
      if (t.on === "step" && t.at <= step) out.push({ index: i, at: t.at, event: e, time: false });
      if (t.on === "time" && t.at <= time) out.push({ index: i, at: t.at, event: e, time: true });
    });
    return out
      .sort(
        (a, b) =>
          Number(a.time) - Number(b.time) || (a.time ? a.at - b.at : 0) || a.index - b.index,
      )
      .map(({ index, at, event }) => ({ index, at, event }));
  }

  /** The earliest due time of a pending time trigger, or null. */
  nextTime(): number | null {
    let best: number | null = null;
    this.events.forEach((e, i) => {
      if (e.trigger.on === "time" && this.available(i) && (best === null || e.trigger.at < best))
        best = e.trigger.at;
    });
    return best;
  }

  /** Count a firing. */
  record(index: number, actionName: string): void {
    this.fires[index] = (this.fires[index] ?? 0) + 1;
    this.actionsFired[index]?.add(actionName);
  }
}

/** Step and time triggers fire on the clock, not on an action's progress. */
function isClock(e: WorldEvent): boolean {
  return e.trigger.on === "step" || e.trigger.on === "time";
}

function guardsOk(
  trigger: { minStep?: number | undefined; minTime?: number | undefined },
  p: { step: number; time: number },
): boolean {
  return (
    (trigger.minStep === undefined || p.step >= trigger.minStep) &&
    (trigger.minTime === undefined || p.time >= trigger.minTime)
  );
}

/** Bindings: `$object`/`$target` (the action's args), `$robot` when the action names its robot. */
function matchAction(
  e: WorldEvent,
  p: Pick<StepProgress, "step" | "time" | "action" | "robot">,
): Record<string, string> | null {
  const t = e.trigger;
  const { action } = p;
  if (t.on !== "action_success" || !guardsOk(t, p)) return null;
  if (t.action !== undefined && t.action !== action.name) return null;
  if (t.node !== undefined && !action.args.includes(t.node)) return null;
  if (t.robot !== undefined && t.robot !== p.robot) return null;
  const bindings: Record<string, string> = {};
  if (action.args[0] !== undefined) bindings.$object = action.args[0];
  if (action.args[1] !== undefined) bindings.$target = action.args[1];
  if (action.robot !== undefined) bindings.$robot = action.robot;
  return bindings;
}

function atomBindings(atom: GoalAtom): Record<string, string> {
  switch (atom.pred) {
    case "ON":
    case "INSIDE":
      return { $object: atom.object, $target: atom.target };
    case "ASSEMBLED":
      return { $object: atom.part, $target: atom.target };
    case "COUNT":
      return { $target: atom.target };
    default:
      return { $node: atom.node };
  }
}

function sameAtom(a: GoalAtom, b: GoalAtom): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function matchProgress(e: WorldEvent, p: StepProgress): Record<string, string> | null {
  const t = e.trigger;
  if (t.on === "step" || t.on === "time" || !guardsOk(t, p)) return null;
  switch (t.on) {
    case "action_success":
      return matchAction(e, p);
    case "goal_fact": {
      const want = t.fact;
      const atom = p.newlySatisfied.find((a) =>
        want
          ? sameAtom(a, want)
          : t.pred
            ? a.pred === t.pred
            : a.pred === "ON" || a.pred === "INSIDE",
      );
      return atom ? atomBindings(atom) : null;
    }
    case "attr_reached": {
      const change = p.attrChanges.find(
        (c) =>
          c.attr === t.attr && c.value === t.value && (t.node === undefined || c.node === t.node),
      );
      return change ? { $node: change.node } : null;
    }
    case "full": {
      const node = p.newlyFull.find((n) => t.node === undefined || n === t.node);
      return node ? { $node: node } : null;
    }
  }
}

/** Apply an event's rewrites to a copy of the state and goal; a problem string if invalid. */
export function applyRewrites(
  state: WorldState,
  goal: Goal,
  rewrites: readonly Rewrite[],
  bindings: Record<string, string>,
): { state: WorldState; goal: Goal; atoms: ResolvedAtom[] } | string {
  const s = state.clone();
  let g: Goal = { all: goal.all.slice() };
  const ref = (r: string): number => {
    const id = r.startsWith("$") ? bindings[r] : r;
    return id === undefined ? -1 : (s.index.get(id) ?? -1);
  };
  for (const rw of rewrites) {
    let problem: string | null = null;
    switch (rw.op) {
      case "add_node":
        if (s.index.has(rw.node.id)) problem = `node ${rw.node.id} exists`;
        else s.addNode(rw.node);
        break;
      case "remove_node": {
        const i = ref(rw.node);
        if (i < 0) problem = `unknown node ${rw.node}`;
        else if (s.robotIndex(i) >= 0) problem = "robots cannot be removed";
        else problem = removeNode(s, i);
        break;
      }
      case "add_edge": {
        const from = ref(rw.from);
        const to = ref(rw.to);
        problem = from < 0 || to < 0 ? "unknown edge endpoint" : s.addEdge(from, to, rw.rel);
        break;
      }
      case "remove_edge": {
        const from = ref(rw.from);
        const to = ref(rw.to);
        if (rw.rel === "OCCLUDES")
          s.occludes = s.occludes.filter(([b, t]) => b !== from || t !== to);
        else if (rw.rel === "ADJACENT")
          s.adjacent = s.adjacent.filter(
            ([a, b]) => !((a === from && b === to) || (a === to && b === from)),
          );
        else problem = `remove_edge cannot remove a ${rw.rel} location; use relocate`;
        break;
      }
      case "set_attr": {
        const i = ref(rw.node);
        if (i < 0) problem = `unknown node ${rw.node}`;
        else s.setAttr(i, rw.attr, rw.value);
        break;
      }
      case "relocate": {
        const i = ref(rw.node);
        const target = ref(rw.target);
        if (i < 0 || target < 0) problem = "unknown relocate node or target";
        else if (s.robotIndex(i) >= 0) problem = "robots move by their own actions";
        else problem = s.place(i, rw.rel === "ON" ? Loc.On : Loc.Inside, target);
        break;
      }
      case "replace_goal":
        g = { all: rw.goal.all.slice() };
        break;
      case "extend_goal":
        g = { all: [...g.all, ...rw.atoms] };
        break;
    }
    if (problem) return problem;
  }
  for (let i = 0; i < s.ids.length; i++)
    if (s.alive[i] && s.info[i]?.node.type !== "room" && s.rel[i] === Loc.None)
      return `node ${s.ids[i]} left without a location`;
  try {
    return { state: s, goal: g, atoms: resolveGoal(s, g) };
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Remove a node: out of hands and edges; its children move to its own location. */
function removeNode(s: WorldState, i: number): string | null {
  for (let j = 0; j < s.parent.length; j++)
    if (s.parent[j] === i) {
      s.parent[j] = s.parent[i] ?? -1;
      s.rel[j] =
        s.rel[i] === Loc.Held || s.rel[i] === undefined ? Loc.None : (s.rel[j] ?? Loc.None);
    }
  s.unplace(i);
  s.alive[i] = false;
  s.occludes = s.occludes.filter(([b, t]) => b !== i && t !== i);
  s.unshareIds();
  s.index.delete(s.ids[i] as string);
  return null;
}
