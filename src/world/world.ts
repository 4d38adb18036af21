/**
 * One executable task instance I = (G_0, g, A, O, Λ) (RoboGraph Eq. 7): steps agent actions
 * against the latent graph (Eq. 4), fires scheduled events and projects the view (Eq. 2).
 */

import { parseOrThrow } from "../core/index.ts";
import { applyEffects, checkPreconditions, resolveArgs } from "./actions.ts";
import { ACTION_CATALOG } from "./catalog.ts";
import { applyRewrites, EventRunner, type StepProgress } from "./events.ts";
import { atomHolds, goalHolds, type ResolvedAtom, resolveGoal } from "./goals.ts";
import { WorldState } from "./state.ts";
import {
  type ActionFeedback,
  type AttrName,
  type EventSchedule,
  type FiredEvent,
  Goal,
  type SceneGraph,
  WorldAction,
  type WorldStepResult,
  type WorldView,
} from "./types.ts";
import { projectView } from "./view.ts";

const ATTR_NAMES: AttrName[] = ["open", "pressed", "assembled", "moved_aside"];

/** A live rollout of one scene, goal and event schedule. */
export class World {
  private state: WorldState;
  private goalData: Goal;
  private atoms: ResolvedAtom[];
  private events: EventRunner;
  private steps = 0;
  private done = false;
  private last: ActionFeedback | null = null;
  private firedLog: FiredEvent[] = [];

  /** Validates scene, goal and schedule; bad input throws INVALID_INPUT with its path. */
  constructor(scene: SceneGraph | WorldState, goal: Goal, schedule: EventSchedule = []) {
    this.state = scene instanceof WorldState ? scene.clone() : WorldState.fromScene(scene);
    this.goalData = parseOrThrow(Goal, goal, "goal");
    this.atoms = resolveGoal(this.state, this.goalData);
    this.events = new EventRunner(schedule);
  }

  /** Agent steps taken so far. */
  get stepCount(): number {
    return this.steps;
  }

  /** True once `stop` was executed. */
  get terminated(): boolean {
    return this.done;
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

  /** The view graph O(G_t, h_t) with the last action's feedback. */
  view(): WorldView {
    return projectView(this.state, this.steps, this.last);
  }

  /** Ids of the nodes currently visible to the agent. */
  visibleIds(): Set<string> {
    const vis = this.state.visibility();
    const out = new Set<string>();
    vis.forEach((v, i) => {
      if (v) out.add(this.state.ids[i] as string);
    });
    return out;
  }

  /** An independent copy (state, goal, event counters, history). */
  clone(): World {
    const w = Object.create(World.prototype) as World;
    Object.assign(w, {
      state: this.state.clone(),
      goalData: this.goalData,
      atoms: this.atoms,
      events: this.events.clone(),
      steps: this.steps,
      done: this.done,
      last: this.last,
      firedLog: this.firedLog.slice(),
    });
    return w;
  }

  /**
   * Execute one action (Eq. 4). Invalid or failed actions leave G_t unchanged and come back
   * as typed feedback; never throws on agent input.
   */
  step(input: unknown): WorldStepResult {
    const parsed = WorldAction.safeParse(input);
    this.steps++;
    if (!parsed.success) {
      const raw = (input ?? {}) as { name?: unknown; args?: unknown };
      const action: WorldAction = {
        name: ACTION_CATALOG[raw.name as WorldAction["name"]]
          ? (raw.name as WorldAction["name"])
          : "observe",
        args: Array.isArray(raw.args)
          ? raw.args.filter((a): a is string => typeof a === "string").slice(0, 2)
          : [],
      };
      return this.finish(action, "invalid_action", "not a valid catalog action", []);
    }
    const action = parsed.data;
    const resolved = resolveArgs(this.state, action);
    if ("type" in resolved) return this.finish(action, resolved.type, resolved.message, []);
    const failure = checkPreconditions(this.state, resolved.schema, resolved.args, action.args);
    if (failure) return this.finish(action, failure.type, failure.message, []);
    if (resolved.schema.failureInjectable) {
      const suppressed = this.events.takeSuppression(action, this.steps);
      if (suppressed) {
        const fired = this.logFired(suppressed.event.id, suppressed.bindings);
        return this.finish(action, "injected_failure", `${action.name} failed during execution`, [
          fired,
        ]);
      }
    }
    const tracking = this.events.needsProgress();
    const before = tracking ? this.snapshotProgress() : null;
    applyEffects(this.state, resolved.schema, resolved.args);
    if (action.name === "stop") this.done = true;
    const fired = before ? this.fireEvents(action, before) : this.fireActionEvents(action);
    return this.finish(action, null, `${action.name} succeeded`, fired);
  }

  private finish(
    action: WorldAction,
    failure: ActionFeedback["failure_type"],
    message: string,
    fired: FiredEvent[],
  ): WorldStepResult {
    this.last = { action, status: failure ? "failure" : "success", failure_type: failure, message };
    return { feedback: this.last, fired, terminated: this.done };
  }

  private logFired(id: string, bindings: Record<string, string>): FiredEvent {
    const fired = { id, step: this.steps, bindings };
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

  private fireActionEvents(action: WorldAction): FiredEvent[] {
    return this.runMatches({
      step: this.steps,
      action,
      attrChanges: [],
      newlyFull: [],
      newlySatisfied: [],
    });
  }

  private fireEvents(
    action: WorldAction,
    before: ReturnType<World["snapshotProgress"]>,
  ): FiredEvent[] {
    const s = this.state;
    const progress: StepProgress = {
      step: this.steps,
      action,
      attrChanges: [],
      newlyFull: [],
      newlySatisfied: [],
    };
    for (let i = 0; i < before.val.length; i++) {
      const diff = (before.val[i] ?? 0) ^ (s.val[i] ?? 0);
      if (diff)
        for (const attr of ATTR_NAMES)
          if (diff & (1 << ATTR_NAMES.indexOf(attr)))
            progress.attrChanges.push({ node: s.ids[i] as string, attr, value: s.attr(i, attr) });
      if (!before.full[i] && s.info[i]?.node.capacity !== undefined && s.isFull(i))
        progress.newlyFull.push(s.ids[i] as string);
    }
    this.atoms.forEach((a, k) => {
      if (!before.holds[k] && atomHolds(s, a)) progress.newlySatisfied.push(a.atom);
    });
    return this.runMatches(progress);
  }

  private runMatches(progress: StepProgress): FiredEvent[] {
    const out: FiredEvent[] = [];
    for (const { index, match } of this.events.matches(progress)) {
      const result = applyRewrites(this.state, this.goalData, match.event.rewrites, match.bindings);
      if (typeof result === "string") continue;
      this.state = result.state;
      this.goalData = result.goal;
      this.atoms = result.atoms;
      this.events.record(index, progress.action.name);
      out.push(this.logFired(match.event.id, match.bindings));
    }
    return out;
  }
}
