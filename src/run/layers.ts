/**
 * The layers an episode session wraps around an environment, one concern each (Gymnasium's
 * wrappers are the model: TimeLimit, RecordEpisodeStatistics, OrderEnforcing). Every layer
 * speaks the same decision-level interface, so they compose; `wrapEnvironment` stacks them
 * in the one order every driver gets:
 *
 *   Recorder -> BudgetLimit -> FormatPolicy -> EnvironmentLayer -> Environment
 *
 * The recorder sees every decision, the budget may stop a decision before it runs, the format
 * policy keeps unusable output away from the environment, and only the innermost layer calls it.
 */
import {
  type Action,
  addUsage,
  type Budgets,
  type Decision,
  type EndReason,
  type EnvEvent,
  type Environment,
  emptyUsage,
  formatZodError,
  holdJson,
  jsonBytes,
  type Observation,
  parseAction,
  type StepResult,
  type TraceStep,
  totalTokens,
  type Usage,
} from "../core/index.ts";

/** The event added to a re-presented observation after unusable agent output. */
export const FORMAT_ERROR_EVENT = "format-error";

/** How an episode ended: the reason, and whether the environment truncated it. */
export interface EpisodeEnd {
  endedBy: EndReason;
  /** The environment truncated (rather than terminated) the episode. */
  truncated: boolean;
}

/** One decision entering the stack: the agent's output and its usable action, or why none. */
export interface Turn {
  decision: Decision;
  action?: Action;
  formatError?: string;
}

/** What a layer answers for a turn (or for the reset). */
export interface TurnOutcome {
  /** What the agent sees next. */
  observation: Observation;
  /** The environment's step result, when the decision reached it. */
  result?: StepResult;
  /** Set by the layer that ended the episode. */
  end?: EpisodeEnd;
}

/** The decision-level environment: what every layer implements and wraps. */
export interface EpisodeLayer {
  reset(): Promise<TurnOutcome>;
  step(turn: Turn): Promise<TurnOutcome>;
  close(): Promise<void>;
}

/** A decision as a turn: its usable action, or why it is unusable (never throws). */
export function turnOf(decision: Decision): Turn {
  if (decision.formatError !== undefined) return { decision, formatError: decision.formatError };
  if (decision.action === undefined)
    return { decision, formatError: "the agent returned no action" };
  const parsed = parseAction(decision.action);
  if (!parsed.success) {
    return { decision, formatError: `malformed action: ${formatZodError(parsed.error)}` };
  }
  return { decision, action: parsed.data };
}

/** The innermost layer: steps the environment and maps terminated/truncated/finish to an end. */
export class EnvironmentLayer implements EpisodeLayer {
  private closed = false;

  constructor(readonly env: Environment) {}

  async reset(): Promise<TurnOutcome> {
    return { observation: await this.env.reset() };
  }

  async step(turn: Turn): Promise<TurnOutcome> {
    if (!turn.action) throw new Error("EnvironmentLayer.step needs a usable action");
    const result = await this.env.step(turn.action);
    const out: TurnOutcome = { observation: result.observation, result };
    if (result.terminated || result.truncated) {
      out.end = { endedBy: "terminated", truncated: result.truncated && !result.terminated };
    } else if (turn.action.kind === "finish" && !result.info.invalid) {
      out.end = { endedBy: "finished", truncated: false };
    }
    return out;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.env.close?.();
  }
}

/** Forwards everything to the inner layer; subclasses override what they change. */
abstract class Wrapper implements EpisodeLayer {
  constructor(protected readonly inner: EpisodeLayer) {}
  reset(): Promise<TurnOutcome> {
    return this.inner.reset();
  }
  step(turn: Turn): Promise<TurnOutcome> {
    return this.inner.step(turn);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * Unusable output never reaches the environment: the same observation is shown again with a
 * format-error event, and `limit` unusable outputs in a row end the episode (FORMAT).
 */
export class FormatPolicy extends Wrapper {
  private current: Observation | undefined;
  private streak = 0;

  constructor(
    inner: EpisodeLayer,
    private readonly limit: number,
  ) {
    super(inner);
  }

  override async reset(): Promise<TurnOutcome> {
    const out = await this.inner.reset();
    this.current = out.observation;
    this.streak = 0;
    return out;
  }

  override async step(turn: Turn): Promise<TurnOutcome> {
    const current = this.current as Observation;
    if (turn.formatError !== undefined) {
      this.streak++;
      if (this.streak >= this.limit) {
        return { observation: current, end: { endedBy: "format", truncated: false } };
      }
      const event: EnvEvent = { type: FORMAT_ERROR_EVENT, text: turn.formatError };
      return { observation: { ...current, events: [...current.events, event] } };
    }
    this.streak = 0;
    const out = await this.inner.step(turn);
    this.current = out.observation;
    return out;
  }
}

/**
 * Every budget, enforced here and nowhere else. Decisions (usable or not) count against
 * maxSteps; spending past maxTokens / maxCostUsd stops a decision before it runs; maxSteps,
 * maxSimTime and maxWallMs end the episode after the decision that reaches them, marking the
 * step result truncated as Gymnasium's TimeLimit does. A wall-clock timer also covers an agent
 * that never answers: it calls `onWallExpired`.
 */
export class BudgetLimit extends Wrapper {
  private decisions = 0;
  private usage: Usage = emptyUsage();
  private current: Observation | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    inner: EpisodeLayer,
    private readonly budgets: Budgets,
    /** Milliseconds since the episode started. */
    private readonly elapsedMs: () => number,
    private readonly onWallExpired: () => void,
  ) {
    super(inner);
  }

  override async reset(): Promise<TurnOutcome> {
    const out = await this.inner.reset();
    this.current = out.observation;
    const { maxWallMs } = this.budgets;
    if (maxWallMs !== undefined) {
      clearTimeout(this.timer);
      this.timer = setTimeout(this.onWallExpired, Math.max(0, maxWallMs - this.elapsedMs()));
    }
    const limit = this.reached(out.observation);
    return limit && !out.end ? { ...out, end: { endedBy: limit, truncated: false } } : out;
  }

  override async step(turn: Turn): Promise<TurnOutcome> {
    this.decisions++;
    if (turn.decision.usage) this.usage = addUsage(this.usage, turn.decision.usage);
    const overspent = this.overspent();
    if (overspent) {
      return {
        observation: this.current as Observation,
        end: { endedBy: overspent, truncated: false },
      };
    }
    const out = await this.inner.step(turn);
    this.current = out.observation;
    if (out.end) return out;
    const limit = this.reached(out.observation);
    if (!limit) return out;
    return {
      ...out,
      ...(out.result ? { result: { ...out.result, truncated: true } } : {}),
      end: { endedBy: limit, truncated: false },
    };
  }

  override async close(): Promise<void> {
    clearTimeout(this.timer);
    await this.inner.close();
  }

  /** The step, simulated-time or wall budget reached before the next decision, if any. */
  private reached(observation: Observation): EndReason | undefined {
    const b = this.budgets;
    if (b.maxSteps !== undefined && this.decisions >= b.maxSteps) return "maxSteps";
    if (
      b.maxSimTime !== undefined &&
      observation.simTime !== undefined &&
      observation.simTime >= b.maxSimTime
    ) {
      return "maxSimTime";
    }
    if (b.maxWallMs !== undefined && this.elapsedMs() >= b.maxWallMs) return "maxWallMs";
    return undefined;
  }

  /** The usage budget the decisions so far have exceeded, if any. */
  private overspent(): EndReason | undefined {
    const b = this.budgets;
    if (b.maxTokens !== undefined && totalTokens(this.usage) > b.maxTokens) return "maxTokens";
    if (b.maxCostUsd !== undefined && this.usage.costUsd > b.maxCostUsd) return "maxCostUsd";
    return undefined;
  }
}

/** What the recorder has logged so far. */
export interface Recording {
  steps: TraceStep[];
  usage: Usage;
  invalidActions: number;
  formatErrors: number;
  /** The environment's latest observation (without re-presentation events). */
  final?: Observation;
}

/**
 * Logs every decision as a trace step: what the agent saw, did, spent and got back. Each shown
 * observation is kept as its JSON bytes (see core/lazy-json.ts): the trace step parses it only
 * when read, and a server answers with the same bytes.
 */
export class Recorder extends Wrapper {
  readonly recording: Recording = {
    steps: [],
    usage: emptyUsage(),
    invalidActions: 0,
    formatErrors: 0,
  };
  private presented: Uint8Array | undefined;

  /** The JSON of the observation the agent decides on next. */
  get presentedJson(): Uint8Array | undefined {
    return this.presented;
  }

  override async reset(): Promise<TurnOutcome> {
    const out = await this.inner.reset();
    this.presented = jsonBytes(out.observation);
    this.recording.final = out.observation;
    return out;
  }

  override async step(turn: Turn): Promise<TurnOutcome> {
    const { decision } = turn;
    const rec = this.recording;
    if (decision.usage) rec.usage = addUsage(rec.usage, decision.usage);
    const step = { step: rec.steps.length } as TraceStep;
    holdJson(step, "observation", this.presented as Uint8Array);
    if (decision.raw !== undefined) step.raw = decision.raw;
    if (decision.note !== undefined) step.note = decision.note;
    if (decision.extra !== undefined) step.extra = decision.extra;
    if (decision.usage !== undefined) step.usage = decision.usage;
    if (decision.calls !== undefined) step.calls = decision.calls;
    if (turn.formatError !== undefined) {
      step.formatError = turn.formatError;
      rec.formatErrors++;
    } else step.action = turn.action as Action;
    rec.steps.push(step);
    const out = await this.inner.step(turn);
    if (out.result) {
      const { observation, ...rest } = out.result;
      step.result = rest;
      if (rest.info.invalid) rec.invalidActions++;
      rec.final = observation;
    }
    this.presented = jsonBytes(out.observation);
    return out;
  }
}

/** The one stack every episode runs in (see the module comment for the order). */
export function wrapEnvironment(
  env: Environment,
  options: {
    budgets: Budgets;
    maxConsecutiveFormatErrors: number;
    elapsedMs: () => number;
    onWallExpired: () => void;
  },
): { layer: EpisodeLayer; recorder: Recorder } {
  const inner = new EnvironmentLayer(env);
  const format = new FormatPolicy(inner, options.maxConsecutiveFormatErrors);
  const budget = new BudgetLimit(format, options.budgets, options.elapsedMs, options.onWallExpired);
  const recorder = new Recorder(budget);
  return { layer: recorder, recorder };
}
