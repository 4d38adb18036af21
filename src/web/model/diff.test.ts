import { describe, expect, it } from "vitest";
import { DEFAULT_ACCESS, type Trace, type TraceStep } from "../../core/index.ts";
import { makeRecord } from "../../report/test-records.ts";
import { actionText, diffTraces } from "./diff.ts";

const observation = { step: 0, events: [], view: null };
const tool = (name: string, args: Record<string, unknown> = {}): TraceStep["action"] => ({
  kind: "tool",
  calls: [{ tool: name, args }],
});

function trace(agent: string, steps: TraceStep[], metrics: Record<string, number | null>): Trace {
  return {
    episodeId: "t1@0",
    taskId: "t1",
    suite: "toy",
    seed: "s",
    card: {
      id: "t1",
      suite: "toy",
      title: "t",
      instructions: "",
      tools: [],
      modes: ["tool"],
      rules: [],
      budgets: {},
      access: DEFAULT_ACCESS,
    },
    steps,
    record: makeRecord("t1", { agent, steps: steps.length, metrics }),
  };
}

describe("actionText", () => {
  it("writes each kind of action on one line", () => {
    expect(
      actionText({
        kind: "tool",
        calls: [{ tool: "pick", args: { object: "cup", n: 2 }, robot: "r1" }],
      }),
    ).toBe("r1:pick(object=cup, n=2)");
    expect(actionText({ kind: "say", text: "x".repeat(100) })).toBe(`say "${"x".repeat(79)}…"`);
    expect(actionText({ kind: "wait" })).toBe("wait");
    expect(actionText({ kind: "finish", answer: "42" })).toBe('finish "42"');
  });
});

describe("diffTraces", () => {
  const a = trace(
    "explorer",
    [
      { step: 0, observation, action: tool("walk", { to: "kitchen" }) },
      {
        step: 1,
        observation,
        action: tool("grab", { object: "cup" }),
        result: {
          reward: 0,
          terminated: false,
          truncated: false,
          info: { invalid: { code: "precondition", reason: "not visible" } },
        },
      },
      { step: 2, observation, action: { kind: "finish" } },
    ],
    { sr: 100, ngp: 50 },
  );
  const b = trace(
    "random",
    [
      { step: 0, observation, action: tool("walk", { to: "kitchen" }) },
      { step: 1, observation, formatError: "not JSON", raw: "{" },
    ],
    { sr: 0, ngp: 50 },
  );
  const diff = diffTraces(a, b);

  it("pairs steps and finds the first divergence", () => {
    expect(diff.steps.map((s) => s.same)).toEqual([true, false, false]);
    expect(diff.firstDivergence).toBe(1);
    expect(diff.steps[1]).toMatchObject({
      a: "grab(object=cup)",
      b: "format error: not JSON",
      resultA: "invalid (precondition)",
    });
    expect(diff.steps[2]).toMatchObject({ a: "finish", b: null });
  });

  it("compares record fields and every metric of either side", () => {
    expect(diff.fields.find((f) => f.name === "agent")).toEqual({
      name: "agent",
      a: "explorer",
      b: "random",
      same: false,
    });
    expect(diff.fields.find((f) => f.name === "steps")).toMatchObject({ a: 3, b: 2, same: false });
    expect(diff.metrics).toEqual([
      { name: "ngp", a: 50, b: 50, same: true },
      { name: "sr", a: 100, b: 0, same: false },
    ]);
  });

  it("finds no divergence between an episode and itself", () => {
    expect(diffTraces(a, a).firstDivergence).toBeNull();
  });
});
