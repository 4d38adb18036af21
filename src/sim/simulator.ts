/**
 * The discrete-event executor behind MAGMA (seed 000, §3.1): robots run durative skills
 * asynchronously on a shared world while the agent decides on event batches. A skill's
 * preconditions are checked when it starts (World.check, plus an optional suite guard) and its
 * effects applied when it ends (World.apply, which re-checks if the world changed meanwhile);
 * its duration is drawn from a seeded stream around a skill-specific nominal time. One skill
 * per robot: `cancel` is the only call a busy robot accepts, and it stops the skill with the
 * world unchanged. Events (skill reports, rejected calls, user messages, world time triggers)
 * are ordered by (simulated time, insertion id); the events due at the same time form one
 * batch. Simulated time moves only in `nextBatch`: it stands still while the agent thinks.
 */
import type { Rng } from "../core/index.ts";
import type { CheckedAction, FiredEvent, World, WorldAction } from "../world/index.ts";
import { EventQueue } from "./event-queue.ts";

/** One skill call addressed to a robot, grounded in a world action. */
export interface SkillCall<D = unknown> {
  robot: string;
  /** The skill's name as the agent called it (reported back in events). */
  skill: string;
  /** The world action that executes it. */
  action: WorldAction;
  /** Suite data carried into hooks and events (the agent's call, the stage it belongs to). */
  data?: D;
}

/** A skill in progress on a robot. */
export interface Running<D = unknown> {
  readonly call: SkillCall<D>;
  readonly checked: CheckedAction;
  readonly start: number;
  readonly end: number;
  /** The queue entry of its completion (cancel removes it). */
  readonly entry: number;
}

/** Why a call was refused at once. */
export type RejectReason =
  | "unknown_robot"
  | "busy"
  | "lacks_skill"
  | "bad_arguments"
  | "precondition"
  | "not_running"
  | "conflict";

/** What the simulator reports; `time` is simulated seconds. */
export type SimEvent<D = unknown> =
  | {
      kind: "skill";
      time: number;
      robot: string;
      skill: string;
      call: SkillCall<D>;
      status: "succeeded" | "failed" | "cancelled";
      message: string;
      /** Structured result of a successful skill (e.g. what a perception skill saw). */
      content?: unknown;
      /** True when a frozen fault made it fail. */
      injected?: boolean;
      started: number;
    }
  | {
      kind: "rejected";
      time: number;
      robot: string;
      skill: string;
      reason: RejectReason;
      message: string;
      data?: D;
    }
  | { kind: "user"; time: number; text: string; data?: unknown }
  | { kind: "world"; time: number; fired: FiredEvent };

/** A frozen execution fault: the skill fails (world unchanged), or perception misses nodes. */
export type Fault = { kind: "fail"; message: string } | { kind: "mask"; hidden: string[] };

/** Suite hooks: extra preconditions, faults and success reports. */
export interface SimHooks<D> {
  /** A precondition the catalog cannot express, checked at start and again at the end. */
  guard?(call: SkillCall<D>, world: World): string | null;
  /** The fault, if any, that hits this completing skill. */
  fault?(running: Running<D>, world: World): Fault | null;
  /** The report of a skill that succeeded (after its effects). */
  report?(
    running: Running<D>,
    world: World,
    fault: Fault | null,
  ): { message: string; content?: unknown };
}

/** Duration model: nominal seconds per skill, jittered by ±jitter, rounded to `resolution`. */
export interface DurationModel {
  nominal: Readonly<Record<string, number>>;
  /** Nominal seconds of a skill not listed. */
  fallback: number;
  /** Relative half-width of the uniform jitter (0.2 = ±20%). */
  jitter: number;
  /** Durations are multiples of this (so some completions coincide and batch). */
  resolution: number;
}

/** Default: 1 s per unlisted skill, ±20%, 0.5 s steps. */
export const DEFAULT_DURATIONS: DurationModel = {
  nominal: {},
  fallback: 1,
  jitter: 0.2,
  resolution: 0.5,
};

type Entry<D> = { end: string } | SimEvent<D>;

/** A discrete-event simulation of robots running skills on one world. */
export class Simulator<D = unknown> {
  private clock = 0;
  private readonly queue = new EventQueue<Entry<D>>();
  private readonly running = new Map<string, Running<D>>();
  private readonly robotIds: ReadonlySet<string>;

  constructor(
    readonly world: World,
    private readonly rng: Rng,
    private readonly durations: DurationModel = DEFAULT_DURATIONS,
    private readonly hooks: SimHooks<D> = {},
  ) {
    this.robotIds = new Set(world.robots());
  }

  /** Simulated seconds. */
  get time(): number {
    return this.clock;
  }

  /** The skill a robot is running, if any. */
  busy(robot: string): Running<D> | undefined {
    return this.running.get(robot);
  }

  /** Every running skill, by robot in scene order. */
  runningSkills(): Running<D>[] {
    return this.world
      .robots()
      .map((r) => this.running.get(r))
      .filter((r): r is Running<D> => r !== undefined);
  }

  /** Nothing runs and nothing is scheduled: waiting would never produce an event. */
  idle(): boolean {
    return this.queue.size === 0;
  }

  /** Events already due now (answers to the last decision) are waiting. */
  pendingNow(): boolean {
    return this.queue.peek()?.time === this.clock;
  }

  /**
   * Start a skill now. A busy robot, an unknown robot, a skill it lacks, or unmet
   * preconditions give a `rejected` event at the current time; the world is unchanged.
   */
  dispatch(call: SkillCall<D>): Running<D> | null {
    const { robot, skill } = call;
    if (!this.robotIds.has(robot)) {
      this.reject(call, "unknown_robot", `there is no robot named ${robot}`);
      return null;
    }
    const current = this.running.get(robot);
    if (current) {
      this.reject(
        call,
        "busy",
        `${robot} is running ${current.call.skill}; cancel it first or wait until it ends`,
      );
      return null;
    }
    const checked = this.world.check({ ...call.action, robot });
    if (!checked.ok) {
      const { failure_type: type, message } = checked.feedback;
      const reason: RejectReason =
        type === "invalid_action"
          ? "bad_arguments"
          : type === "not_available" && message.startsWith(`${robot} cannot `)
            ? "lacks_skill"
            : "precondition";
      this.reject(call, reason, message);
      return null;
    }
    const guard = this.hooks.guard?.(call, this.world) ?? null;
    if (guard) {
      this.reject(call, "precondition", guard);
      return null;
    }
    const end = this.clock + this.drawDuration(skill);
    const entry = this.queue.push(end, { end: robot });
    const running: Running<D> = {
      call,
      checked: checked.checked,
      start: this.clock,
      end,
      entry: entry.id,
    };
    this.running.set(robot, running);
    return running;
  }

  /** Stop a robot's skill now: its effects never apply; a `cancelled` report follows at once. */
  cancel(robot: string, skill: string, data?: D): boolean {
    const running = this.running.get(robot);
    if (!running) {
      const reason = this.robotIds.has(robot) ? "not_running" : "unknown_robot";
      const message = this.robotIds.has(robot)
        ? "No action is currently running on this robot."
        : `there is no robot named ${robot}`;
      this.push({ kind: "rejected", time: this.clock, robot, skill, reason, message, data });
      return false;
    }
    this.queue.remove(running.entry);
    this.running.delete(robot);
    this.push({
      kind: "skill",
      time: this.clock,
      robot,
      skill: running.call.skill,
      call: running.call,
      status: "cancelled",
      message: `${running.call.skill} was cancelled.`,
      started: running.start,
    });
    return true;
  }

  /** Refuse a call now (e.g. malformed arguments the suite caught before grounding). */
  reject(call: SkillCall<D>, reason: RejectReason, message: string): void {
    this.push({
      kind: "rejected",
      time: this.clock,
      robot: call.robot,
      skill: call.skill,
      reason,
      message,
      data: call.data,
    });
  }

  /** The user channel: a message delivered at `at` (default now), after what is already due then. */
  post(text: string, data?: unknown, at = this.clock): void {
    if (at < this.clock)
      throw new RangeError(`cannot post a message in the past (${at} < ${this.clock})`);
    this.push({ kind: "user", time: at, text, data });
  }

  /**
   * Advance to the earliest due event and return every event due at that time, in (time, id)
   * order; skill completions apply their effects as they are taken. `onEvent` sees each event
   * as it is taken and may post more events at the same time, which join the batch. Null when
   * nothing is scheduled.
   */
  nextBatch(onEvent?: (event: SimEvent<D>) => void): SimEvent<D>[] | null {
    const top = this.queue.peek();
    if (!top) return null;
    const t = top.time;
    if (t > this.clock) {
      this.clock = t;
      for (const fired of this.world.tick({ time: t }))
        if (fired.message !== undefined) this.push({ kind: "world", time: t, fired });
    }
    const batch: SimEvent<D>[] = [];
    for (let next = this.queue.peek(); next && next.time === t; next = this.queue.peek()) {
      this.queue.pop();
      const value = next.value;
      const event = "end" in value ? this.complete(value.end) : value;
      batch.push(event);
      onEvent?.(event);
    }
    return batch;
  }

  private complete(robot: string): SimEvent<D> {
    const running = this.running.get(robot) as Running<D>;
    this.running.delete(robot);
    const { call } = running;
    const base = {
      kind: "skill" as const,
      time: this.clock,
      robot,
      skill: call.skill,
      call,
      started: running.start,
    };
    const guard = this.hooks.guard?.(call, this.world) ?? null;
    if (guard) return { ...base, status: "failed", message: guard };
    const fault = this.hooks.fault?.(running, this.world) ?? null;
    if (fault?.kind === "fail")
      return { ...base, status: "failed", message: fault.message, injected: true };
    const applied = this.world.apply(running.checked);
    if (applied.feedback.status === "failure")
      return { ...base, status: "failed", message: applied.feedback.message };
    for (const fired of this.world.fire(applied))
      if (fired.message !== undefined) this.push({ kind: "world", time: this.clock, fired });
    const report = this.hooks.report?.(running, this.world, fault) ?? {
      message: applied.feedback.message,
    };
    const event: SimEvent<D> = { ...base, status: "succeeded", message: report.message };
    if (report.content !== undefined) event.content = report.content;
    return event;
  }

  private drawDuration(skill: string): number {
    const { nominal, fallback, jitter, resolution } = this.durations;
    const base = nominal[skill] ?? fallback;
    const raw = base * (1 + jitter * (2 * this.rng.next() - 1));
    return Math.max(resolution, Math.round(raw / resolution) * resolution);
  }

  private push(event: SimEvent<D>): void {
    this.queue.push(event.time, event);
  }
}
