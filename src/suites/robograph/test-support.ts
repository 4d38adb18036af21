/** Builders of hand-made traces and outcome logs for the suite's golden tests. */
import {
  type Action,
  DEFAULT_ACCESS,
  emptyUsage,
  type Trace,
  type TraceStep,
} from "../../core/index.ts";
import type { OutcomeData, StepLog } from "./outcome.ts";

/** A step log with the given action and distances; unspecified fields take neutral values. */
export function stepLog(
  step: number,
  call: string,
  dist: [number, number],
  extra: Partial<StepLog> = {},
): StepLog {
  const match = /^(\w+)\((.*)\)$/.exec(call);
  const action = match?.[1] ?? call;
  const nodeIds = match?.[2] ? match[2].split(",").map((s) => s.trim()) : [];
  return {
    step,
    action,
    nodeIds,
    nodeNames: nodeIds.map((id) => `${id} name`),
    status: "success",
    failureType: null,
    injected: false,
    distanceBefore: dist[0],
    distanceAfter: dist[1],
    revealed: [],
    goalSatisfied: 0,
    ...extra,
  };
}

/** A trace of executed steps carrying the given reply extras (one per step log, in order). */
export function traceOf(
  outcome: OutcomeData,
  extras: (Record<string, unknown> | undefined)[],
): Trace {
  const steps: TraceStep[] = outcome.steps.map((s, i) => {
    const action: Action =
      s.action === "stop"
        ? { kind: "finish" }
        : { kind: "tool", calls: [{ tool: s.action, args: { node_ids: s.nodeIds } }] };
    const extra = extras[i];
    return {
      step: s.step,
      observation: { step: s.step, events: [], view: null },
      action,
      ...(extra ? { extra } : {}),
      // Every logged environment step was executed, so its trace step has a result.
      result: { reward: 0, terminated: s.action === "stop", truncated: false, info: {} },
    };
  });
  return {
    episodeId: "e",
    taskId: "t",
    suite: "robograph",
    seed: "s",
    card: {
      id: "t",
      suite: "robograph",
      title: "t",
      instructions: "",
      tools: [],
      modes: ["tool", "finish"],
      rules: [],
      budgets: { maxSteps: 100 },
      access: DEFAULT_ACCESS,
    },
    steps,
    record: {
      episodeId: "e",
      taskId: "t",
      suite: "robograph",
      family: "f",
      tags: {},
      epoch: 0,
      agent: "a",
      status: "success",
      endedBy: "finished",
      steps: steps.length,
      invalidActions: 0,
      formatErrors: 0,
      wallMs: 0,
      usage: emptyUsage(),
      metrics: {},
    },
  };
}

/** A recovery reply extra. */
export function recovery(
  required: boolean,
  failedAction: string | null = null,
  ids: string[] = [],
) {
  return { reason: "r", recovery: { required, failed_action: failedAction, failed_node_ids: ids } };
}
