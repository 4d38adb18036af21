/**
 * The `explicit` strategy's task state: facts and goals kept by a state manager through
 * add/remove/complete operations offered as tools (MAGMA-Bench 5.1, "a structured state
 * maintained through operations such as adding facts and adding or removing goals").
 */
import type { FunctionTool, RawToolCall } from "../providers/index.ts";

const TEXT = {
  type: "object",
  properties: { text: { type: "string", minLength: 1 } },
  required: ["text"],
  additionalProperties: false,
};
const ID = {
  type: "object",
  properties: { id: { type: "string", description: "the id shown in the state, e.g. f2 or g1" } },
  required: ["id"],
  additionalProperties: false,
};

/** The operations the state manager may call, each as a function tool. */
export const STATE_TOOLS: FunctionTool[] = [
  { name: "add_fact", description: "Record a fact worth remembering.", parameters: TEXT },
  { name: "remove_fact", description: "Forget a fact that no longer holds.", parameters: ID },
  { name: "add_goal", description: "Add a goal still to achieve.", parameters: TEXT },
  { name: "complete_goal", description: "Mark a goal as achieved.", parameters: ID },
  { name: "remove_goal", description: "Drop a goal that no longer applies.", parameters: ID },
];

interface Goal {
  text: string;
  done: boolean;
}

/** Facts and goals with stable ids (f1, f2, ... and g1, g2, ...). */
export class ExplicitState {
  private readonly facts = new Map<string, string>();
  private readonly goals = new Map<string, Goal>();
  private nextFact = 1;
  private nextGoal = 1;

  /** Apply the manager's tool calls in order; returns one problem per call that failed. */
  apply(calls: readonly RawToolCall[]): string[] {
    const problems: string[] = [];
    for (const [i, call] of calls.entries()) {
      const problem = this.applyOne(call);
      if (problem) problems.push(`calls[${i}] ${call.name}: ${problem}`);
    }
    return problems;
  }

  /** The state as the dispatcher and the manager read it. */
  render(): string {
    const remaining = [...this.goals].filter(([, g]) => !g.done);
    const completed = [...this.goals].filter(([, g]) => g.done);
    const list = (items: [string, string][]) =>
      items.length === 0 ? ["- (none)"] : items.map(([id, text]) => `- [${id}] ${text}`);
    return [
      "Facts:",
      ...list([...this.facts]),
      "Remaining goals:",
      ...list(remaining.map(([id, g]) => [id, g.text])),
      "Completed goals:",
      ...list(completed.map(([id, g]) => [id, g.text])),
    ].join("\n");
  }

  private applyOne(call: RawToolCall): string | undefined {
    let args: unknown;
    try {
      args = JSON.parse(call.argumentsJson || "{}");
    } catch (error) {
      return `arguments are not JSON: ${(error as Error).message}`;
    }
    const record = (typeof args === "object" && args !== null ? args : {}) as Record<
      string,
      unknown
    >;
    const text = typeof record.text === "string" ? record.text.trim() : "";
    const id = typeof record.id === "string" ? record.id : "";
    switch (call.name) {
      case "add_fact":
        if (!text) return 'needs a non-empty "text"';
        this.facts.set(`f${this.nextFact++}`, text);
        return undefined;
      case "add_goal":
        if (!text) return 'needs a non-empty "text"';
        this.goals.set(`g${this.nextGoal++}`, { text, done: false });
        return undefined;
      case "remove_fact":
        return this.facts.delete(id) ? undefined : `no fact "${id}"`;
      case "remove_goal":
        return this.goals.delete(id) ? undefined : `no goal "${id}"`;
      case "complete_goal": {
        const goal = this.goals.get(id);
        if (!goal) return `no goal "${id}"`;
        goal.done = true;
        return undefined;
      }
      default:
        return `unknown operation; use one of: ${STATE_TOOLS.map((t) => t.name).join(", ")}`;
    }
  }
}
