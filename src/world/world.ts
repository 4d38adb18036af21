/**
 * One executable task instance I = (G_0, g, A, O, Λ) (RoboGraph Eq. 7), for any number of
 * robots: actions are checked for their robot (preconditions), applied (effects, Eq. 4) and
 * fire scheduled events (progress triggers after an action; step and time triggers on the
 * clock). `step` does all three at once for lock-step callers; a simulator checks a durative
 * skill when it starts, applies it when it ends and ticks simulated time in between.
 */

import { LonghaulError, parseOrThrow } from "../core/index.ts";
import { applyEffects, checkEffects, checkPreconditions, resolveArgs } from "./actions.ts";
import type { Catalog, CatalogEntry } from "./catalog.ts";
import { applyRewrites, EventRunner, type StepProgress } from "./events.ts";
import { atomHolds, goalHolds, type ResolvedAtom, resolveGoal } from "./goals.ts";
import { ROBOGRAPH_CATALOG } from "./robograph-catalog.ts";
import { WorldState } from "./state.ts";
import {
  type ActionFeedback,
  type EventSchedule,
  type FailureType,
  type FiredEvent,
  Goal,
  type Rewrite,
  type SceneGraph,
  type SceneInput,
  WorldAction,
  type WorldStepResult,
  type WorldView,
} from "./types.ts";
import { projectView } from "./view.ts";

/** How a World is set up beyond its scene, goal and schedule. */
export interface WorldOptions {
  /** The action catalog robots choose from (default: RoboGraph's Table 5). */
  catalog?: Catalog;
}

/** An action that passed its preconditions for its robot; `apply` executes it. */
export interface CheckedAction {
  /** The action as submitted. */
  readonly action: WorldAction;
  /** The acting robot's id. */
  readonly robot: string;
  readonly schema: CatalogEntry;
  /** Argument node numbers and the state version checked against (engine-internal). */
  readonly args: readonly number[];
  readonly version: number;
}

/** The outcome of `check`: the checked action, or typed failure feedback (nothing changed). */
export type CheckResult =
  | { ok: true; checked: CheckedAction }
  | { ok: false; feedback: ActionFeedback; robot: string | null };

/** The outcome of `apply`; pass it to `fire` for the events its progress triggers. */
export interface AppliedAction {
  feedback: ActionFeedback;
  /** A failure-injection (suppress) event that replaced the effect, if one fired. */
  fired: FiredEvent[];
  /** What the effect changed, for `fire`; null when nothing was applied. */
  progress: StepProgress | null;
  terminated: boolean;
}

/** A live rollout of one scene, goal and event schedule. */
export class World {
  private state: WorldState;
  private goalData: Goal;
  private atoms: ResolvedAtom[];
  private events: EventRunner;
  private readonly catalog: Catalog;
  private steps = 0;
  private clock = 0;
  /** Bumped by every change of the latent state, so `apply` knows when to check again. */
  private version = 0;
  private done = false;
  /** Per robot: its last action's feedback. */
  private last: (ActionFeedback | null)[];
  private firedLog: FiredEvent[] = [];
  /** The visibility last computed and for whom: a step reads it twice (seen nodes, the view). */
  private visible: { version: number; robot: number; vis: boolean[] } | undefined;

  /** Validates scene, goal and schedule; bad input throws INVALID_INPUT with its path. */
  constructor(
    scene: SceneInput | WorldState,
    goal: Goal,
    schedule: EventSchedule = [],
    options: WorldOptions = {},
  ) {
    this.state = scene instanceof WorldState ? scene.clone() : WorldState.fromScene(scene);
    this.goalData = parseOrThrow(Goal, goal, "goal");
    this.atoms = resolveGoal(this.state, this.goalData);
    this.events = new EventRunner(schedule);
    this.catalog = options.catalog ?? ROBOGRAPH_CATALOG;
    this.last = this.state.robots.map(() => null);
  }

  /** Agent steps counted so far (`step` counts one; `advance` sets it). */
  get stepCount(): number {
    return this.steps;
  }

  /** Simulated time in seconds, as last given to `advance`/`tick` (0 at the start). */
  get time(): number {
    return this.clock;
  }

  /** True once an action with a `terminate` effect (stop) was applied. */
  get terminated(): boolean {
    return this.done;
  }

  /** Robot ids, in scene order (the first is the default actor). */
  robots(): string[] {
    return this.state.robots.map((r) => this.state.ids[r.node] as string);
  }

  /** The active goal g_t (events may replace or extend it). */
  goal(): Goal {
    return this.goalData;
  }

  /** G_t ⊨ g_t. */
  goalSatisfied(): boolean {
    return goalHolds(this.state, this.atoms);
  }

  /** The active goal's atoms resolved against the latent state (for planners). */
  goalAtoms(): readonly ResolvedAtom[] {
    return this.atoms;
  }

  /** Per-atom satisfaction of the active goal, in goal order. */
  goalProgress(): boolean[] {
    return this.atoms.map((a) => atomHolds(this.state, a));
  }

  /** Events fired so far, in order. */
  fired(): FiredEvent[] {
    return this.firedLog.slice();
  }

  /** The latent graph as data (privileged). */
  latent(): SceneGraph {
    return this.state.toScene();
  }

  /** The compact latent state (privileged, read-only by convention; used by planners). */
  latentState(): WorldState {
    return this.state;
  }

  /** The view graph O(G_t, h_t) of a robot (default the first) with its last action's feedback. */
  view(robot?: string): WorldView {
    const r = this.robotIndex(robot);
    return projectView(this.state, r, this.steps, this.last[r] ?? null, this.visibility(r));
  }

  /** Ids of the nodes a robot (default the first) currently sees. */
  visibleIds(robot?: string): Set<string> {
    const vis = this.visibility(this.robotIndex(robot));
    const out = new Set<string>();
    vis.forEach((v, i) => {
      if (v) out.add(this.state.ids[i] as string);
    });
    return out;
  }

  /** An independent copy (state, goal, event counters, clock, history). */
  clone(): World {
    const w = Object.create(World.prototype) as World;
    Object.assign(w, {
      state: this.state.clone(),
      goalData: this.goalData,
      atoms: this.atoms,
      events: this.events.clone(),
      catalog: this.catalog,
      steps: this.steps,
      clock: this.clock,
      version: this.version,
      done: this.done,
      last: this.last.slice(),
      firedLog: this.firedLog.slice(),
      visible: this.visible,
    });
    return w;
  }

  /**
   * Execute one action in lock step (Eq. 4): count a step, check, apply, fire its events and
   * any step trigger now due. Invalid or failed actions leave G_t unchanged and come back as
   * typed feedback; never throws on agent input.
   */
  step(input: unknown): WorldStepResult {
    this.advance({ step: this.steps + 1 });
    const checked = this.check(input);
    if (!checked.ok) {
      this.recordRejection(checked);
      return { feedback: checked.feedback, fired: [], terminated: this.done };
    }
    const applied = this.apply(checked.checked);
    let fired = applied.fired;
    const after = this.fire(applied);
    if (after.length > 0) fired = fired.concat(after);
    const due = this.fireDue();
    if (due.length > 0) fired = fired.concat(due);
    return { feedback: applied.feedback, fired, terminated: this.done };
  }

  /**
   * Check an action for its robot (`action.robot`, default the first robot) without changing
   * anything: the action must be in the catalog and the robot's skill set, take the right
   * number of arguments, and meet its preconditions on the current latent state.
   */
  check(input: unknown): CheckResult {
    const parsed = WorldAction.safeParse(input);
    const known = parsed.success ? this.catalog.get(parsed.data.name) : undefined;
    if (!parsed.success || !known || parsed.data.args.length > this.catalog.maxArity)
      return this.reject(this.echo(input), null, "invalid_action", "not a valid catalog action");
    const action = parsed.data;
    const r = action.robot === undefined ? 0 : this.state.robotIndex(this.index(action.robot));
    if (r < 0) return this.reject(action, null, "invalid_action", `unknown robot ${action.robot}`);
    const robot = this.state.ids[this.state.robotNode(r)] as string;
    if (this.state.robots[r]?.skills?.has(action.name) === false)
      return this.reject(action, robot, "not_available", `${robot} cannot ${action.name}`);
    const resolved = resolveArgs(this.state, known, action);
    if ("type" in resolved) return this.reject(action, robot, resolved.type, resolved.message);
    const failure =
      checkPreconditions(this.state, known, resolved.args, action.args, r) ??
      checkEffects(this.state, known, resolved.args, action.args, r);
    if (failure) return this.reject(action, robot, failure.type, failure.message);
    return {
      ok: true,
      checked: { action, robot, schema: known, args: resolved.args, version: this.version },
    };
  }

  /**
   * Record a rejected check as its robot's last action (the first robot's when the robot is
   * unknown), as `step` does, so that robot's view shows the failure.
   */
  recordRejection(rejected: Extract<CheckResult, { ok: false }>): void {
    this.last[this.robotIndex(rejected.robot ?? undefined)] = rejected.feedback;
  }

  /**
   * Apply a checked action's effects. When the state changed since the check (another robot
   * acted, an event fired) its preconditions are checked again first; a failure leaves G_t
   * unchanged. A failure-injection event may replace the effect (injected_failure, G_t
   * unchanged). Records the robot's last feedback.
   */
  apply(checked: CheckedAction): AppliedAction {
    const { action, schema, args } = checked;
    const r = this.robotIndex(checked.robot);
    const failure =
      checked.version === this.version
        ? null
        : (checkPreconditions(this.state, schema, args, action.args, r) ??
          checkEffects(this.state, schema, args, action.args, r));
    if (failure) return this.applied(r, action, failure.type, failure.message, [], null);
    const progress: StepProgress = {
      step: this.steps,
      time: this.clock,
      action,
      robot: checked.robot,
      attrChanges: [],
      newlyFull: [],
      newlySatisfied: [],
    };
    if (schema.failureInjectable) {
      const suppressed = this.events.takeSuppression(progress);
      if (suppressed) {
        const fired = this.logFired(suppressed.event.id, suppressed.bindings);
        return this.applied(
          r,
          action,
          "injected_failure",
          `${action.name} failed during execution`,
          [fired],
          null,
        );
      }
    }
    const before = this.events.needsProgress() ? this.snapshotProgress() : null;
    applyEffects(this.state, schema, args, r);
    this.version++;
    if (schema.terminates) this.done = true;
    if (before) this.diffProgress(before, progress);
    return this.applied(r, action, null, `${action.name} succeeded`, [], progress);
  }

  /** Fire the after-action events an applied action's progress triggers, in schedule order. */
  fire(applied: AppliedAction): FiredEvent[] {
    if (!applied.progress) return [];
    const out: FiredEvent[] = [];
    for (const { index, match } of this.events.matches(applied.progress)) {
      const fired = this.rewrite(match.event.rewrites, match.bindings);
      if (!fired) continue;
      this.events.record(index, applied.progress.action.name);
      out.push(this.logFired(match.event.id, match.bindings, undefined, match.event.message));
    }
    return out;
  }

  /**
   * Move the clock forward (steps counted, simulated seconds) without firing anything; guards
   * (minStep, minTime) and fired-event stamps read it. Going backwards is an error.
   */
  advance(clock: { step?: number; time?: number }): void {
    if ((clock.step ?? this.steps) < this.steps || (clock.time ?? this.clock) < this.clock)
      throw new LonghaulError("INVALID_INPUT", "the world clock only moves forward");
    this.steps = clock.step ?? this.steps;
    this.clock = clock.time ?? this.clock;
  }

  /**
   * Fire the step and time triggers now due (step triggers in schedule order, then time
   * triggers by due time); one whose rewrites do not apply stays pending.
   */
  fireDue(): FiredEvent[] {
    const out: FiredEvent[] = [];
    for (const { index, at, event } of this.events.due(this.steps, this.clock)) {
      if (!this.rewrite(event.rewrites, {})) continue;
      this.events.record(index, "");
      const time = event.trigger.on === "time" ? at : undefined;
      out.push(this.logFired(event.id, {}, time, event.message));
    }
    return out;
  }

  /** `advance` the clock, then `fireDue`. */
  tick(clock: { step?: number; time?: number }): FiredEvent[] {
    this.advance(clock);
    return this.fireDue();
  }

  /** When the next time trigger is due (simulated seconds), or null if none is pending. */
  nextEventTime(): number | null {
    return this.events.nextTime();
  }

  /**
   * An external change applied now, outside any action or schedule (a simulator's entry
   * transition: a delivery arrives, dishes get dirty): the rewrites apply atomically, or not at
   * all (false) when one is invalid. Running skills are re-checked when they apply.
   */
  external(rewrites: readonly Rewrite[]): boolean {
    return this.rewrite(rewrites, {});
  }

  /** Apply an event's rewrites atomically; false (nothing changed) when one is invalid. */
  private rewrite(rewrites: WorldEventRewrites, bindings: Record<string, string>): boolean {
    const result = applyRewrites(this.state, this.goalData, rewrites, bindings);
    if (typeof result === "string") return false;
    this.state = result.state;
    this.goalData = result.goal;
    this.atoms = result.atoms;
    this.version++;
    return true;
  }

  /** Robot `r`'s visibility on the current state, computed once per state version. */
  private visibility(r: number): boolean[] {
    const memo = this.visible;
    if (memo && memo.version === this.version && memo.robot === r) return memo.vis;
    const vis = this.state.visibility(r);
    this.visible = { version: this.version, robot: r, vis };
    return vis;
  }

  private robotIndex(robot: string | undefined): number {
    if (robot === undefined) return 0;
    const r = this.state.robotIndex(this.index(robot));
    if (r < 0) throw new LonghaulError("INVALID_INPUT", `unknown robot ${robot}`);
    return r;
  }

  private index(id: string): number {
    return this.state.index.get(id) ?? -1;
  }

  /** How input that is no catalog action is reported: the catalog's idle action name. */
  private echo(input: unknown): WorldAction {
    const raw = (input ?? {}) as { name?: unknown; args?: unknown; robot?: unknown };
    const name =
      typeof raw.name === "string" && this.catalog.get(raw.name) ? raw.name : this.catalog.idle;
    const action: WorldAction = {
      name: name ?? String(raw.name ?? ""),
      args: Array.isArray(raw.args)
        ? raw.args.filter((a): a is string => typeof a === "string").slice(0, this.catalog.maxArity)
        : [],
    };
    if (typeof raw.robot === "string") action.robot = raw.robot;
    return action;
  }

  private reject(
    action: WorldAction,
    robot: string | null,
    type: FailureType,
    message: string,
  ): CheckResult {
    return {
      ok: false,
      robot,
      feedback: { action, status: "failure", failure_type: type, message },
    };
  }

  private applied(
    r: number,
    action: WorldAction,
    failure: FailureType | null,
    message: string,
    fired: FiredEvent[],
    progress: StepProgress | null,
  ): AppliedAction {
    const feedback: ActionFeedback = {
      action,
      status: failure ? "failure" : "success",
      failure_type: failure,
      message,
    };
    this.last[r] = feedback;
    return { feedback, fired, progress, terminated: this.done };
  }

  private logFired(
    id: string,
    bindings: Record<string, string>,
    time?: number,
    message?: string,
  ): FiredEvent {
    const fired: FiredEvent = { id, step: this.steps, bindings };
    if (time !== undefined) fired.time = time;
    if (message !== undefined) fired.message = message;
    this.firedLog.push(fired);
    return fired;
  }

  private snapshotProgress() {
    const s = this.state;
    const full: boolean[] = s.ids.map(
      (_, i) => s.info[i]?.node.capacity !== undefined && s.isFull(i),
    );
    return { val: s.val.slice(), full, holds: this.atoms.map((a) => atomHolds(s, a)) };
  }

  private diffProgress(
    before: ReturnType<World["snapshotProgress"]>,
    progress: StepProgress,
  ): void {
    const s = this.state;
    for (let i = 0; i < before.val.length; i++) {
      const diff = (before.val[i] ?? 0) ^ (s.val[i] ?? 0);
      if (diff)
        for (const [attr, bit] of s.attrBits)
          if (diff & bit)
            progress.attrChanges.push({ node: s.ids[i] as string, attr, value: s.attr(i, attr) });
      if (!before.full[i] && s.info[i]?.node.capacity !== undefined && s.isFull(i))
        progress.newlyFull.push(s.ids[i] as string);
    }
    this.atoms.forEach((a, k) => {
      if (!before.holds[k] && atomHolds(s, a)) progress.newlySatisfied.push(a.atom);
    });
  }
}

type WorldEventRewrites = Parameters<typeof applyRewrites>[2];
