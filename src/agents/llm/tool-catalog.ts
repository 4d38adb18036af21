/**
 * The tools a model sees for one task card: the card's tools (robot-addressed ones take a
 * `robot` argument) plus say/wait/finish pseudo-tools for the modes the card accepts, with
 * argument validators compiled from their JSON Schemas, and the checks that turn model tool
 * calls (native or JSON) into Actions or format errors naming the path of what is wrong.
 */
import { z } from "zod";
import {
  type Action,
  formatPath,
  LonghaulError,
  type ParsedReply,
  type TaskCard,
  type ToolCall,
} from "../../core/index.ts";
import type { FunctionTool, RawToolCall } from "./providers/index.ts";

type PseudoMode = "say" | "wait" | "finish";

interface CatalogEntry {
  tool: FunctionTool;
  /** Set for the card's tools; pseudo-tools map to an Action kind instead. */
  robot?: boolean;
  pseudo?: PseudoMode;
  validator: z.ZodType;
}

const PSEUDO_TOOLS: Record<PseudoMode, FunctionTool> = {
  say: {
    name: "say",
    description: "Say something to the user (an answer, a question or a document).",
    parameters: {
      type: "object",
      properties: { text: { type: "string", description: "what to say" } },
      required: ["text"],
      additionalProperties: false,
    },
  },
  wait: {
    name: "wait",
    description: "Do nothing and wait for the next events.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
  },
  finish: {
    name: "finish",
    description: "Finish the episode, optionally with a final answer.",
    parameters: {
      type: "object",
      properties: { answer: { type: "string", description: "final answer, if any" } },
      additionalProperties: false,
    },
  },
};

const ROBOT_PARAMETER = { type: "string", description: "id of the robot that executes this call" };

/** The tools of one card, and the validation of calls against them. */
export class ToolCatalog {
  private readonly entries = new Map<string, CatalogEntry>();

  constructor(private readonly card: TaskCard) {
    if (card.modes.includes("tool")) {
      for (const spec of card.tools) {
        const { $schema: _dialect, ...schema } = spec.parameters;
        const parameters = spec.robot ? withRobot(schema) : schema;
        this.add({ name: spec.name, description: spec.description, parameters }, spec.robot);
      }
    }
    for (const mode of ["say", "wait", "finish"] as const) {
      // A card tool of the same name wins: the card is the suite's word.
      if (card.modes.includes(mode) && !this.entries.has(mode)) {
        this.add(PSEUDO_TOOLS[mode], undefined, mode);
      }
    }
  }

  /** The function tools to offer the model. */
  get tools(): FunctionTool[] {
    return [...this.entries.values()].map((entry) => entry.tool);
  }

  /** Native tool calls -> an Action, or a format error with the path of what is wrong. */
  fromToolCalls(calls: RawToolCall[]): ParsedReply {
    if (calls.length === 0) {
      return { ok: false, error: `the reply calls no tool; call one of: ${this.names()}` };
    }
    const toolCalls: ToolCall[] = [];
    for (const [index, call] of calls.entries()) {
      const at = `calls[${index}]`;
      const entry = this.entries.get(call.name);
      if (!entry) return { ok: false, error: `${at}: ${this.unknown(call.name)}` };
      let args: unknown;
      try {
        args = JSON.parse(call.argumentsJson || "{}");
      } catch (error) {
        return {
          ok: false,
          error: `${at}.arguments: invalid JSON for tool "${call.name}": ${(error as Error).message}`,
        };
      }
      const problem = this.check(entry, args, `${at}.arguments`);
      if (problem) return { ok: false, error: problem };
      const checked = args as Record<string, unknown>;
      if (entry.pseudo) {
        if (calls.length > 1) {
          return { ok: false, error: `${at}: "${call.name}" must be the only call of a reply` };
        }
        return { ok: true, action: pseudoAction(entry.pseudo, checked) };
      }
      const { robot, ...rest } = checked;
      const toolCall: ToolCall = {
        tool: call.name,
        args: entry.robot ? rest : checked,
        id: call.id,
      };
      if (entry.robot) toolCall.robot = robot as string;
      toolCalls.push(toolCall);
    }
    return { ok: true, action: { kind: "tool", calls: toolCalls } };
  }

  /**
   * The tool calls a model makes for `action` (the inverse of fromToolCalls), for training
   * targets: robot-addressed calls carry their robot as the `robot` argument.
   */
  toToolCalls(action: Action): { name: string; arguments: Record<string, unknown> }[] {
    if (action.kind === "say") return [{ name: "say", arguments: { text: action.text } }];
    if (action.kind === "wait") return [{ name: "wait", arguments: {} }];
    if (action.kind === "finish") {
      return [
        { name: "finish", arguments: action.answer === undefined ? {} : { answer: action.answer } },
      ];
    }
    return action.calls.map((call) => ({
      name: call.tool,
      arguments: call.robot === undefined ? call.args : { ...call.args, robot: call.robot },
    }));
  }

  /** Check an Action parsed from reply text against the card's modes and tools. */
  checkAction(action: Action): string | undefined {
    if (!this.card.modes.includes(action.kind)) {
      return `kind: "${action.kind}" is not accepted here; use one of: ${this.card.modes.join(", ")}`;
    }
    if (action.kind !== "tool") return undefined;
    for (const [index, call] of action.calls.entries()) {
      const at = `calls[${index}]`;
      const entry = this.entries.get(call.tool);
      if (!entry || entry.pseudo) return `${at}.tool: ${this.unknown(call.tool)}`;
      if (entry.robot && call.robot === undefined) {
        return `${at}.robot: required for tool "${call.tool}"`;
      }
      const args = entry.robot ? { ...call.args, robot: call.robot } : call.args;
      const problem = this.check(entry, args, `${at}.args`);
      if (problem) return problem;
    }
    return undefined;
  }

  /** The catalog and reply format for models without tool calling (the JSON fallback). */
  describeForJson(): string {
    const modes = this.card.modes;
    const lines = ["Reply with exactly one JSON object and nothing else, one of:"];
    if (modes.includes("tool")) {
      lines.push(
        '{"kind":"tool","calls":[{"tool":"<tool name>","args":{...},"robot":"<robot id, only for robot tools>"}]}' +
          " (several calls address several robots, one call each)",
      );
    }
    if (modes.includes("say")) lines.push('{"kind":"say","text":"..."}');
    if (modes.includes("wait")) lines.push('{"kind":"wait"}');
    if (modes.includes("finish")) lines.push('{"kind":"finish","answer":"<optional>"}');
    if (modes.includes("tool") && this.card.tools.length > 0) {
      lines.push("", "Tools (args follow the JSON Schema shown):");
      for (const spec of this.card.tools) {
        const robot = spec.robot ? ' Needs "robot".' : "";
        lines.push(
          `- ${spec.name}: ${spec.description}${robot} args: ${JSON.stringify(spec.parameters)}`,
        );
      }
    }
    return lines.join("\n");
  }

  private add(tool: FunctionTool, robot?: boolean, pseudo?: PseudoMode): void {
    let validator: z.ZodType;
    try {
      validator = z.fromJSONSchema(tool.parameters as Parameters<typeof z.fromJSONSchema>[0]);
    } catch (error) {
      throw new LonghaulError(
        "INVALID_INPUT",
        `tool "${tool.name}" has parameters llm cannot compile: ${(error as Error).message}`,
      );
    }
    const entry: CatalogEntry = { tool, validator };
    if (robot) entry.robot = true;
    if (pseudo) entry.pseudo = pseudo;
    this.entries.set(tool.name, entry);
  }

  private check(entry: CatalogEntry, args: unknown, at: string): string | undefined {
    const result = entry.validator.safeParse(args);
    if (result.success) return undefined;
    return result.error.issues
      .map((issue) => {
        const path = issue.path.length > 0 ? `${at}.${formatPath(issue.path)}` : at;
        return `${path}: ${issue.message} (tool "${entry.tool.name}")`;
      })
      .join("; ");
  }

  private unknown(name: string): string {
    return `unknown tool "${name}"; available: ${this.names()}`;
  }

  private names(): string {
    return [...this.entries.keys()].join(", ");
  }
}

function withRobot(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties as Record<string, unknown> | undefined) ?? {};
  const required = (schema.required as string[] | undefined) ?? [];
  return {
    ...schema,
    type: "object",
    properties: { ...properties, robot: ROBOT_PARAMETER },
    required: [...required, "robot"],
  };
}

function pseudoAction(mode: PseudoMode, args: Record<string, unknown>): Action {
  if (mode === "say") return { kind: "say", text: args.text as string };
  if (mode === "wait") return { kind: "wait" };
  return args.answer === undefined
    ? { kind: "finish" }
    : { kind: "finish", answer: args.answer as string };
}
