/**
 * The runner's driver of one episode: the agent decides, the episode session applies. Budgets,
 * format errors, recording and scoring all live in the session; this loop only asks the agent.
 */
import {
  type AccessProfile,
  type Agent,
  type AgentContext,
  type AgentSession,
  type Budgets,
  type CallGate,
  copyJson,
  DEFAULT_ACCESS,
  type EpisodeRecord,
  GOAL_STATE_ACCESS,
  GOAL_STATE_GRANT,
  type Json,
  LonghaulError,
  PRIVILEGED_ACCESS,
  rngFor,
  type Suite,
  type Trace,
} from "../core/index.ts";
import type { PlannedEpisode } from "./plan.ts";
import { baseOf, invalidRecord } from "./scoring.ts";
import { describeError, EpisodeSession, type FinishedEpisode } from "./session.ts";

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
  /** In a stream: the memory the stream's previous episode handed forward. */
  memory?: Json;
}

/**
 * A finished episode (its record and trace; no trace if the environment could not be made) and,
 * in a stream, the memory it hands to the next episode; or abandoned by the run's signal.
 */
export type EpisodeResult =
  | { kind: "done"; record: EpisodeRecord; trace?: Trace; memory?: Json }
  | { kind: "abandoned" };

/**
 * The access an agent gets unless the run says otherwise: privileged for oracles, the goal
 * state for agents that ask for it, observation only for the rest.
 */
export function accessFor(agent: Agent): AccessProfile {
  if (agent.privileged) return PRIVILEGED_ACCESS;
  return agent.grants?.includes(GOAL_STATE_GRANT) ? GOAL_STATE_ACCESS : DEFAULT_ACCESS;
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

/** A USAGE error (a misconfigured agent): the user's to fix, so it stops the run. */
function isUsage(e: unknown): boolean {
  return e instanceof LonghaulError && e.code === "USAGE";
}

/**
 * Run one planned episode to its end. Agent, environment and scorer faults make the episode
 * invalid (ERR); only a USAGE error from the agent is thrown, to stop the run.
 */
export async function runEpisode<P>(setup: EpisodeSetup<P>): Promise<EpisodeResult> {
  const { agent, planned, signal } = setup;
  if (signal.aborted) return { kind: "abandoned" };
  const session = await EpisodeSession.open({
    suite: setup.suite,
    spec: planned.spec,
    agent: agent.id,
    epoch: planned.epoch,
    episodeId: planned.episodeId,
    access: setup.access,
    ...(setup.budgets ? { budgets: setup.budgets } : {}),
    seed: setup.seed,
    maxConsecutiveFormatErrors: setup.maxConsecutiveFormatErrors,
    signal,
    ...(planned.stream ? { stream: planned.stream } : {}),
  });
  let agentSession: AgentSession | undefined;
  let error: string | undefined;
  try {
    if (!session.ended) {
      agentSession = await unlessAborted(
        agent.start(session.card, contextFor(setup, session)),
        session.signal,
      );
      let observation = session.observation;
      while (!session.ended) {
        const decision = await unlessAborted(agentSession.act(observation), session.signal);
        observation = (await session.submit(decision)).observation;
      }
    }
  } catch (e) {
    if (signal.aborted || isUsage(e)) {
      await session.close().catch(() => undefined);
      if (signal.aborted) return { kind: "abandoned" };
      throw e;
    }
    // A wall-clock timeout has already ended the session; anything else is a fault.
    if (!session.ended) error = describeError(e);
  }
  const finished = await session.finish(
    error !== undefined ? { endedBy: "error", error } : undefined,
  );
  if (signal.aborted) return { kind: "abandoned" };
  try {
    await agentSession?.end?.({
      success: finished.record.status === "success",
      steps: finished.record.steps,
    });
    const memory = planned.stream ? await memoryAfter(agentSession, setup.memory) : undefined;
    return { kind: "done", ...finished, ...(memory !== undefined ? { memory } : {}) };
  } catch (e) {
    if (isUsage(e)) throw e;
    return {
      kind: "done",
      ...asInvalid(finished, describeError(e), session.wallMs()),
      ...(setup.memory !== undefined ? { memory: setup.memory } : {}),
    };
  }
}

/** What the agent is told at the start of an episode. */
function contextFor<P>(setup: EpisodeSetup<P>, session: EpisodeSession<P>): AgentContext {
  const { agent, planned } = setup;
  return {
    episodeId: planned.episodeId,
    epoch: planned.epoch,
    rng: rngFor(setup.seed, `agent:${agent.id}:${planned.episodeId}`),
    signal: session.signal,
    budgets: session.card.budgets,
    access: setup.access,
    gate: setup.gate,
    ...(setup.access.privileged
      ? { privileged: { spec: planned.spec, latent: () => session.latent() } }
      : {}),
    ...(session.grantsGoalState ? { goalState: () => session.goalState() } : {}),
    ...(planned.stream ? { stream: planned.stream } : {}),
    ...(setup.memory !== undefined ? { memory: setup.memory } : {}),
  };
}

/** The agent's memory after an episode (a JSON copy), or the memory it started with. */
async function memoryAfter(
  session: AgentSession | undefined,
  before: Json | undefined,
): Promise<Json | undefined> {
  if (!session?.snapshot) return before;
  return copyJson(await session.snapshot());
}

/** The same episode made invalid (ERR) by a fault after play, e.g. in the agent's end(). */
function asInvalid(finished: FinishedEpisode, message: string, wallMs: number): FinishedEpisode {
  const record = invalidRecord({ ...baseOf(finished.record), endedBy: "error" }, wallMs, message);
  return { record, ...(finished.trace ? { trace: { ...finished.trace, record } } : {}) };
}
