import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AdaptiveLimiter,
  type AgentContext,
  DEFAULT_ACCESS,
  type Observation,
  Rng,
  type TaskCard,
} from "../../core/index.ts";
import { createRandomAgent } from "./index.ts";

const card: TaskCard = {
  id: "t",
  suite: "s",
  title: "t",
  instructions: "",
  tools: [
    {
      name: "pick",
      description: "",
      parameters: {
        type: "object",
        properties: {
          object: { enum: ["cup", "plate"] },
          hand: { type: "integer", minimum: 0, maximum: 1 },
        },
        required: ["object"],
        additionalProperties: false,
      },
      robot: true,
    },
    {
      name: "place",
      description: "",
      parameters: {
        type: "object",
        properties: { at: { type: "array", items: { type: "number" }, minItems: 2, maxItems: 2 } },
        required: ["at"],
      },
    },
  ],
  modes: ["tool", "say", "finish"],
  rules: [],
  budgets: {},
  access: DEFAULT_ACCESS,
};
const validators = new Map(
  card.tools.map((t) => [t.name, z.fromJSONSchema(t.parameters as never)]),
);
const obs: Observation = { step: 0, events: [], view: null };
const context = (seed: string): AgentContext => ({
  episodeId: "e",
  epoch: 0,
  rng: new Rng(seed, "agent"),
  signal: new AbortController().signal,
  budgets: {},
  access: DEFAULT_ACCESS,
  gate: new AdaptiveLimiter(1),
});

describe("random agent", () => {
  it("calls card tools with arguments that validate against their schemas", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), async (seed) => {
        const session = await createRandomAgent({ robots: ["r1", "r2"] }).start(
          card,
          context(seed),
        );
        for (let i = 0; i < 10; i++) {
          const { action } = await session.act(obs);
          if (action?.kind !== "tool") continue;
          for (const call of action.calls) {
            expect(validators.get(call.tool)?.safeParse(call.args).success).toBe(true);
            if (call.tool === "pick") expect(["r1", "r2"]).toContain(call.robot);
          }
        }
      }),
      { numRuns: 50 },
    );
  });

  it("draws uniformly over tools and the other modes, deterministically per seed", async () => {
    const kinds = async (seed: string) => {
      const session = await createRandomAgent().start(card, context(seed));
      const out: string[] = [];
      for (let i = 0; i < 400; i++) {
        const { action } = await session.act(obs);
        out.push(action?.kind === "tool" ? action.calls[0]!.tool : action!.kind);
      }
      return out;
    };
    const drawn = await kinds("u");
    expect(await kinds("u")).toEqual(drawn);
    for (const choice of ["pick", "place", "say", "finish"]) {
      const share = drawn.filter((k) => k === choice).length / drawn.length;
      expect(share).toBeGreaterThan(0.15);
      expect(share).toBeLessThan(0.35);
    }
  });

  it("rejects bad options and a card that offers nothing", async () => {
    expect(() => createRandomAgent({ robots: [] })).toThrow(/invalid random agent options: robots/);
    const empty = { ...card, tools: [], modes: ["tool" as const] };
    expect(() => createRandomAgent().start(empty, context("x"))).toThrow(
      /offers no tool and no mode/,
    );
  });
});
