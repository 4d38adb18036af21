/**
 * One episode in closed loop: reset, decide, step, until the environment ends it, the agent
 * finishes, a budget runs out or the agent's output stays unusable; then score it.
 */

import type { EpisodeRecord } from "../core/index.ts";
import {
  type AccessProfile,
  Action,
  type Agent,
  type AgentContext,
  type AgentSession,
  addUsage,
  type Budgets,
  type CallGate,
  DEFAULT_ACCESS,
  type EndReason,
  type EnvEvent,
  type Environment,
  EpisodeScore,
  emptyUsage,
  formatZodError,
  LonghaulError,
  type Observation,
  PRIVILEGED_ACCESS,
  parseOrThrow,
  rngFor,
  type Suite,
  type TaskCard,
  type Trace,
  type TraceStep,
  totalTokens,
  type Usage,
} from "../core/index.ts";
import type { PlannedEpisode } from "./plan.ts";

/** Everything one episode needs from the run. */
export interface EpisodeSetup<P = unknown> {
  suite: Suite<P>;
  agent: Agent;
  planned: PlannedEpisode<P>;
  seed: string;
  access: AccessProfile;
  /** The run's budget overrides, applied over the suite's and the card's. */
  budgets?: Budgets;
  gate: CallGate;
  /** The run's signal: when it fires the episode is abandoned. */
  signal: AbortSignal;
  maxConsecutiveFormatErrors: number;
}

/** A finished episode (its record and trace; no trace if the environment could not be made). */
export type EpisodeResult =
  | { kind: "done"; record: EpisodeRecord; trace?: Trace }
  | { kind: "abandoned" };

/** The access an agent gets unless the run says otherwise: privileged for oracles. */
export function accessFor(agent: Agent): AccessProfile {
  return agent.privileged ? PRIVILEGED_ACCESS : DEFAULT_ACCESS;
}

/** The event added to a re-presented observation after unusable agent output. */
export const FORMAT_ERROR_EVENT = "format-error";

/** Thrown into a pending decision when the wall-clock budget runs out. */
class WallBudgetExceeded extends Error {}

/** The generic failure category for an unsuccessful episode the scorer did not categorise. */
export function genericCategory(endedBy: EndReason, truncated: boolean): string {
  switch (endedBy) {
    case "maxSteps":
    case "maxSimTime":
    case "maxWallMs":
      return "TIME";
    case "maxTokens":
    case "maxCostUsd":
      return "BUDGET";
    case "format":
      return "FORMAT";
    case "error":
      return "ERR";
    default:
      return truncated ? "TIME" : "QUIT";
  }
}

/** Effective budgets: suite defaults, then the task card's, then the run's overrides. */
export function mergeBudgets(...layers: (Budgets | undefined)[]): Budgets {
  const out: Budgets = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {})) {
      if (value !== undefined) (out as Record<string, number>)[key] = value;
    }
  }
  return out;
}

/** Resolve with `promise`, or reject as soon as `signal` aborts (the promise is abandoned). */
function unlessAborted<T>(promise: T | Promise<T>, signal: AbortSignal): Promise<T> {
  if (!(promise instanceof Promise)) return Promise.resolve(promise);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** The usable action of a decision, or why it is unusable. */
function usableAction(decision: {
  action?: unknown;
  formatError?: string;
}): { action: Action } | { error: string } {
  if (decision.formatError !== undefined) return { error: decision.formatError };
  if (decision.action === undefined) return { error: "the agent returned no action" };
  const parsed = Action.safeParse(decision.action);
  if (!parsed.success) return { error: `malformed action: ${formatZodError(parsed.error)}` };
  return { action: parsed.data };
}

/** The budget the episode has reached before its next decision, if any. */
function budgetBeforeDecision(
  budgets: Budgets,
  decisions: number,
  observation: Observation,
  wallMs: number,
): EndReason | undefined {
  if (budgets.maxSteps !== undefined && decisions >= budgets.maxSteps) return "maxSteps";
  if (
    budgets.maxSimTime !== undefined &&
    observation.simTime !== undefined &&
    observation.simTime >= budgets.maxSimTime
  ) {
    return "maxSimTime";
  }
  if (budgets.maxWallMs !== undefined && wallMs >= budgets.maxWallMs) return "maxWallMs";
  return undefined;
}

/** The usage budget a decision's spending has exceeded, if any. */
function budgetAfterSpending(budgets: Budgets, usage: Usage): EndReason | undefined {
  if (budgets.maxTokens !== undefined && totalTokens(usage) > budgets.maxTokens) return "maxTokens";
  if (budgets.maxCostUsd !== undefined && usage.costUsd > budgets.maxCostUsd) return "maxCostUsd";
  return undefined;
}

/**
 * Run one planned episode to its end. Agent, environment and scorer faults make the episode
 * invalid (ERR); only a USAGE error (a misconfigured agent) is thrown, to stop the run.
 */
export async function runEpisode<P>(setup: EpisodeSetup<P>): Promise<EpisodeResult> {
  const held: { env?: Environment } = {};
  try {
    return await playEpisode(setup, held);
  } finally {
    // Every path (done, invalid, abandoned) frees what the environment holds.
    await closeQuietly(held.env);
  }
}

async function playEpisode<P>(
  setup: EpisodeSetup<P>,
  held: { env?: Environment },
): Promise<EpisodeResult> {
  const { suite, agent, planned, signal } = setup;
  const { spec, episodeId } = planned;
  const startedAt = performance.now();
  const wallMs = () => performance.now() - startedAt;
  const episodeAbort = new AbortController();
  const forwardAbort = () => episodeAbort.abort(signal.reason);
  signal.addEventListener("abort", forwardAbort, { once: true });
  let wallTimer: NodeJS.Timeout | undefined;

  const steps: TraceStep[] = [];
  let usage = emptyUsage();
  let invalidActions = 0;
  let formatErrors = 0;
  let endedBy: EndReason = "error";
  let truncated = false;
  let error: string | undefined;
  let env: Environment | undefined;
  let card: TaskCard | undefined;
  let observation: Observation | undefined;
  let session: AgentSession | undefined;

  try {
    if (signal.aborted) return { kind: "abandoned" };
    env = suite.make(spec, {
      access: setup.access,
      budgets: mergeBudgets(suite.budgets, setup.budgets),
    });
    held.env = env;
    const described = env.describe();
    const budgets = mergeBudgets(suite.budgets, described.budgets, setup.budgets);
    card = { ...described, budgets, access: setup.access };
    observation = await env.reset();
    if (budgets.maxWallMs !== undefined) {
      wallTimer = setTimeout(
        () => episodeAbort.abort(new WallBudgetExceeded("wall-clock budget exhausted")),
        Math.max(0, budgets.maxWallMs - wallMs()),
      );
    }
    const liveEnv = env;
    const context: AgentContext = {
      episodeId,
      epoch: planned.epoch,
      rng: rngFor(setup.seed, `agent:${agent.id}:${episodeId}`),
      signal: episodeAbort.signal,
      budgets,
      access: setup.access,
      gate: setup.gate,
      ...(setup.access.privileged
        ? { privileged: { spec, latent: () => liveEnv.latent?.() } }
        : {}),
    };
    session = await unlessAborted(agent.start(card, context), episodeAbort.signal);

    let presented = observation;
    let consecutiveFormatErrors = 0;
    for (;;) {
      const limit = budgetBeforeDecision(budgets, steps.length, observation, wallMs());
      if (limit) {
        endedBy = limit;
        break;
      }
      const decision = await unlessAborted(session.act(presented), episodeAbort.signal);
      if (decision.usage) usage = addUsage(usage, decision.usage);
      const step: TraceStep = {
        step: steps.length,
        observation: presented,
        ...(decision.raw !== undefined ? { raw: decision.raw } : {}),
        ...(decision.note !== undefined ? { note: decision.note } : {}),
        ...(decision.extra !== undefined ? { extra: decision.extra } : {}),
        ...(decision.usage !== undefined ? { usage: decision.usage } : {}),
        ...(decision.calls !== undefined ? { calls: decision.calls } : {}),
      };
      steps.push(step);
      const overspent = budgetAfterSpending(budgets, usage);
      const usable = usableAction(decision);
      if ("error" in usable) {
        step.formatError = usable.error;
        formatErrors++;
        consecutiveFormatErrors++;
        if (overspent) {
          endedBy = overspent;
          break;
        }
        if (consecutiveFormatErrors >= setup.maxConsecutiveFormatErrors) {
          endedBy = "format";
          break;
        }
        // Same observation again, told why the last output could not be used.
        const event: EnvEvent = { type: FORMAT_ERROR_EVENT, text: usable.error };
        presented = { ...observation, events: [...observation.events, event] };
        continue;
      }
      step.action = usable.action;
      if (overspent) {
        endedBy = overspent;
        break;
      }
      consecutiveFormatErrors = 0;
      const result = await env.step(usable.action);
      const { observation: next, ...rest } = result;
      step.result = rest;
      if (result.info.invalid) invalidActions++;
      observation = next;
      presented = next;
      if (result.terminated || result.truncated) {
        endedBy = "terminated";
        truncated = result.truncated && !result.terminated;
        break;
      }
      if (usable.action.kind === "finish" && !result.info.invalid) {
        endedBy = "finished";
        break;
      }
    }
  } catch (e) {
    if (signal.aborted) return { kind: "abandoned" };
    // A misconfigured agent (bad options, missing key) is the user's to fix, not an episode fault.
    if (e instanceof LonghaulError && e.code === "USAGE") throw e;
    if (episodeAbort.signal.reason instanceof WallBudgetExceeded) {
      endedBy = "maxWallMs";
    } else {
      endedBy = "error";
      error = describeError(e);
    }
  } finally {
    clearTimeout(wallTimer);
    signal.removeEventListener("abort", forwardAbort);
  }

  const base = {
    episodeId,
    taskId: spec.id,
    suite: suite.id,
    family: spec.family,
    tags: spec.tags,
    epoch: planned.epoch,
    agent: agent.id,
    endedBy,
    steps: steps.length,
    invalidActions,
    formatErrors,
    ...(observation?.simTime !== undefined ? { simTime: observation.simTime } : {}),
    usage,
  };
  const trace = (record: EpisodeRecord): Trace | undefined =>
    card && {
      episodeId,
      taskId: spec.id,
      suite: suite.id,
      seed: setup.seed,
      card,
      steps,
      ...(observation ? { final: observation } : {}),
      record,
    };
  const invalid = (message: string): EpisodeResult => {
    const record: EpisodeRecord = {
      ...base,
      endedBy: "error",
      status: "invalid",
      category: "ERR",
      wallMs: wallMs(),
      metrics: {},
      error: message,
    };
    return { kind: "done", record, trace: trace(record) };
  };
  if (error !== undefined || !env || !card) return invalid(error ?? "episode did not start");

  try {
    const outcome = env.outcome();
    const provisional: EpisodeRecord = {
      ...base,
      status: outcome.success ? "success" : "failure",
      wallMs: wallMs(),
      metrics: {},
    };
    const draft = trace(provisional) as Trace;
    const score = parseOrThrow(
      EpisodeScore,
      suite.score(spec, outcome, { ...draft, outcome }),
      `score of ${episodeId}`,
    );
    await session?.end?.({ success: score.success, steps: steps.length });
    const record: EpisodeRecord = {
      ...base,
      status: score.success ? "success" : "failure",
      ...(score.success ? {} : { category: score.category ?? genericCategory(endedBy, truncated) }),
      wallMs: wallMs(),
      metrics: score.metrics,
    };
    return { kind: "done", record, trace: { ...draft, outcome, score, record } };
  } catch (e) {
    if (signal.aborted) return { kind: "abandoned" };
    return invalid(describeError(e));
  }
}

/** Free the environment; a failing close never changes the episode's result. */
async function closeQuietly(env: Environment | undefined): Promise<void> {
  try {
    await env?.close?.();
  } catch {
    // The episode is already decided; a leak is preferable to losing its record.
  }
}

/** A one-line description of a thrown value for the record. */
function describeError(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
