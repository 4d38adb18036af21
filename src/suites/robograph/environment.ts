/**
 * A RoboGraph episode as a longhaul Environment: the world engine under the closed-loop
 * harness of appendix B (catalog actions as tools, `finish` as stop), with the privileged
 * per-step log the appendix C metrics are computed from. The 100-step limit is the suite's
 * default budget, enforced by the episode session like every budget.
 */
import { z } from "zod";
import {
  type AccessProfile,
  type Action,
  type Budgets,
  type Environment,
  type EpisodeOutcome,
  freezeJson,
  type InvalidAction,
  type Json,
  type Observation,
  type StepResult,
  type TaskCard,
  type TaskSpec,
  type ToolSpec,
} from "../../core/index.ts";
import {
  type ActionFeedback,
  type CatalogEntry,
  catalogFor,
  type FiredEvent,
  type Goal,
  type SceneGraph,
  ViewNode,
  World,
  type WorldAction,
  WorldView,
} from "../../world/index.ts";
import type { RoboGraphPayload } from "./compiler.ts";
import { actionDistance, remainingPlan } from "./oracle.ts";
import type { InterventionLog, OutcomeData, StepLog } from "./outcome.ts";

/** The paper's step limit (appendix B): the suite's default maxSteps budget. */
export const MAX_STEPS = 100;

/** The privileged latent snapshot: the latent scene graph, the active goal, the events fired. */
export interface RoboGraphLatent {
  scene: SceneGraph;
  goal: Goal;
  fired: FiredEvent[];
}

/** The symbolic action constraints of the harness payload (appendix B, Figure 10). */
export const ACTION_CONSTRAINTS = [
  "Choose exactly one action using action_catalog and the provided observation.",
  "Ground object, target, and node_ids in the visual observation and task context.",
  "Do not assume that a candidate action list is available.",
  "Treat success_criterion as the authoritative task goal; task is only a high-level title.",
  "Treat recover as an internal transition, not as a second physical action.",
  "The current observation was captured after the previous task action and before the current action.",
  "Use the current observation to assess the most recent task action in recent_history; do not use that decision’s prior recovery value as its outcome.",
  "Set recovery.required=true when the current observation shows that the most recent task action failed and the selected current action corrects that failure’s consequences or retries the failed action.",
  "Set recovery.required=false when the current observation shows that it succeeded.",
];

/**
 * The view graph as the harness shows it (appendix B, Figure 11): the engine's view without
 * its node `type`, which Figure 11's visible nodes do not carry (id, name, category and the
 * observable attributes). Agents infer what a node is from its name, category, attributes and
 * relations, as a model reading the payload does.
 */
export const HarnessView = WorldView.extend({
  visible_nodes: z.array(ViewNode.omit({ type: true })),
});
/** The view graph as the harness shows it (Figure 11). */
export type HarnessView = z.infer<typeof HarnessView>;

/** The engine's view projected to Figure 11's fields. */
export function harnessView(view: WorldView): HarnessView {
  return {
    ...view,
    visible_nodes: view.visible_nodes.map(({ type: _type, ...shown }) => shown),
  };
}

/** What the agent observes each step: the task fields and the view graph (appendix B). */
export interface RoboGraphView {
  task: string;
  task_type: string;
  settings: string[];
  success_criterion: Goal;
  step: number;
  current_observation: HarnessView;
}

/** The node ids a goal names. */
export function goalNodeIds(goal: Goal): string[] {
  return goal.all.flatMap((a) =>
    a.pred === "COUNT"
      ? [a.target]
      : a.pred === "ASSEMBLED"
        ? [a.part, a.target]
        : "node" in a
          ? [a.node]
          : [a.object, a.target],
  );
}

/** The `settings` field of the payload for a domain. */
export function settingsFor(domain: RoboGraphPayload["domain"]): string[] {
  return domain === "indoor"
    ? ["indoor", "navigation-enabled", "symbolic scene graph", "two-handed robot"]
    : ["tabletop", "symbolic scene graph", "two-handed robot"];
}

/**
 * The catalog as tools: each takes object/target ids or ordered node_ids. Built once per value of
 * `navigation` and frozen: every episode's card shares them (an open episode kept its own ~6 KB
 * copy, which a server's young-generation GC copied for every new episode).
 */
export function catalogTools(navigation: boolean): ToolSpec[] {
  return navigation ? TOOLS.navigation : TOOLS.tabletop;
}

/** The catalog as tools, built. */
function buildTools(navigation: boolean): ToolSpec[] {
  return catalogFor(navigation).map((schema) => {
    const properties: Record<string, unknown> = {};
    for (const p of schema.parameters)
      properties[p] = { type: "string", description: `observed ${p} identifier` };
    properties.node_ids = {
      type: "array",
      items: { type: "string" },
      description: "ordered identifiers",
    };
    return {
      name: schema.name,
      description: `${schema.description} Free hands: ${schema.requiredFreeHands}; held object required: ${schema.heldObjectRequired ? "yes" : "no"}; ${schema.handResult}.`,
      parameters: { type: "object", properties, additionalProperties: false },
    };
  });
}

const TOOLS = { navigation: freezeJson(buildTools(true)), tabletop: freezeJson(buildTools(false)) };

function argList(params: readonly string[], args: Record<string, unknown>): unknown[] {
  const ids = args.node_ids;
  if (Array.isArray(ids) && ids.length > 0) return ids;
  const named = params.map((p) => args[p]).filter((v) => v !== undefined && v !== null);
  if (named.length > 0) return named;
  return [args.object, args.target].filter((v) => v !== undefined && v !== null);
}

/**
 * Each compiled task's initial world, built once: `new World` validates the scene, goal and
 * schedule, which a compiled payload already passed, so every later reset clones it instead
 * (a clone shares nothing it changes).
 */
const initialWorlds = new WeakMap<RoboGraphPayload, World>();

function initialWorld(p: RoboGraphPayload): World {
  let world = initialWorlds.get(p);
  if (!world) {
    world = new World(p.graph, p.goal, p.events);
    initialWorlds.set(p, world);
  }
  return world.clone();
}

/**
 * What an argument token may name in the current view: ids as they are (adjacent rooms' and
 * visible nodes'), and visible nodes' names. Two flat arrays rather than a Set and a Map of
 * arrays: an open episode keeps one, and a served episode's step scans it at most twice.
 */
interface Resolvable {
  ids: string[];
  /** Beside the visible nodes' ids (after the rooms'): their names. */
  names: string[];
}

/** One episode of a compiled RoboGraph task. */
export class RoboGraphEnvironment implements Environment {
  private world!: World;
  private log: StepLog[] = [];
  private interventions: InterventionLog[] = [];
  private relevantHidden = new Set<string>();
  private seen = new Set<string>();
  /** Signatures (name and resolved arguments) of the actions attempted so far (RAR). */
  private attempted = new Set<string>();
  private goalInitial = 0;
  /** Ordered action distance of the current latent state; only step() changes that state. */
  private distance = 0;
  private stopStep: number | null = null;
  private goalAtStop = false;
  private lastEvent: Observation["events"] = [];
  /** The ids and names of the view last observed (the state does not change until a step). */
  private resolvable: Resolvable = { ids: [], names: [] };
  private readonly card: TaskCard;
  /** The Table 5 rows of this scene. */
  private readonly catalog: readonly CatalogEntry[];

  constructor(
    readonly spec: TaskSpec<RoboGraphPayload>,
    access: AccessProfile,
    budgets: Budgets = { maxSteps: MAX_STEPS },
  ) {
    const p = spec.payload;
    this.catalog = catalogFor(p.graph.navigation);
    this.card = {
      id: spec.id,
      suite: "robograph",
      title: p.task,
      instructions: `${p.task}. The success criterion in each observation is the authoritative goal; issue stop when it holds.`,
      tools: catalogTools(p.graph.navigation),
      modes: ["tool", "finish"],
      rules: ACTION_CONSTRAINTS,
      budgets,
      access,
    };
    this.reset();
  }

  describe(): TaskCard {
    return this.card;
  }

  reset(): Observation {
    const p = this.spec.payload;
    this.world = initialWorld(p);
    this.log = [];
    this.interventions = [];
    this.stopStep = null;
    this.goalAtStop = false;
    this.lastEvent = [];
    this.attempted = new Set();
    this.seen = this.world.visibleIds();
    // SEG's denominator: the nodes hidden in G_0 that the optimal plan depends on (compiled).
    this.relevantHidden = new Set(p.spatialDependencies);
    this.goalInitial = this.world.goalProgress().filter(Boolean).length;
    this.distance = actionDistance(this.world);
    return this.observe();
  }

  /** Privileged: the latent state as data (the session hands agents a deep copy). */
  latent(): Json {
    const snapshot: RoboGraphLatent = {
      scene: this.world.latent(),
      goal: this.world.goal(),
      fired: this.world.fired(),
    };
    return snapshot as unknown as Json;
  }

  private observe(): Observation {
    const p = this.spec.payload;
    const worldView = this.world.view();
    const ids = [...worldView.robot.adjacent_rooms];
    const names: string[] = [];
    for (const n of worldView.visible_nodes) {
      ids.push(n.id);
      names.push(n.name);
    }
    this.resolvable = { ids, names };
    const view: RoboGraphView = {
      task: p.task,
      task_type: this.spec.family,
      settings: settingsFor(p.domain),
      success_criterion: this.world.goal(),
      step: this.log.length,
      current_observation: harnessView(worldView),
    };
    return { step: this.log.length, events: this.lastEvent, view };
  }

  private toWorldAction(action: Action): {
    action: WorldAction | { name: string; args: unknown[] };
    invalid?: InvalidAction;
  } {
    if (action.kind === "finish") return { action: { name: "stop", args: [] } };
    if (action.kind !== "tool")
      return {
        action: { name: action.kind, args: [] },
        invalid: {
          code: "wrong-mode",
          reason: `${action.kind} is not accepted; use a catalog action`,
        },
      };
    const call = action.calls[0];
    if (!call || action.calls.length > 1)
      return {
        action: { name: call?.tool ?? "", args: [] },
        invalid: { code: "not-allowed", reason: "exactly one action per step" },
      };
    const schema = this.catalog.find((s) => s.name === call.tool);
    if (!schema)
      return {
        action: { name: call.tool, args: [] },
        invalid: { code: "unknown-tool", reason: `${call.tool} is not in the action catalog` },
      };
    const raw = argList(schema.parameters, call.args);
    const bad = raw.findIndex((v) => typeof v !== "string");
    if (bad >= 0)
      return {
        action: { name: call.tool, args: [] },
        invalid: {
          code: "bad-arguments",
          reason: "identifiers must be strings",
          path: `node_ids[${bad}]`,
        },
      };
    return { action: { name: schema.name, args: (raw as string[]).map((id) => this.resolve(id)) } };
  }

  /** Accept a visible node's name where an id is expected (Table 9 shows models using names). */
  private resolve(token: string): string {
    const { ids, names } = this.resolvable;
    if (ids.includes(token)) return token;
    // A name resolves only when exactly one visible node has it.
    const first = names.indexOf(token);
    if (first < 0 || names.indexOf(token, first + 1) >= 0) return token;
    return ids[ids.length - names.length + first] as string;
  }

  step(action: Action): StepResult {
    const t = this.log.length;
    const { action: wa, invalid } = this.toWorldAction(action);
    const distanceBefore = this.distance;
    const ids = "args" in wa && Array.isArray(wa.args) ? (wa.args as string[]) : [];
    const signature = `${wa.name}(${ids.join(",")})`;
    const repeated = this.attempted.has(signature);
    this.attempted.add(signature);
    // The engine's phases (what World.step does), so that a repeated action's effect on the
    // remaining optimal plan is measured before any intervention fires (RAR).
    const world = this.world;
    world.advance({ step: t + 1 });
    const checked = world.check(invalid ? { name: "invalid", args: [] } : wa);
    let feedback: ActionFeedback;
    let fired: FiredEvent[] = [];
    let planBefore: number | null = null;
    let planAfter: number | null = null;
    if (!checked.ok) {
      world.recordRejection(checked);
      feedback = checked.feedback;
    } else {
      const plan = repeated ? remainingPlan(world) : null;
      planBefore = plan?.length ?? null;
      const applied = world.apply(checked.checked);
      feedback = applied.feedback;
      if (plan && feedback.status === "success")
        // The action starts the optimal plan found: its rest proves one step less (one action
        // shortens a plan by at most one), so no second search is needed.
        planAfter =
          plan[0]?.name === wa.name && plan[0].args.join(",") === ids.join(",")
            ? plan.length - 1
            : (remainingPlan(world)?.length ?? null);
      fired = [...applied.fired, ...world.fire(applied), ...world.fireDue()];
    }
    const result = { feedback, fired, terminated: world.terminated };
    const fb = result.feedback;
    const after = world.visibleIds();
    this.recordEvents(result.fired, t, after);
    const revealed = [...after].filter((id) => !this.seen.has(id) && this.relevantHidden.has(id));
    for (const id of after) this.seen.add(id);
    const status = invalid || fb.failure_type === "invalid_action" ? "invalid" : fb.status;
    this.distance = actionDistance(this.world);
    const state = this.world.latentState();
    const names = ids.map((id) => state.info[state.index.get(id) ?? -1]?.node.name ?? id);
    this.log.push({
      step: t,
      action: wa.name,
      nodeIds: ids,
      nodeNames: names,
      status,
      failureType: invalid ? invalid.code : fb.failure_type,
      injected: fb.failure_type === "injected_failure",
      distanceBefore,
      distanceAfter: this.distance,
      ...(repeated ? { planBefore, planAfter } : {}),
      revealed,
      goalSatisfied: this.world.goalProgress().filter(Boolean).length,
    });
    if (result.terminated) {
      this.stopStep = t;
      this.goalAtStop = this.world.goalSatisfied();
    }
    this.lastEvent = [
      {
        type: status === "success" ? "action_succeeded" : "action_failed",
        text: invalid ? invalid.reason : fb.message,
        data: {
          action: wa.name,
          node_ids: ids,
          status: status === "success" ? "success" : "failure",
          failure_type: invalid ? invalid.code : fb.failure_type,
        },
      },
    ];
    const info: StepResult["info"] = {
      status,
      failure_type: invalid ? invalid.code : fb.failure_type,
    };
    if (invalid) info.invalid = invalid;
    return {
      observation: this.observe(),
      reward: result.terminated && this.goalAtStop ? 1 : 0,
      terminated: result.terminated,
      truncated: false,
      info,
    };
  }

  private recordEvents(fired: FiredEvent[], t: number, visibleAfter: Set<string>): void {
    for (const f of fired) {
      const kind = f.id as InterventionLog["kind"];
      this.interventions.push({
        kind,
        step: kind === "I1" ? t : t + 1,
        detail: JSON.stringify(f.bindings),
      });
      // An object an event hid (I5) or added out of sight (I6) is a new spatial dependency.
      const last = this.world.goal().all.at(-1);
      const target =
        kind === "I5"
          ? f.bindings.$object
          : kind === "I6" && last && "object" in last
            ? last.object
            : undefined;
      if (target && !visibleAfter.has(target)) {
        this.relevantHidden.add(target);
        this.seen.delete(target);
      }
    }
  }

  outcome(): EpisodeOutcome {
    const p = this.spec.payload;
    const data: OutcomeData = {
      condition: p.condition,
      domain: p.domain,
      oracleLength: p.oracle.length,
      goalTotal: this.world.goal().all.length,
      goalInitial: this.goalInitial,
      goalFinal: this.world.goalProgress().filter(Boolean).length,
      stopStep: this.stopStep,
      goalAtStop: this.goalAtStop,
      relevantHidden: [...this.relevantHidden].sort(),
      interventions: this.interventions,
      steps: this.log,
    };
    const success = this.stopStep !== null && this.goalAtStop;
    return success
      ? { success, data }
      : { success, category: this.stopStep !== null ? "PREMATURE" : "TIME", data };
  }
}
