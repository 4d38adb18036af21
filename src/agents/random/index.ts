/**
 * The `random` agent: each decision picks uniformly among the card's tools (when the tool
 * mode is open) and its other modes, with schema-valid random arguments from ctx.rng.
 */
import { z } from "zod";
import {
  type Action,
  type Agent,
  type AgentOptions,
  defineAgent,
  formatZodError,
  LonghaulError,
  type Rng,
  type TaskCard,
  type ToolSpec,
} from "../../core/index.ts";
import { sampleJson } from "./sample-json.ts";

export { type JsonSchema, sampleJson } from "./sample-json.ts";

/** Options of the random agent. */
export const RandomAgentOptions = z
  .object({
    robots: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe("robot names for tools addressed to a robot (one is drawn per call)"),
  })
  .strict();

/** One choice of the uniform draw: a tool, or a non-tool mode. */
type Choice = { tool: ToolSpec } | { mode: "say" | "wait" | "finish" };

/** Every choice a card offers: one per tool, one per other mode. */
function choicesOf(card: TaskCard): Choice[] {
  const tools = card.modes.includes("tool") ? card.tools.map((tool) => ({ tool })) : [];
  const modes = card.modes.flatMap((mode) => (mode === "tool" ? [] : [{ mode }]));
  return [...tools, ...modes];
}

/** A random action for one choice. */
function actionFor(choice: Choice, rng: Rng, robots: string[] | undefined): Action {
  if ("mode" in choice) {
    if (choice.mode === "say")
      return { kind: "say", text: sampleJson({ type: "string", minLength: 1 }, rng) as string };
    return { kind: choice.mode };
  }
  const { tool } = choice;
  const args = sampleJson(tool.parameters, rng) as Record<string, unknown>;
  const robot = tool.robot && robots ? rng.pick(robots) : undefined;
  return { kind: "tool", calls: [{ tool: tool.name, args, ...(robot ? { robot } : {}) }] };
}

/** Create the random agent. */
export function createRandomAgent(options: AgentOptions = {}): Agent {
  const parsed = RandomAgentOptions.safeParse(options);
  if (!parsed.success) {
    throw new LonghaulError(
      "USAGE",
      `invalid random agent options: ${formatZodError(parsed.error)}`,
    );
  }
  const { robots } = parsed.data;
  return {
    id: "random",
    start(card, ctx) {
      const choices = choicesOf(card);
      if (choices.length === 0) {
        throw new LonghaulError("INVALID_INPUT", `task card ${card.id} offers no tool and no mode`);
      }
      return {
        act: async () => {
          const action = actionFor(ctx.rng.pick(choices), ctx.rng, robots);
          return { action, raw: JSON.stringify(action) };
        },
      };
    },
  };
}

/** The `random` agent's factory. */
export const randomAgent = defineAgent({
  name: "random",
  description: "uniform over the card's modes and tools, schema-valid random arguments (seeded)",
  options: RandomAgentOptions,
  create: (options) => createRandomAgent(options),
});
