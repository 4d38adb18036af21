/** A task card and agent context for driving agents against the provider stubs. */
import {
  AdaptiveLimiter,
  type AgentContext,
  DEFAULT_ACCESS,
  type Observation,
  Rng,
  type TaskCard,
} from "../../src/core/index.ts";

/** A card with a robot-addressed tool, a plain tool and the say/finish modes. */
export const FIXTURE_CARD: TaskCard = {
  id: "fixture-1",
  suite: "fixture",
  title: "Stack the blocks",
  instructions: "Put block a on block b.",
  tools: [
    {
      name: "move",
      description: "Move an object onto another.",
      parameters: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: {
          object: { type: "string" },
          onto: { type: "string" },
          steps: { type: "integer", minimum: 1 },
        },
        required: ["object", "onto"],
        additionalProperties: false,
      },
      robot: true,
    },
    {
      name: "look",
      description: "Look around.",
      parameters: { type: "object", properties: {}, additionalProperties: false },
    },
  ],
  modes: ["tool", "say", "finish"],
  rules: ["One robot call per robot per decision."],
  budgets: {},
  access: DEFAULT_ACCESS,
};

/** An observation at `step` with one event. */
export function fixtureObservation(step: number): Observation {
  return {
    step,
    events: [{ type: "instruction", text: `step ${step}` }],
    view: { blocks: ["a", "b"] },
  };
}

/** An agent context with a real AdaptiveLimiter as the gate. */
export function fixtureContext(
  options: { gate?: AdaptiveLimiter; signal?: AbortSignal; epoch?: number } = {},
): AgentContext {
  return {
    episodeId: "fixture-1#0",
    epoch: options.epoch ?? 0,
    rng: new Rng("fixture", "agent"),
    signal: options.signal ?? new AbortController().signal,
    budgets: {},
    access: DEFAULT_ACCESS,
    gate: options.gate ?? new AdaptiveLimiter(8),
  };
}
