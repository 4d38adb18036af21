/**
 * The scenario programs' tool: a mission is built request by request from the current symbolic
 * state (the paper's "state-valid user requests sampled from the current symbolic state",
 * §4.4). The builder keeps that abstract state (each unit's goal applied as it is requested),
 * the active user rules, the horizon estimate, and applies a perturbation plan: a mission
 * update (MU) inserted before a given request, an interruption (IN) splitting a given action
 * request into X1 -> Y -> X2. Plans are keyed by request number, so the clean mission and its
 * variants share every request before the perturbation.
 */
import type { Rng } from "../../core/index.ts";
import type { GoalAtom, Rewrite, SceneGraph } from "../../world/index.ts";
import type { Family } from "./family.ts";
import { type LatentWorld, NodeIndex, SymState } from "./sym-state.ts";
import type {
  AnswerRule,
  Constraint,
  ConstraintSource,
  Intervention,
  Stage,
  Track,
  Unit,
} from "./types.ts";

/** Three paraphrases of one utterance, one per semantic realization (§4.3). */
export type Phrasing = readonly [string, string, string];

/** A stage before its budget is measured and its text realized. */
export interface DraftStage extends Omit<Stage, "instruction" | "target" | "max"> {
  say?: Phrasing;
}

/** Where to perturb a mission; request numbers count the family's requests only. */
export interface Plan {
  mu?: { at: number; key: string };
  in?: { at: number; variant: "stop" | "after" };
}

/** What the compiler learns from a build to plan its variants. */
export interface RequestRecord {
  kind: "act" | "ask" | "ack";
  /** Units of an action request (interruptible when >= 2). */
  units: number;
  /** Rule keys the request relies on. */
  uses: string[];
  /** Rule key a statement sets. */
  sets?: string;
}

/** A built mission. */
export interface Mission {
  scene: SceneGraph;
  stages: DraftStage[];
  interventions: Intervention[];
  requests: RequestRecord[];
  /** Why the plan could not be applied (the compiler picks another). */
  problem?: string;
}

/** Options of an action request. */
export interface ActOptions {
  request: string;
  /** Rule keys whose values the units take (an underspecified request). */
  uses?: string[];
  ordered?: ConstraintSource;
  /** Unit pairs [i, j]: i before j, and who said so. */
  precedes?: [number, number][];
  precedesSource?: ConstraintSource;
  forbid?: Constraint[];
  /** The user expects a completion message afterwards. */
  report?: boolean;
  /** An entry transition applied when the stage starts. */
  enter?: Rewrite[];
}

/** The family hooks a plan needs. */
export interface PlanHooks {
  /** A new value for rule `key` and the user's words announcing it (MU). */
  ruleUpdate(b: MissionBuilder, key: string): { value: string; say: Phrasing } | null;
  /** A short request on items outside `exclude`, to interrupt with (IN). */
  interruption(
    b: MissionBuilder,
    exclude: ReadonlySet<string>,
  ): { units: Unit[]; say: Phrasing } | null;
}

/** Builds one mission for one plan. */
export class MissionBuilder {
  readonly stages: DraftStage[] = [];
  readonly interventions: Intervention[] = [];
  readonly requests: RequestRecord[] = [];
  /** Expected successful skills so far. */
  estimate = 0;
  private world: LatentWorld = { loc: {}, attrs: {} };
  private index: NodeIndex | undefined;
  private sceneGraph: SceneGraph | undefined;
  private readonly ruleValues = new Map<string, { value: string; stage: string }>();
  private readonly usedRules = new Set<string>();
  private pendingUpdate: { key: string; stage: string } | undefined;
  private problem: string | undefined;

  private readonly mainRng: Rng;
  private readonly planRng: Rng;
  private inHook = false;
  private updated = false;

  constructor(
    readonly family: Family & PlanHooks,
    rng: Rng,
    /** Target horizon (successful skills of the clean expert). */
    readonly target: number,
    /** Whether the mission states user rules (MU needs one). */
    readonly withRules: boolean,
    readonly track: Track,
    private readonly plan: Plan = {},
  ) {
    this.mainRng = rng;
    this.planRng = rng.derive("plan");
  }

  /**
   * The random stream: the requests' own, or a separate one inside plan hooks (update values,
   * interruption requests), so a perturbation does not shift the clean mission's draws.
   */
  get rng(): Rng {
    return this.inHook ? this.planRng : this.mainRng;
  }

  /** Set the initial scene (once, first). */
  scene(scene: SceneGraph): void {
    this.sceneGraph = scene;
    this.index = new NodeIndex(scene);
    const w: LatentWorld = { loc: {}, attrs: {} };
    for (const e of scene.edges)
      if (e.rel === "ON" || e.rel === "INSIDE" || e.rel === "IN_ROOM" || e.rel === "ATTACHED")
        w.loc[e.from] = [e.to, e.rel];
    for (const r of scene.robots) {
      w.loc[r.id] = [r.room, "IN_ROOM"];
      for (const h of r.hands) if (h) w.loc[h] = [r.id, "HELD"];
    }
    for (const n of scene.nodes) {
      const on = Object.entries(n.attrs)
        .filter(([, v]) => v)
        .map(([k]) => k);
      if (on.length) w.attrs[n.id] = on;
    }
    this.world = w;
  }

  /** The abstract state now (after every requested unit so far). */
  get s(): SymState {
    if (!this.index) throw new Error("MissionBuilder: scene() first");
    return new SymState(this.index, this.world);
  }

  get nodes(): NodeIndex {
    if (!this.index) throw new Error("MissionBuilder: scene() first");
    return this.index;
  }

  /** Has the estimate reached the target horizon. */
  get full(): boolean {
    return this.estimate >= this.target;
  }

  /** The current value of a user rule, and the stage that stated it. */
  rule(key: string): { value: string; stage: string } | undefined {
    this.planUpdate();
    return this.ruleValues.get(key);
  }

  /** Rule keys stated so far. */
  ruleKeys(): string[] {
    this.planUpdate();
    return [...this.ruleValues.keys()];
  }

  /** A mission with user rules that has stated none yet (state one first). */
  get wantsRule(): boolean {
    return this.withRules && this.ruleValues.size === 0;
  }

  /** Stated rules no request has relied on yet (use one next, so MU has a rule to update). */
  get unusedRules(): string[] {
    return this.ruleKeys().filter((k) => !this.usedRules.has(k));
  }

  /** An acknowledgement stage; with `key`, a persistent rule ("A goes to B by default"). */
  ack(say: Phrasing, o: { request: string; key?: string; value?: string }): string {
    this.planUpdate();
    const id = this.nextId();
    this.stages.push({ id, type: "acknowledge", request: o.request, say });
    if (o.key !== undefined && o.value !== undefined)
      this.ruleValues.set(o.key, { value: o.value, stage: id });
    this.requests.push({ kind: "ack", units: 0, uses: [], ...(o.key ? { sets: o.key } : {}) });
    return id;
  }

  /** An open question (embodied question, rule question) judged by a semantic rule. */
  ask(
    say: Phrasing,
    rule: AnswerRule,
    answer: string,
    o: { request: string; uses?: string[]; allowTools?: string[] },
  ): string {
    const uses = o.uses ?? [];
    this.planUpdate();
    const id = this.nextId();
    const stage: DraftStage = { id, type: "answer", request: o.request, say, rule, answer };
    if (o.allowTools?.length) stage.allowTools = o.allowTools;
    const needs = this.needsOf(uses);
    if (needs.length) stage.needs = needs;
    this.stages.push(stage);
    this.noteRelevance(uses, id);
    this.requests.push({ kind: "ask", units: 0, uses });
    return id;
  }

  /** An underspecified request the agent must clarify by asking; the user's answer follows. */
  clarify(say: Phrasing, question: string, reply: Phrasing, units: Unit[], o: ActOptions): void {
    this.planUpdate();
    const id = this.nextId();
    this.stages.push({
      id,
      type: "answer",
      request: "clarify",
      say,
      rule: { kind: "clarify" },
      answer: question,
    });
    this.requests.push({ kind: "ask", units: 0, uses: [] });
    this.emitAct(units, reply, { ...o, request: o.request }, [id]);
  }

  /** An action request: its units must all hold (in order, if `ordered`). */
  act(units: Unit[], say: Phrasing | undefined, o: ActOptions): string {
    const uses = o.uses ?? [];
    this.planUpdate();
    const n = this.requests.length;
    this.requests.push({ kind: "act", units: units.length, uses });
    if (this.plan.in?.at === n) return this.interrupted(units, say, o, this.plan.in.variant);
    return this.emitAct(units, say, o, []);
  }

  /** Apply a family-specific change to the abstract state (log-only units, transitions). */
  apply(rewrites: readonly Rewrite[]): void {
    for (const rw of rewrites) {
      if (rw.op === "relocate") this.world.loc[rw.node] = [rw.target, rw.rel];
      else if (rw.op === "set_attr") this.setAttr(rw.node, rw.attr, rw.value);
    }
  }

  /** The built mission. */
  mission(): Mission {
    if (!this.sceneGraph) throw new Error("MissionBuilder: no scene");
    if (this.plan.mu && !this.interventions.some((i) => i.type === "mission_update"))
      this.problem ??= `no request ${this.plan.mu.at} to update ${this.plan.mu.key} before`;
    for (const i of this.interventions)
      if (i.type === "mission_update" && i.relevantAt === undefined)
        this.problem ??= "the updated rule is never used afterwards";
    const out: Mission = {
      scene: this.sceneGraph,
      stages: this.stages,
      interventions: this.interventions,
      requests: this.requests,
    };
    if (this.problem) out.problem = this.problem;
    return out;
  }

  private emitAct(
    units: Unit[],
    say: Phrasing | undefined,
    o: ActOptions,
    extraNeeds: string[],
  ): string {
    const id = this.nextId();
    const uses = o.uses ?? [];
    const stage: DraftStage = {
      id,
      type: "act",
      request: o.request,
      units: this.withRuleRefs(units, uses),
    };
    if (say) stage.say = say;
    if (o.ordered) stage.ordered = o.ordered;
    if (o.precedes?.length) {
      stage.precedes = o.precedes;
      stage.precedesSource = o.precedesSource ?? "instruction";
    }
    if (o.forbid?.length) stage.forbid = o.forbid;
    if (o.enter?.length) stage.enter = o.enter;
    const needs = [...extraNeeds, ...this.needsOf(uses)];
    if (needs.length) stage.needs = needs;
    const s = this.s;
    for (const u of units) this.estimate += this.family.cost(u, s);
    if (o.enter) this.apply(o.enter);
    this.stages.push(stage);
    this.applyUnits(units);
    this.noteRelevance(uses, id);
    if (o.report) this.report();
    return id;
  }

  /** X1 -> Y -> X2 ("stop X, do Y, continue X later") or X1 -> X2+announce -> Y ("do Y when you are done"). */
  private interrupted(
    units: Unit[],
    say: Phrasing | undefined,
    o: ActOptions,
    variant: "stop" | "after",
  ): string {
    if (units.length < 2) {
      this.problem ??= "the interrupted request has fewer than two units";
      return this.emitAct(units, say, o, []);
    }
    const k = Math.ceil(units.length / 2);
    const exclude = new Set(units.flatMap((u) => Object.values(u.args)));
    const s = this.s;
    for (const u of units) this.estimate += this.family.cost(u, s);
    const x1 = this.nextId();
    const uses = o.uses ?? [];
    const xUnits = this.withRuleRefs(units, uses);
    const first: DraftStage = {
      id: x1,
      type: "act",
      request: o.request,
      units: xUnits,
      minUnits: k,
      split: "before",
    };
    if (say) first.say = say;
    Object.assign(first, clean(o));
    if (o.enter?.length) {
      first.enter = o.enter;
      this.apply(o.enter);
    }
    const needs = this.needsOf(uses);
    if (needs.length) first.needs = needs;
    this.stages.push(first);
    this.noteRelevance(uses, x1);
    const y = this.hook(() => this.family.interruption(this, exclude));
    if (!y) {
      this.problem ??= "no interruption request fits this state";
      this.applyUnits(units);
      return x1;
    }
    const ys = this.s;
    for (const u of y.units) this.estimate += this.family.cost(u, ys);
    const rest = clean(o);
    if (variant === "stop") {
      const yId = this.nextId();
      this.stages.push({
        id: yId,
        type: "act",
        request: "interruption",
        units: y.units,
        interrupts: x1,
        say: stopSay(y.say),
      });
      const x2 = this.nextId();
      this.stages.push({
        id: x2,
        type: "act",
        request: o.request,
        units: xUnits,
        split: "after",
        needs: [x1],
        ...clean(rest),
      });
      this.interventions.push({ type: "interruption", injectedAt: yId, relevantAt: x2 });
      this.applyUnits(units);
      this.applyUnits(y.units);
      if (o.report) this.report();
      return x1;
    }
    const x2 = this.nextId();
    const yItems = new Set(y.units.flatMap((u) => Object.values(u.args)));
    const early: Constraint[] = [...yItems]
      .filter((item) => this.nodes.type(item) === "object")
      .map((item): Constraint => ({ kind: "log", match: { item }, source: "instruction" }));
    this.stages.push({
      id: x2,
      type: "act",
      request: o.request,
      units: xUnits,
      split: "after",
      needs: [x1],
      say: afterSay(y.say),
      ...clean({ ...rest, forbid: [...(o.forbid ?? []), ...early] }),
    });
    const yId = this.nextId();
    this.stages.push({
      id: yId,
      type: "act",
      request: "interruption",
      units: y.units,
      interrupts: x1,
      needs: [x2],
    });
    this.interventions.push({ type: "interruption", injectedAt: x2, relevantAt: yId });
    this.applyUnits(units);
    this.applyUnits(y.units);
    if (o.report) this.report();
    return x1;
  }

  private hook<T>(f: () => T): T {
    this.inHook = true;
    try {
      return f();
    } finally {
      this.inHook = false;
    }
  }

  private report(): void {
    this.stages.push({ id: this.nextId(), type: "acknowledge", request: "report" });
  }

  /**
   * Insert the planned mission update before request number `at`, once: at the request, or
   * earlier when the scenario program reads a rule to build that request (so its units follow
   * the updated value).
   */
  private planUpdate(): void {
    const n = this.requests.length;
    const mu = this.plan.mu;
    if (mu && !this.updated && mu.at === n && this.ruleValues.has(mu.key)) {
      this.updated = true;
      const update = this.hook(() => this.family.ruleUpdate(this, mu.key));
      if (!update) {
        this.problem ??= `no new value for rule ${mu.key}`;
        return;
      }
      const id = this.nextId();
      this.stages.push({ id, type: "acknowledge", request: "update", say: update.say });
      this.ruleValues.set(mu.key, { value: update.value, stage: id });
      this.pendingUpdate = { key: mu.key, stage: id };
      this.interventions.push({ type: "mission_update", injectedAt: id });
    }
  }

  private noteRelevance(uses: string[], stage: string): void {
    for (const k of uses) this.usedRules.add(k);
    const pending = this.pendingUpdate;
    if (pending && uses.includes(pending.key)) {
      const mu = this.interventions.find(
        (i) => i.type === "mission_update" && i.injectedAt === pending.stage,
      );
      if (mu) mu.relevantAt = stage;
      this.pendingUpdate = undefined;
    }
  }

  private needsOf(uses: string[]): string[] {
    return uses
      .map((k) => this.ruleValues.get(k)?.stage)
      .filter((s): s is string => s !== undefined);
  }

  private withRuleRefs(units: Unit[], uses: string[]): Unit[] {
    if (uses.length === 0) return units;
    const stage = this.ruleValues.get(uses[0] as string)?.stage;
    return stage ? units.map((u) => ({ ...u, rule: stage })) : units;
  }

  private applyUnits(units: Unit[]): void {
    for (const u of units) for (const a of u.atoms) this.applyAtom(a);
  }

  private applyAtom(a: GoalAtom): void {
    if (a.pred === "INSIDE" || a.pred === "ON") this.world.loc[a.object] = [a.target, a.pred];
    else if (a.pred === "ATTR") this.setAttr(a.node, a.attr, a.value);
    else if (a.pred === "AT") this.world.loc[a.node] = [a.room, "IN_ROOM"];
  }

  private setAttr(node: string, attr: string, value: boolean): void {
    const on = new Set(this.world.attrs[node] ?? []);
    if (value) on.add(attr);
    else on.delete(attr);
    this.world.attrs[node] = [...on];
  }

  private nextId(): string {
    return `s${this.stages.length + 1}`;
  }
}

/** The order and constraint fields of a request, without empty ones. */
function clean(
  o: Pick<ActOptions, "ordered" | "forbid" | "precedes" | "precedesSource">,
): Partial<DraftStage> {
  const out: Partial<DraftStage> = {};
  if (o.ordered) out.ordered = o.ordered;
  if (o.forbid?.length) out.forbid = o.forbid;
  if (o.precedes?.length) {
    out.precedes = o.precedes;
    out.precedesSource = o.precedesSource ?? "instruction";
  }
  return out;
}

/** "Stop X, do Y, continue X later" (§4.1). */
function stopSay(y: Phrasing): Phrasing {
  return [
    `Stop what you are doing. First, ${lower(y[0])} Then continue with the previous task.`,
    `Hold on, pause the current task: ${lower(y[1])} Once that is done, go back to what you were doing.`,
    `Interrupt the current work. ${y[2]} Afterwards, resume the earlier task.`,
  ];
}

/** "Do Y when you are done" (§4.1). */
function afterSay(y: Phrasing): Phrasing {
  return [
    `When you are done with the current task, ${lower(y[0])}`,
    `After you finish what you are doing, ${lower(y[1])}`,
    `Once the current task is complete: ${y[2]}`,
  ];
}

function lower(text: string): string {
  return text.length > 0 ? (text[0] as string).toLowerCase() + text.slice(1) : text;
}
