/**
 * The state manager of the dual-agent arrangement (MAGMA-Bench 5.1): a second model call each
 * step that keeps the task state the dispatcher sees instead of the history. Its prompt is the
 * dispatcher's system prompt plus instructions for its role; each call sees its last state, the
 * dispatcher's last decision and the new observation, so its prompt stays bounded.
 */
import type { GoalState, ModelCall } from "../../../core/index.ts";
import { type CallContext, callModel, type ModelClient } from "../model-client.ts";
import type { RequestSettings } from "../providers/index.ts";
import { stripReasoning } from "../reply-parse.ts";
import { ExplicitState, STATE_TOOLS } from "./explicit-state.ts";
import type { MemoryStrategy } from "./strategy.ts";

/** What the dispatcher's system prompt adds, per strategy, to describe the state it is given. */
export const DISPATCHER_INSTRUCTIONS: Record<"reflection" | "explicit" | "oracle-state", string> = {
  reflection:
    "Memory: you do not see the earlier interaction. Each user message opens with the task state, " +
    "a paragraph a state manager rewrites after every observation (goals and constraints given so " +
    "far, what is done, in progress or failed, what remains). It is your memory of earlier steps.",
  explicit:
    "Memory: you do not see the earlier interaction. Each user message opens with the task state a " +
    "state manager keeps: facts, remaining goals and completed goals. It is your memory of earlier steps.",
  "oracle-state":
    "Memory: you do not see the earlier interaction. Each user message opens with the task state: " +
    "the goals revealed so far, remaining and completed. It is your memory of earlier steps.",
};

/** What the state manager's system prompt adds to the dispatcher's. */
export const MANAGER_INSTRUCTIONS: Record<"reflection" | "explicit", string> = {
  reflection:
    "Your role: you are the state manager, not the one who acts. After each observation, write one " +
    "paragraph describing the task state (the goals and constraints given so far, what has been " +
    "achieved, what is in progress or failed, what remains) for an action dispatcher who sees only " +
    "your paragraph and the current observation. Reply with the paragraph only.",
  explicit:
    "Your role: you are the state manager, not the one who acts. Keep the task state up to date by " +
    "calling its operations (add_fact, remove_fact, add_goal, complete_goal, remove_goal) for an " +
    "action dispatcher who sees only this state and the current observation. Call every operation " +
    "the new observation requires, none when nothing changed; ids are shown in the state.",
};

/** The heading of the state block in the dispatcher's user message. */
export const STATE_HEADING = "Task state:";

/** The state block the dispatcher's user message opens with. */
export function stateBlock(state: string): string {
  return `${STATE_HEADING}\n${state}`;
}

/** The oracle's task state: the suite's revealed goals, remaining and completed. */
export function goalStateText(goals: GoalState | undefined): string {
  if (!goals) return "(no goal state: the environment exposes no latent state)";
  const list = (items: string[]) =>
    items.length === 0 ? ["- (none)"] : items.map((g) => `- ${g}`);
  return [
    "Remaining goals:",
    ...list(goals.remaining),
    "Completed goals:",
    ...list(goals.completed),
  ].join("\n");
}

/** How the manager is called: its client (maybe another model), settings and system prompt. */
export interface ManagerSetup {
  client: ModelClient;
  settings: RequestSettings;
  /** The dispatcher's system prompt; the manager's role is appended to it. */
  system: string;
  call: CallContext;
}

/** One episode's state manager for `reflection` or `explicit`. */
export class StateManager {
  private paragraph = "";
  private readonly explicit = new ExplicitState();
  /** Operations of the last call that failed, told to the manager on its next call. */
  private failed: string[] = [];
  private readonly system: string;

  constructor(
    private readonly kind: Extract<MemoryStrategy["kind"], "reflection" | "explicit">,
    private readonly setup: ManagerSetup,
  ) {
    this.system = `${setup.system}\n\n${MANAGER_INSTRUCTIONS[kind]}`;
  }

  /** The state the dispatcher sees now. */
  state(): string {
    if (this.kind === "explicit") return this.explicit.render();
    return this.paragraph || "(empty: the episode has just started)";
  }

  /**
   * One manager call: its state so far, the dispatcher's last decision (none at the first
   * step) and the new observation in; the updated state kept. Returns the call for the log.
   */
  async update(observation: string, lastDecision: string | undefined): Promise<ModelCall> {
    const { client, settings } = this.setup;
    const parts = [`Task state so far:\n${this.state()}`];
    if (lastDecision !== undefined) parts.push(`The dispatcher's last decision: ${lastDecision}`);
    if (this.failed.length > 0)
      parts.push(`Your last operations that failed: ${this.failed.join("; ")}`);
    parts.push(`New observation:\n${observation}`);
    const prompt = {
      system: this.system,
      turns: [{ role: "user" as const, toolResults: [], texts: [parts.join("\n\n")] }],
      tools: this.kind === "explicit" ? STATE_TOOLS : [],
    };
    const request = client.adapter.buildRequest(prompt, settings);
    const { reply, call } = await callModel(client, request, this.setup.call);
    if (this.kind === "explicit") {
      this.failed = this.explicit.apply(reply.toolCalls);
    } else {
      // An empty reply keeps the last paragraph rather than erase the dispatcher's memory.
      const text = stripReasoning(reply.text).trim();
      if (text) this.paragraph = text;
    }
    return call;
  }
}
