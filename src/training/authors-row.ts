/**
 * Rows in the MAGMA-Bench authors' format (section 4.4): the input the policy conditions on,
 * {memory, attributes, instruction, instruction_role, history}, and the target decision,
 * {say, action per robot}. Mapped from the generic protocol: attributes are the observation's
 * view (the paper's task attributes k_t), the instruction is the text of the observation's
 * event batch q_t, its role the type of the event that carries it, the history the earlier
 * decisions with the event batches they answered; memory is null (the agent kept no state
 * beyond the history). docs/training.md lists the mapping.
 */
import { z } from "zod";
import type { Action, TraceStep } from "../core/index.ts";
import type { DecisionSample } from "./sample.ts";

/** The robot key of calls that name none (single-robot suites). */
export const DEFAULT_ROBOT = "robot";

const Target = z
  .object({
    say: z.string().nullable().describe("the text said to the user, or null"),
    action: z
      .record(
        z.string(),
        z.object({ skill: z.string(), args: z.record(z.string(), z.unknown()) }).strict(),
      )
      .describe("per robot id: the skill called and its arguments; {} when none"),
    finish: z.boolean().optional().describe("true when the decision ends the episode"),
  })
  .strict();

const HistoryEntry = z
  .object({
    step: z.number().int().nonnegative(),
    events: z.array(
      z
        .object({ type: z.string(), text: z.string().optional(), robot: z.string().optional() })
        .strict(),
    ),
    decision: Target,
  })
  .strict();

/** One row of the authors' format. */
export const AuthorsRow = z
  .object({
    input: z
      .object({
        memory: z.string().nullable(),
        attributes: z.unknown(),
        instruction: z.string(),
        instruction_role: z.string().nullable(),
        history: z.array(HistoryEntry),
      })
      .strict(),
    target: Target,
  })
  .strict();
export type AuthorsRow = z.infer<typeof AuthorsRow>;

/** The target of an action: what is said, and each robot's skill call. */
export function targetOf(action: Action): z.infer<typeof Target> {
  if (action.kind === "say") return { say: action.text, action: {} };
  if (action.kind === "wait") return { say: null, action: {} };
  if (action.kind === "finish") return { say: action.answer ?? null, action: {}, finish: true };
  const perRobot: z.infer<typeof Target>["action"] = {};
  for (const call of action.calls) {
    perRobot[call.robot ?? DEFAULT_ROBOT] = { skill: call.tool, args: call.args };
  }
  return { say: null, action: perRobot };
}

function eventsOf(step: TraceStep) {
  return step.observation.events.map((e) => ({
    type: e.type,
    ...(e.text !== undefined ? { text: e.text } : {}),
    ...(e.robot !== undefined ? { robot: e.robot } : {}),
  }));
}

type HistoryEntry = z.infer<typeof HistoryEntry>;

/** An earlier decision in the history: its step, the event batch it answered, the decision. */
function historyEntry(s: TraceStep): HistoryEntry {
  return { step: s.step, events: eventsOf(s), decision: targetOf(s.action as Action) };
}

/** The input fields before the history, in the row's key order. */
function inputHead(sample: DecisionSample): Omit<AuthorsRow["input"], "history"> {
  const { step } = sample;
  const spoken = step.observation.events.filter((e) => e.text !== undefined && e.text !== "");
  return {
    memory: null,
    attributes: step.observation.view ?? null,
    instruction: spoken.map((e) => e.text).join("\n"),
    instruction_role: spoken.at(-1)?.type ?? null,
  };
}

/** The row of one decision. */
export function authorsRow(sample: DecisionSample): AuthorsRow {
  return {
    input: {
      ...inputHead(sample),
      history: sample.before.filter((s) => s.action !== undefined).map(historyEntry),
    },
    target: targetOf(sample.step.action),
  };
}

const COMMA = Buffer.from(",");

/**
 * The JSONL lines of authors' rows whose histories share steps: each history entry is
 * serialised once per step object. A line equals `JSON.stringify(authorsRow(sample))` and a
 * newline (tested). Keep one encoder per trajectory: it holds its entries.
 */
export class AuthorsLineEncoder {
  private readonly entries = new Map<TraceStep, Buffer>();

  /** The line of `sample`. */
  line(sample: DecisionSample): Buffer {
    return Buffer.concat(this.parts(sample));
  }

  /** The line of `sample` in pieces (shared entries are not copied; a task's rows join once). */
  parts(sample: DecisionSample): Buffer[] {
    const head = JSON.stringify(inputHead(sample));
    const parts: Buffer[] = [Buffer.from(`{"input":${head.slice(0, -1)},"history":[`)];
    let first = true;
    for (const s of sample.before) {
      if (s.action === undefined) continue;
      let entry = this.entries.get(s);
      if (!entry) {
        entry = Buffer.from(JSON.stringify(historyEntry(s)));
        this.entries.set(s, entry);
      }
      if (!first) parts.push(COMMA);
      parts.push(entry);
      first = false;
    }
    parts.push(Buffer.from(`]},"target":${JSON.stringify(targetOf(sample.step.action))}}\n`));
    return parts;
  }
}
