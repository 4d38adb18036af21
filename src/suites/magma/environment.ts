/**
 * A MAGMA episode as a longhaul Environment (seed 000, §3-§4): a stage script released on
 * progress through the user channel, robots running durative skills on the discrete-event
 * simulator, decisions on event batches, stage evaluation after every report, and the
 * runner's rejections (text where an action is due, an action where text is due, empty
 * outputs, budgets). Canonical names inside, the realization's names at the boundary.
 */
import {
  type AccessProfile,
  type Action,
  type EnvEvent,
  type Environment,
  type EpisodeOutcome,
  type InvalidAction,
  type Json,
  LonghaulError,
  type Observation,
  Rng,
  type StepResult,
  type TaskCard,
  type TaskSpec,
  type ToolCall,
} from "../../core/index.ts";
import {
  type DurationModel,
  type Fault,
  type Running,
  type SimEvent,
  Simulator,
} from "../../sim/index.ts";
import { World } from "../../world/index.ts";
import { answerAccepted, type LogEntry, outOfOrder, unitDone, violated } from "./evaluate.ts";
import type { Family, SkillDef } from "./family.ts";
import type { Judge } from "./judge.ts";
import type { Audit, Label, MagmaOutcome } from "./outcome.ts";
import { Renamer } from "./realize.ts";
import { CANCEL, canonicalCall, ground, toolSpecs } from "./skills.ts";
import { type LatentWorld, NodeIndex, SymState } from "./sym-state.ts";
import type { FaultSpec, MagmaPayload, Stage } from "./types.ts";

/** Data the simulator carries with each call. */
interface CallData {
  args: Record<string, string>;
  items: string[];
  stage: number;
}

/** The privileged latent snapshot (the oracle's view). */
export interface MagmaLatent {
  time: number;
  stage: number;
  /** The current stage is complete (only the last stage stays current once complete). */
  stageDone: boolean;
  ended: boolean;
  world: LatentWorld;
  running: Record<
    string,
    { skill: string; args: Record<string, string>; items: string[]; stage: number }
  >;
  known: string[];
  /** Units of the current act stage not yet complete (indices). */
  open: number[];
  calls: number;
}

/** The observation's view: simulated time and the observed task attributes k_t. */
export interface MagmaView {
  time: number;
  attributes: Record<string, Json>;
}

const MAX_FORGIVEN = 3;

/** One MAGMA episode. */
/** How a refused grounding is typed for the protocol. */
const INVALID_CODE = {
  unknown_skill: "unknown-tool",
  bad_arguments: "bad-arguments",
  precondition: "precondition",
} as const satisfies Record<string, InvalidAction["code"]>;

export class MagmaEnvironment implements Environment {
  private readonly names: Renamer;
  private readonly index: NodeIndex;
  private readonly stages: Stage[];
  private world!: World;
  private sim!: Simulator<CallData>;
  private stageIdx = 0;
  private stageCalls = 0;
  private forgiven = 0;
  private log: LogEntry[] = [];
  private stageLogStart = 0;
  private known = new Set<string>();
  private faults: FaultSpec[] = [];
  private ended: { success: boolean; label?: Label; reason?: string } | null = null;
  private decisions = 0;
  private toolCalls = 0;
  private badCalls = 0;
  private faultsFired = 0;
  private done: boolean[] = [];
  private reached: boolean[] = [];
  private audit: Audit = zeroAudit();
  private interruptionPending = -1;
  private judgeCalls = 0;
  /** Where each stage's log begins. */
  private logStarts: number[] = [];
  /** Calls dispatched per stage (the compiler reads the clean expert's as stage targets). */
  private callsPerStage: number[] = [];
  /** Realized attributes, rebuilt when the world or what the agent knows changed. */
  private attrCache: { sym: SymState; known: number; attributes: Record<string, Json> } | null =
    null;
  /** The state whose listed items were last added to what the agent knows. */
  private listedFor: SymState | null = null;
  /** The symbolic view of the world, rebuilt only after the world changed. */
  private symCache: SymState | null = null;
  private judgeCost = 0;

  constructor(
    private readonly spec: TaskSpec<MagmaPayload>,
    private readonly family: Family,
    private readonly access: AccessProfile,
    private readonly judge?: Judge,
  ) {
    this.names = new Renamer(spec.payload.names);
    this.index = new NodeIndex(spec.payload.scene);
    this.stages = spec.payload.stages;
  }

  describe(): TaskCard {
    const p = this.spec.payload;
    const family = this.family;
    const robots = p.scene.robots.map((r) => {
      const skills = family.skills.filter((k) => this.robotHas(r.id, k.action));
      return `- ${r.id}: ${[...skills.map((k) => k.name), CANCEL].join(", ")}`;
    });
    const instructions = [
      `You coordinate ${p.robots === 1 ? "one robot" : `${p.robots} robots`} in the ${family.title} scenario. ${family.setting}`,
      "Each decision is exactly one of: skill calls (several robots at once, at most one call per robot), a message to the user (say), or wait for the next event.",
      "Skills run asynchronously and take time; their reports arrive as events, possibly while other robots are still working. A busy robot accepts only cancel_current_action.",
      "Reply to the user in text when they ask a question, state a rule or a preference, or when you have finished what they asked; act with skills otherwise.",
      "Robots and their skills:",
      ...robots,
    ].join("\n");
    return {
      id: this.spec.id,
      suite: this.spec.suite,
      title: family.title,
      instructions: this.names.text(instructions),
      tools: toolSpecs(family, this.names),
      modes: ["tool", "say", "wait"],
      rules: family.rules.map((r) => this.names.text(r)),
      budgets: {},
      access: this.access,
    };
  }

  reset(): Observation {
    const p = this.spec.payload;
    this.world = new World(p.scene, { all: [] }, [], { catalog: this.family.catalog });
    const durations: DurationModel = {
      nominal: this.family.durations,
      fallback: 2,
      jitter: 0.2,
      resolution: 0.5,
    };
    this.sim = new Simulator<CallData>(
      this.world,
      new Rng(this.spec.seed, "durations"),
      durations,
      {
        guard: (call) => this.guard(call.skill, call.robot, call.data as CallData),
        fault: (running) => this.fault(running),
        report: (running, _w, fault) => {
          this.symCache = null;
          return this.report(running, fault);
        },
      },
    );
    this.symCache = null;
    this.stageIdx = 0;
    this.stageCalls = 0;
    this.forgiven = 0;
    this.log = [];
    this.stageLogStart = 0;
    this.known = new Set(this.family.initiallyKnown(p.scene));
    this.ended = null;
    this.decisions = 0;
    this.toolCalls = 0;
    this.badCalls = 0;
    this.faultsFired = 0;
    this.done = this.stages.map(() => false);
    this.reached = this.stages.map(() => false);
    this.audit = zeroAudit();
    this.interruptionPending = -1;
    this.callsPerStage = this.stages.map(() => 0);
    this.logStarts = [];
    this.enterStage(0);
    const batch = this.sim.nextBatch((e) => this.onEvent(e)) ?? [];
    return this.observation(batch.map((e) => this.toEvent(e)));
  }

  step(action: Action): StepResult | Promise<StepResult> {
    const stage = this.stages[this.stageIdx];
    if (
      this.judge &&
      action.kind === "say" &&
      stage?.type === "answer" &&
      stage.rule?.kind !== "clarify"
    )
      return this.judged(action.text, stage);
    return this.stepSync(action);
  }

  /** A decision without a judge call (the compiler, benches and most stages). */
  stepSync(action: Action, verdict?: boolean): StepResult {
    if (this.ended) throw new LonghaulError("CONFLICT", "the episode has ended");
    this.decisions++;
    const events: EnvEvent[] = [];
    let invalid: InvalidAction | undefined;
    const stage = this.stages[this.stageIdx] as Stage;
    this.auditInterruption(action);
    switch (action.kind) {
      case "tool":
        invalid = this.tools(action.calls, stage);
        break;
      case "say":
        this.say(action.text, stage, verdict);
        break;
      case "wait":
        if (this.sim.idle())
          this.end(
            false,
            "no-progress",
            "The agent waited while nothing was running and nothing was pending.",
          );
        break;
      case "finish":
        invalid = {
          code: "wrong-mode",
          reason: "MAGMA decisions are skill calls, a message to the user, or wait",
        };
        events.push({ type: "rejected", text: invalid.reason });
        break;
    }
    if (!this.endState()) {
      const batch = this.sim.nextBatch((e) => this.onEvent(e));
      if (batch) for (const e of batch) events.push(this.toEvent(e));
      else if (!this.endState() && action.kind !== "finish")
        this.end(false, "no-progress", "Nothing is running and no event will come.");
      this.checkBudget();
    }
    const ended = this.endState();
    if (ended && !ended.success && ended.reason)
      events.push({ type: "episode", text: this.names.text(ended.reason) });
    const result: StepResult = {
      observation: this.observation(events),
      reward: ended?.success ? 1 : 0,
      terminated: ended !== null,
      truncated: false,
      info: invalid ? { invalid } : {},
    };
    return result;
  }

  outcome(): EpisodeOutcome {
    const data: MagmaOutcome = {
      success: this.ended?.success === true,
      stagesDone: this.done.filter(Boolean).length,
      stages: this.stages.length,
      endedAt: this.stageIdx,
      horizon: this.spec.payload.horizon,
      decisions: this.decisions,
      toolCalls: this.toolCalls,
      badCalls: this.badCalls,
      skillsSucceeded: this.log.length,
      faultsFired: this.faultsFired,
      simTime: this.sim?.time ?? 0,
      interventions: this.spec.payload.interventions.map((i) => {
        const at = this.stages.findIndex((s) => s.id === i.injectedAt);
        const rel =
          i.relevantAt === undefined ? -1 : this.stages.findIndex((s) => s.id === i.relevantAt);
        return {
          type: i.type,
          lag: rel >= 0 ? rel - at : null,
          reached: rel >= 0 && this.reached[rel] === true,
          done: rel >= 0 && this.done[rel] === true,
        };
      }),
      audit: this.audit,
      judgeCalls: this.judgeCalls,
      judgeCostUsd: this.judgeCost,
    };
    if (this.ended?.label) data.label = this.ended.label;
    if (this.ended?.reason) data.reason = this.ended.reason;
    const out: EpisodeOutcome = { success: data.success, data: data as unknown as Json };
    if (data.label) out.category = data.label;
    return out;
  }

  latent(): Json {
    // Before reset(), the episode's initial state.
    if (!this.sim) this.reset();
    const running: MagmaLatent["running"] = {};
    for (const r of this.sim.runningSkills()) {
      const d = r.call.data as CallData;
      running[r.call.robot] = { skill: r.call.skill, args: d.args, items: d.items, stage: d.stage };
    }
    const latent: MagmaLatent = {
      time: this.sim.time,
      stage: this.stageIdx,
      stageDone: this.done[this.stageIdx] === true,
      ended: this.ended !== null,
      world: this.sym().world,
      running,
      known: [...this.known],
      open: this.openUnits(),
      calls: this.stageCalls,
    };
    return latent as unknown as Json;
  }

  /** The compiler's measurements: calls per stage and the successful calls, in order. */
  measurements(): { callsPerStage: number[]; log: readonly LogEntry[] } {
    return { callsPerStage: this.callsPerStage.slice(), log: this.log };
  }

  // ---- decisions

  private tools(calls: ToolCall[], stage: Stage): InvalidAction | undefined {
    if (stage.type !== "act") {
      const allowed = new Set(stage.allowTools ?? []);
      const wrong = calls.filter((c) => !allowed.has(canonicalCall(c, this.names).skill));
      if (wrong.length > 0) {
        this.end(
          false,
          "action-for-text",
          "The answer called a tool, but this stage requires a user-facing response.",
        );
        return { code: "wrong-mode", reason: "this stage requires a message to the user" };
      }
    }
    const s = this.sym();
    const seen = new Set<string>();
    const multi = this.spec.payload.robots > 1;
    // The first refused call types the decision's info.invalid (every refusal is also an event).
    let invalid: InvalidAction | undefined;
    const refuse = (code: InvalidAction["code"], reason: string) => {
      this.badCalls++;
      invalid ??= { code, reason };
    };
    for (const call of calls) {
      const { skill, robot } = canonicalCall(call, this.names);
      const data: CallData = { args: {}, items: [], stage: this.stageIdx };
      if (seen.has(robot)) {
        refuse("not-allowed", "One call per robot per decision.");
        this.countCall(multi, true);
        this.sim.reject(
          { robot, skill, action: { name: skill, args: [] }, data },
          "conflict",
          "One call per robot per decision.",
        );
        continue;
      }
      seen.add(robot);
      if (skill === CANCEL) {
        this.sim.cancel(robot, CANCEL, data);
        continue;
      }
      const g = ground(this.family, call, this.names, s, this.known);
      if (!g.ok) {
        refuse(INVALID_CODE[g.reason], g.message);
        this.countCall(
          multi,
          g.reason === "unknown_skill" ||
            !this.world.robots().includes(robot) ||
            this.sim.busy(robot) !== undefined,
        );
        this.sim.reject(
          { robot, skill, action: { name: skill, args: [] }, data },
          g.reason === "unknown_skill" ? "bad_arguments" : g.reason,
          g.message,
        );
        continue;
      }
      const busy = this.sim.busy(robot) !== undefined;
      data.args = g.args;
      data.items = g.items;
      const started = this.sim.dispatch({ robot, skill, action: g.action, data });
      const lacks =
        !started &&
        !busy &&
        this.world.robots().includes(robot) &&
        !this.robotHas(robot, g.skill.action);
      const assignment = busy || lacks || !this.world.robots().includes(robot);
      if (!started)
        refuse(
          assignment ? "not-allowed" : "precondition",
          `${call.tool} on ${call.robot ?? "no robot"} was refused`,
        );
      this.countCall(multi, assignment);
    }
    return invalid;
  }

  private countCall(multi: boolean, assignmentError: boolean): void {
    this.stageCalls++;
    this.callsPerStage[this.stageIdx] = (this.callsPerStage[this.stageIdx] ?? 0) + 1;
    this.toolCalls++;
    if (multi) {
      this.audit.calls++;
      if (assignmentError) this.audit.assignmentErrors++;
    }
  }

  /** Does a robot have a skill (its world action in its skill set; chosen actions: always). */
  private robotHas(robot: string, action: SkillDef["action"]): boolean {
    if (typeof action !== "string") return true;
    const spec = this.spec.payload.scene.robots.find((r) => r.id === robot);
    return !spec?.skills || spec.skills.includes(action);
  }

  private say(text: string, stage: Stage, verdict?: boolean): void {
    if (text.trim().length === 0) {
      this.end(false, "invalid-format", "The agent returned neither a message nor a tool call.");
      return;
    }
    if (stage.type === "act") {
      this.end(
        false,
        "text-for-action",
        "The agent returned a message while this stage requires an action.",
      );
      return;
    }
    if (stage.type === "answer" && stage.rule && !(verdict ?? answerAccepted(stage.rule, text))) {
      this.end(false, "answer-rejected", "The answer does not satisfy the expected semantics.");
      return;
    }
    this.completeStage();
  }

  /** An open answer judged by the pinned LLM judge (its verdict replaces the semantic rule's). */
  private async judged(text: string, stage: Stage): Promise<StepResult> {
    const judge = this.judge as Judge;
    const verdict =
      text.trim().length === 0
        ? undefined
        : await judge.judge({
            question: stage.instruction ?? "",
            rule: stage.answer ?? "",
            answer: text,
          });
    if (verdict) {
      this.judgeCalls += verdict.calls;
      this.judgeCost += verdict.costUsd;
    }
    const result = this.stepSync({ kind: "say", text }, verdict?.verdict);
    if (verdict)
      result.info.judge = {
        verdict: verdict.verdict,
        reason: verdict.reason,
        rule: answerAccepted(stage.rule ?? { kind: "clarify" }, text),
      };
    return result;
  }

  // ---- simulator hooks

  private guard(skill: string, robot: string, data: CallData): string | null {
    const def = this.family.skills.find((k) => k.name === skill);
    if (!def?.guard) return null;
    return def.guard(this.sym(), robot, data.args);
  }

  private fault(running: Running<CallData>): Fault | null {
    const { skill } = running.call;
    const data = running.call.data as CallData;
    for (const f of this.faults) {
      if (f.times <= 0 || !f.skills.includes(skill)) continue;
      if (f.item !== undefined && !data.items.includes(f.item)) continue;
      f.times--;
      this.faultsFired++;
      if (f.kind === "missed_detection") return { kind: "mask", hidden: f.hidden ?? [] };
      const what = data.items[0] ?? "the object";
      return {
        kind: "fail",
        message:
          f.kind === "grasp"
            ? `Failed to grasp ${what} due to a planning error. You can retry.`
            : `${skill} failed during execution. You can retry.`,
      };
    }
    return null;
  }

  private report(running: Running<CallData>, fault: Fault | null) {
    const def = this.family.skills.find((k) => k.name === running.call.skill);
    const data = running.call.data as CallData;
    const hidden = fault?.kind === "mask" ? fault.hidden : [];
    const r = def?.report?.(this.sym(), running.call.robot, data.args, hidden) ?? {
      message: `${running.call.skill} completed.`,
    };
    for (const item of r.reveal ?? []) this.known.add(item);
    if (r.items) data.items = r.items;
    return r.content ? { message: r.message, content: r.content } : { message: r.message };
  }

  // ---- events and stages

  private onEvent(e: SimEvent<CallData>): void {
    if (this.ended || e.kind !== "skill") return;
    if (e.status === "failed" && e.injected && this.forgiven < MAX_FORGIVEN) this.forgiven++;
    if (e.status !== "succeeded") return;
    const data = e.call.data as CallData;
    const entry: LogEntry = {
      skill: e.skill,
      robot: e.robot,
      args: data.args,
      items: data.items,
      dispatched: data.stage,
      completed: this.stageIdx,
      time: e.time,
    };
    if (e.content !== undefined) entry.content = e.content as Record<string, string>;
    this.log.push(entry);
    this.evaluateAct();
  }

  /** After a report: constraints, order, completion of the current action stage. */
  private evaluateAct(): void {
    const stage = this.stages[this.stageIdx] as Stage;
    if (stage.type !== "act" || this.ended) return;
    const s = this.sym();
    const stageLog = this.log.slice(this.stageLogStart);
    const dispatched = this.log.filter((e) => e.dispatched === this.stageIdx);
    const broken = violated(stage.forbid ?? [], s, dispatched);
    if (broken) {
      const label: Label = broken.source === "rule" ? "constraint-violation" : "rule-comprehension";
      this.end(false, label, "An action conflicts with a constraint of the task.");
      return;
    }
    const units = stage.units ?? [];
    const done = units.map((u) => unitDone(u, s, stageLog));
    if (stage.ordered && outOfOrder(done)) {
      const label: Label = stage.ordered === "rule" ? "constraint-violation" : "rule-comprehension";
      this.end(false, label, "The requested order was not respected.");
      return;
    }
    for (const [i, j] of stage.precedes ?? [])
      if (done[j] && !done[i]) {
        const label: Label =
          stage.precedesSource === "instruction" ? "rule-comprehension" : "constraint-violation";
        this.end(false, label, "The required order was not respected.");
        return;
      }
    const count = done.filter(Boolean).length;
    if (count >= (stage.minUnits ?? units.length)) this.completeStage();
  }

  private completeStage(): void {
    const stage = this.stages[this.stageIdx] as Stage;
    this.done[this.stageIdx] = true;
    if (stage.split === "after") this.audit.resumeSuccesses += this.multi() ? 1 : 0;
    if (this.stageIdx + 1 >= this.stages.length) {
      this.end(true);
      return;
    }
    this.enterStage(this.stageIdx + 1);
  }

  private enterStage(k: number): void {
    this.stageIdx = k;
    this.stageCalls = 0;
    this.forgiven = 0;
    this.reached[k] = true;
    const stage = this.stages[k] as Stage;
    // A resumed request (X2) is judged on the whole request's log, from X1 on.
    const origin =
      stage.split === "after" ? this.stages.findIndex((s) => s.id === stage.needs?.[0]) : -1;
    this.logStarts[k] = this.log.length;
    this.stageLogStart =
      origin >= 0 ? (this.logStarts[origin] ?? this.log.length) : this.log.length;
    this.faults = (stage.faults ?? []).map((f) => ({ ...f }));
    if (stage.enter) this.symCache = null;
    if (stage.enter && !this.world.external(stage.enter))
      throw new LonghaulError(
        "RUNTIME",
        `${this.spec.id}: the entry transition of ${stage.id} does not apply`,
      );
    if (stage.split === "after" && this.multi()) this.audit.resumeObligations++;
    if (stage.instruction !== undefined) {
      this.sim.post(stage.instruction);
      if (stage.request === "interruption" || stage.split === "after") this.interruptionPending = k;
    } else if (stage.interrupts !== undefined) this.interruptionPending = -1;
    for (const item of this.namedItems(stage)) this.known.add(item);
    // A continuation may already hold (another robot finished it during the interruption).
    if (stage.type === "act" && stage.instruction === undefined) this.evaluateAct();
  }

  /** Items an instruction names are known to the agent from then on. */
  private namedItems(stage: Stage): string[] {
    const text = stage.instruction;
    if (text === undefined) return [];
    const tokens = new Set(text.match(/[A-Za-z0-9_]+/g) ?? []);
    const out: string[] = [];
    for (const u of stage.units ?? [])
      for (const v of Object.values(u.args))
        if (this.index.type(v) === "object" && tokens.has(this.names.name(v))) out.push(v);
    return out;
  }

  private checkBudget(): void {
    if (this.ended) return;
    const stage = this.stages[this.stageIdx] as Stage;
    if (stage.type !== "act" || stage.max === undefined) return;
    const effective = this.stageCalls - this.forgiven;
    const running = this.sim
      .runningSkills()
      .some((r) => (r.call.data as CallData).stage === this.stageIdx);
    if (effective >= stage.max && !running && !this.sim.pendingNow())
      this.end(false, "no-progress", "The stage's tool-call budget was exceeded.");
  }

  private end(success: boolean, label?: Label, reason?: string): void {
    if (this.ended) return;
    this.ended = { success };
    if (label) this.ended.label = label;
    if (reason) this.ended.reason = reason;
  }

  /** The symbolic state now (cached until the world changes). */
  private sym(): SymState {
    this.symCache ??= SymState.of(this.world, this.index);
    return this.symCache;
  }

  /** How the episode ended so far (a method: TypeScript would keep a narrowed field null). */
  private endState(): { success: boolean; label?: Label; reason?: string } | null {
    return this.ended;
  }

  private multi(): boolean {
    return this.spec.payload.robots > 1;
  }

  /**
   * The first decision after an interruption (Table 4b), in multi-robot episodes: an error when
   * it works on the interrupted request's open units ("stop X") or on Y early ("Y when done").
   */
  private auditInterruption(action: Action): void {
    const k = this.interruptionPending;
    if (k < 0) return;
    this.interruptionPending = -1;
    if (!this.multi()) return;
    this.audit.interruptionDecisions++;
    const stage = this.stages[k] as Stage;
    const forbidden = new Set<string>();
    if (stage.request === "interruption" && stage.interrupts !== undefined) {
      const x = this.stages.find((s) => s.id === stage.interrupts);
      const s = this.sym();
      for (const u of x?.units ?? [])
        if (!unitDone(u, s, []))
          for (const v of Object.values(u.args))
            if (this.index.type(v) === "object") forbidden.add(v);
    } else {
      const y = this.stages[k + 1];
      for (const u of y?.units ?? [])
        for (const v of Object.values(u.args))
          if (this.index.type(v) === "object") forbidden.add(v);
    }
    const touched =
      action.kind === "tool" &&
      action.calls.some((c) =>
        Object.values(c.args).some(
          (v) => typeof v === "string" && forbidden.has(this.names.canonical(v)),
        ),
      );
    if (touched) this.audit.interruptionErrors++;
  }

  private openUnits(): number[] {
    const stage = this.stages[this.stageIdx];
    if (stage?.type !== "act") return [];
    const s = this.sym();
    const stageLog = this.log.slice(this.stageLogStart);
    const out: number[] = [];
    (stage.units ?? []).forEach((u, i) => {
      if (!unitDone(u, s, stageLog)) out.push(i);
    });
    return out;
  }

  // ---- what the agent sees

  private toEvent(e: SimEvent<CallData>): EnvEvent {
    const n = this.names;
    switch (e.kind) {
      case "user":
        return { type: "user", text: e.text, time: e.time };
      case "skill": {
        const state =
          e.status === "succeeded"
            ? "succeeded"
            : e.status === "cancelled"
              ? "was cancelled"
              : "failed";
        const text =
          e.status === "cancelled"
            ? `${e.robot}: ${e.message}`
            : `${e.robot}: ${e.skill} ${state} with message: ${e.message}`;
        return {
          type: "skill",
          robot: n.name(e.robot),
          time: e.time,
          text: n.text(text),
          data: { skill: n.name(e.skill), status: e.status },
        };
      }
      case "rejected":
        return {
          type: "skill",
          robot: n.name(e.robot),
          time: e.time,
          text: n.text(`${e.robot}: ${e.skill} failed with message: ${e.message}`),
          data: { skill: n.name(e.skill), status: "rejected" },
        };
      case "world":
        return { type: "env", time: e.time, text: n.text(e.fired.message ?? "") };
    }
  }

  private observation(events: EnvEvent[]): Observation {
    const s = this.sym();
    if (this.family.listed && this.listedFor !== s) {
      for (const item of this.family.listed(s)) this.known.add(item);
      this.listedFor = s;
    }
    if (this.attrCache?.sym !== s || this.attrCache.known !== this.known.size) {
      const attributes = this.names.json(this.family.attributes(s, this.known)) as Record<
        string,
        Json
      >;
      attributes.known_robots = this.world.robots().map((r) => this.names.name(r));
      this.attrCache = { sym: s, known: this.known.size, attributes };
    }
    const statuses: Record<string, string> = {};
    for (const robot of this.world.robots()) {
      const r = this.sim.busy(robot);
      statuses[this.names.name(robot)] = r ? this.status(r) : "FREE";
    }
    const attributes = { ...this.attrCache.attributes, robot_statuses: statuses };
    const view: MagmaView = { time: this.sim.time, attributes };
    return { step: this.decisions, simTime: this.sim.time, events, view };
  }

  /** "RUNNING take(name=red_cube_1)", realized (the authors' robot status attribute). */
  private status(r: Running<CallData>): string {
    const args = Object.entries((r.call.data as CallData).args)
      .map(([k, v]) => `${k}=${this.names.name(v)}`)
      .join(", ");
    return `RUNNING ${this.names.name(r.call.skill)}(${args})`;
  }
}

function zeroAudit(): Audit {
  return {
    calls: 0,
    assignmentErrors: 0,
    interruptionDecisions: 0,
    interruptionErrors: 0,
    resumeObligations: 0,
    resumeSuccesses: 0,
  };
}
