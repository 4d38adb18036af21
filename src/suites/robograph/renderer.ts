/**
 * The closed-loop harness of appendix B for the generic llm agent: the system prompt, the
 * user payload of Figures 10-12 (stateless: each decision is one fresh prompt carrying the
 * 16 most recent steps) and the parser of the structured output schema.
 */
import { z } from "zod";
import {
  type Action,
  formatZodError,
  type Observation,
  type ParsedReply,
  type Renderer,
  type TaskCard,
  type TraceStep,
} from "../../core/index.ts";
import { catalogFor } from "../../world/index.ts";
import { ACTION_CONSTRAINTS, type RoboGraphView } from "./environment.ts";
import { RecoveryField } from "./metrics.ts";

/** The system prompt of appendix B. */
export const SYSTEM_PROMPT = [
  "You are a policy for high-level embodied task evaluation.",
  "Choose exactly one semantic action using the action catalog and the provided observation.",
  "Output strict JSON only.",
].join("\n");

/** Inference steps of history in each request. */
export const HISTORY_WINDOW = 16;

const OUTPUT_SCHEMA = {
  reason:
    "short rationale that assesses the previous action outcome from the current observation, then explains the selected current action",
  recovery: {
    required:
      "true when the current observation shows the previous task action failed and this action corrects its consequences or retries it",
    failed_action: "previous task action name when required, otherwise null",
    failed_node_ids:
      "node_ids of the previous failed action when required, otherwise []; order is ignored for attach and preserved for directional actions",
  },
  action: {
    name: "one semantic action name from action_catalog",
    object: "observed object identifier when applicable",
    target: "observed target identifier when applicable",
    node_ids: "ordered observed object and target identifiers when applicable",
  },
};

/** The reply schema of Figure 12. */
export const Reply = z.object({
  reason: z.string(),
  recovery: RecoveryField.optional(),
  action: z.object({
    name: z.string().min(1),
    object: z.string().nullish(),
    target: z.string().nullish(),
    node_ids: z.array(z.string()).optional(),
  }),
});

function catalogRecords(navigation: boolean): Record<string, unknown> {
  return Object.fromEntries(
    catalogFor(navigation).map((s) => [
      s.name,
      {
        description: s.description,
        parameters: s.parameters,
        required_free_hands: s.requiredFreeHands,
        held_object_required: s.heldObjectRequired,
        hand_result: s.handResult,
        failure_injectable: s.failureInjectable,
      },
    ]),
  );
}

/** The action name and node ids of a logged step, as the history and the reply name them. */
function actionOf(step: TraceStep): {
  name: string;
  node_ids: string[];
  args: Record<string, unknown>;
} {
  const call = step.action?.kind === "tool" ? step.action.calls[0] : undefined;
  const name = step.action?.kind === "finish" ? "stop" : (call?.tool ?? "none");
  const args = (call?.args ?? {}) as Record<string, unknown>;
  const ids = Array.isArray(args.node_ids)
    ? (args.node_ids as string[])
    : [args.object, args.target].filter((v): v is string => typeof v === "string");
  return { name, node_ids: ids, args };
}

/** The outcome the environment reported in `observation` for the action before it. */
function outcomeIn(
  observation: Observation,
): { status?: unknown; failure_type?: unknown } | undefined {
  return observation.events.find((e) => e.type === "action_succeeded" || e.type === "action_failed")
    ?.data as { status?: unknown; failure_type?: unknown } | undefined;
}

/**
 * One recent_history entry (Figure 11). The outcome of a step is read from the observation
 * that followed it (the environment's action event), which is what an agent's own history
 * holds; an unusable reply never reached the environment and reads as a format error.
 */
function historyEntry(step: TraceStep, next: Observation) {
  const { name, node_ids: ids } = actionOf(step);
  const outcome = outcomeIn(next);
  return {
    step: step.observation.step,
    action: { name, node_ids: ids },
    event: step.formatError
      ? { status: "failure", failure_type: "format_error" }
      : {
          status: outcome?.status === "success" ? "success" : "failure",
          failure_type: typeof outcome?.failure_type === "string" ? outcome.failure_type : null,
        },
  };
}

/** The user payload object of Figures 10-12 for one decision. */
export function userPayload(
  observation: Observation,
  history: readonly TraceStep[],
): Record<string, unknown> {
  const view = observation.view as RoboGraphView;
  const obs = view.current_observation;
  return {
    task: view.task,
    task_type: view.task_type,
    settings: view.settings,
    success_criterion: view.success_criterion,
    step: view.step,
    action_catalog: catalogRecords(obs.robot.navigation_enabled),
    action_constraints: ACTION_CONSTRAINTS,
    observation_timing: {
      current_observation: "after the previous task action, before the selected current action",
      recovery_assessment: "judge the previous task action from the current observation",
    },
    recent_history: history
      .slice(-HISTORY_WINDOW)
      .map((step, k, window) => historyEntry(step, window[k + 1]?.observation ?? observation)),
    current_observation: {
      visible_nodes: obs.visible_nodes,
      visible_edges: obs.visible_edges,
      held_objects: obs.held_objects,
      robot: obs.robot,
    },
    output_schema: OUTPUT_SCHEMA,
  };
}

function extractJson(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  const body = (fenced?.[1] ?? text).trim();
  const start = body.indexOf("{");
  const end = body.lastIndexOf("}");
  return JSON.parse(start >= 0 && end > start ? body.slice(start, end + 1) : body);
}

/** Parse a reply into an Action plus the reason and recovery fields (Decision.extra). */
export function parseReply(text: string): ParsedReply {
  let data: unknown;
  try {
    data = extractJson(text);
  } catch {
    return { ok: false, error: "reply is not a JSON object" };
  }
  const parsed = Reply.safeParse(data);
  if (!parsed.success) return { ok: false, error: formatZodError(parsed.error) };
  const { reason, recovery, action } = parsed.data;
  const args: Record<string, unknown> = {};
  if (action.object) args.object = action.object;
  if (action.target) args.target = action.target;
  if (action.node_ids && action.node_ids.length > 0) args.node_ids = action.node_ids;
  const out: Action =
    action.name === "stop"
      ? { kind: "finish" }
      : { kind: "tool", calls: [{ tool: action.name, args }] };
  return {
    ok: true,
    action: out,
    note: reason,
    extra: recovery ? { reason, recovery } : { reason },
  };
}

/**
 * The appendix B reply that makes a logged decision: its action, the decision's reason (its
 * note) and its recovery block, or, when the decision declared none (the oracle), the label the
 * scorer judges against: required when the previous executed action failed, naming it.
 */
export function replyFor(step: TraceStep, before: readonly TraceStep[]): string {
  const { name, args } = actionOf(step);
  const extra = step.extra ?? {};
  const declared = RecoveryField.safeParse(extra.recovery);
  let recovery: RecoveryField;
  if (declared.success) recovery = declared.data;
  else {
    // The previous executed action and its outcome, as this step's observation reports it.
    const previous = before.findLast((s) => s.action !== undefined && !s.formatError);
    const failed = previous !== undefined && outcomeIn(step.observation)?.status !== "success";
    const prior = previous && actionOf(previous);
    recovery =
      failed && prior
        ? { required: true, failed_action: prior.name, failed_node_ids: prior.node_ids }
        : { required: false, failed_action: null, failed_node_ids: [] };
  }
  const action: Record<string, unknown> = { name };
  if (typeof args.object === "string") action.object = args.object;
  if (typeof args.target === "string") action.target = args.target;
  if (Array.isArray(args.node_ids)) action.node_ids = args.node_ids;
  const reason = typeof extra.reason === "string" ? extra.reason : (step.note ?? "");
  return JSON.stringify({ reason, recovery, action });
}

/** RoboGraph's harness for the generic llm agent. */
export const robographRenderer: Renderer = {
  output: "json",
  context: "stateless",
  system: (_card: TaskCard) => SYSTEM_PROMPT,
  user: (observation, state) => JSON.stringify(userPayload(observation, state.history), null, 2),
  parse: (text) => parseReply(text),
  reply: (step, before) => replyFor(step, before),
};
