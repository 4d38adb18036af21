import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_ACCESS, type TaskCard } from "../../core/index.ts";
import { ToolCatalog } from "./tool-catalog.ts";

const CARD: TaskCard = {
  id: "t",
  suite: "s",
  title: "t",
  instructions: "",
  tools: [
    {
      name: "pick",
      description: "Pick an object up.",
      parameters: {
        type: "object",
        properties: {
          object: { type: "string", minLength: 1 },
          hand: { enum: ["left", "right"] },
          count: { type: "integer", minimum: 1, maximum: 3 },
        },
        required: ["object"],
        additionalProperties: false,
      },
      robot: true,
    },
  ],
  modes: ["tool", "wait"],
  rules: [],
  budgets: {},
  access: DEFAULT_ACCESS,
};

const validArgs = fc.record(
  {
    object: fc.string({ minLength: 1 }),
    hand: fc.constantFrom("left", "right"),
    count: fc.integer({ min: 1, max: 3 }),
  },
  { requiredKeys: ["object"] },
);

describe("tool catalog", () => {
  const catalog = new ToolCatalog(CARD);

  it("offers the card's tools with a robot argument, and pseudo-tools only for its modes", () => {
    expect(catalog.tools.map((t) => t.name)).toEqual(["pick", "wait"]);
    expect(catalog.tools[0]?.parameters).toMatchObject({ required: ["object", "robot"] });
  });

  it("turns schema-valid calls into actions, robot split from the arguments", () => {
    fc.assert(
      fc.property(validArgs, fc.string({ minLength: 1 }), (args, robot) => {
        const parsed = catalog.fromToolCalls([
          { id: "c1", name: "pick", argumentsJson: JSON.stringify({ ...args, robot }) },
        ]);
        expect(parsed).toEqual({
          ok: true,
          action: { kind: "tool", calls: [{ tool: "pick", args, robot, id: "c1" }] },
        });
        // The same call as Action JSON passes the text-reply check.
        expect(
          catalog.checkAction({ kind: "tool", calls: [{ tool: "pick", args, robot }] }),
        ).toBeUndefined();
      }),
    );
  });

  it("names the path of a schema violation", () => {
    fc.assert(
      fc.property(
        validArgs,
        fc.integer().filter((n) => n < 1 || n > 3),
        (args, count) => {
          const parsed = catalog.fromToolCalls([
            {
              id: "c",
              name: "pick",
              argumentsJson: JSON.stringify({ ...args, count, robot: "r" }),
            },
          ]);
          expect(parsed.ok).toBe(false);
          if (!parsed.ok) expect(parsed.error).toMatch(/^calls\[0\]\.arguments\.count: /);
        },
      ),
    );
    const missing = catalog.fromToolCalls([
      { id: "c", name: "pick", argumentsJson: '{"object":"x"}' },
    ]);
    expect(missing).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^calls\[0\]\.arguments\.robot: /),
    });
  });

  it("rejects a pseudo-tool mixed with other calls, and unaccepted modes in JSON", () => {
    const mixed = catalog.fromToolCalls([
      { id: "a", name: "pick", argumentsJson: '{"object":"x","robot":"r"}' },
      { id: "b", name: "wait", argumentsJson: "{}" },
    ]);
    expect(mixed).toEqual({
      ok: false,
      error: 'calls[1]: "wait" must be the only call of a reply',
    });
    expect(catalog.fromToolCalls([{ id: "w", name: "wait", argumentsJson: "" }])).toEqual({
      ok: true,
      action: { kind: "wait" },
    });
    expect(catalog.checkAction({ kind: "say", text: "hi" })).toBe(
      'kind: "say" is not accepted here; use one of: tool, wait',
    );
    expect(catalog.checkAction({ kind: "tool", calls: [{ tool: "wait", args: {} }] })).toMatch(
      /^calls\[0\]\.tool: unknown tool "wait"/,
    );
  });
});
