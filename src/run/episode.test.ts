import { describe, expect, it } from "vitest";
import { greedyAgent, throwingAgent } from "../../test/fixtures/grid-agents.ts";
import { type GridPayload, gridSuite } from "../../test/fixtures/grid-suite.ts";
import {
  AdaptiveLimiter,
  type Agent,
  type Budgets,
  DEFAULT_ACCESS,
  type Decision,
  emptyUsage,
  LonghaulError,
  type Observation,
  type Suite,
} from "../core/index.ts";
import { runEpisode } from "./episode.ts";
import { FORMAT_ERROR_EVENT } from "./layers.ts";
import { planEpisodes } from "./plan.ts";
import { genericCategory, mergeBudgets } from "./scoring.ts";

/** An agent that answers decision i with script(i, observation). */
function scripted(script: (i: number, obs: Observation) => Decision, seen?: Observation[]): Agent {
  return {
    id: "scripted",
    start: () => {
      let i = 0;
      return {
        act: async (obs) => {
          seen?.push(obs);
          return script(i++, obs);
        },
      };
    },
  };
}

const WAIT: Decision = { action: { kind: "wait" } };

async function episode(
  agent: Agent,
  opts: { budgets?: Budgets; suite?: Suite<GridPayload>; signal?: AbortSignal } = {},
) {
  const suite = opts.suite ?? gridSuite();
  const [planned] = planEpisodes(suite, { epochs: 1, taskIds: ["grid/s5/1"] });
  const result = await runEpisode({
    suite,
    agent,
    planned: planned!,
    seed: "s",
    access: DEFAULT_ACCESS,
    ...(opts.budgets ? { budgets: opts.budgets } : {}),
    gate: new AdaptiveLimiter(2),
    signal: opts.signal ?? new AbortController().signal,
    maxConsecutiveFormatErrors: 3,
  });
  if (result.kind !== "done") throw new Error("abandoned");
  return result;
}

describe("runEpisode", () => {
  it("plays a greedy agent to success and scores it", async () => {
    const { record, trace } = await episode(greedyAgent());
    expect(record.status).toBe("success");
    expect(record.category).toBeUndefined();
    expect(record.endedBy).toBe("terminated");
    expect(record.metrics.distanceLeft).toBe(0);
    expect(trace?.steps).toHaveLength(record.steps);
    expect(trace?.steps.at(-1)?.action).toEqual({ kind: "finish" });
    expect(trace?.score?.success).toBe(true);
    expect(trace?.record).toEqual(record);
  });

  it("ends on the step budget with TIME", async () => {
    const { record } = await episode(
      scripted(() => WAIT),
      { budgets: { maxSteps: 4 } },
    );
    expect(record).toMatchObject({
      status: "failure",
      category: "TIME",
      endedBy: "maxSteps",
      steps: 4,
    });
  });

  it("ends on the simulated-time budget with TIME (waits take one simulated second)", async () => {
    const { record } = await episode(
      scripted(() => WAIT),
      { budgets: { maxSimTime: 7 } },
    );
    expect(record).toMatchObject({ category: "TIME", endedBy: "maxSimTime", steps: 7, simTime: 7 });
  });

  it("ends on the wall budget with TIME when the agent hangs", async () => {
    const hang: Agent = {
      id: "hang",
      start: () => ({ act: () => new Promise<Decision>(() => undefined) }),
    };
    const { record } = await episode(hang, { budgets: { maxWallMs: 20 } });
    expect(record).toMatchObject({ status: "failure", category: "TIME", endedBy: "maxWallMs" });
  });

  it("ends on token and cost budgets with BUDGET, without executing the overspending action", async () => {
    const spend = (tokens: number, cost: number): Decision => ({
      action: { kind: "wait" },
      usage: {
        ...emptyUsage(),
        calls: 1,
        inputTokens: tokens,
        outputTokens: tokens,
        costUsd: cost,
      },
    });
    const tokens = await episode(
      scripted(() => spend(30, 0)),
      { budgets: { maxTokens: 150 } },
    );
    expect(tokens.record).toMatchObject({ category: "BUDGET", endedBy: "maxTokens", steps: 3 });
    expect(tokens.record.usage.inputTokens).toBe(90);
    expect(tokens.record.simTime).toBe(2);
    expect(tokens.trace?.steps[2]?.result).toBeUndefined();
    const cost = await episode(
      scripted(() => spend(1, 0.25)),
      { budgets: { maxCostUsd: 0.6 } },
    );
    expect(cost.record).toMatchObject({ category: "BUDGET", endedBy: "maxCostUsd", steps: 3 });
    expect(cost.record.usage.costUsd).toBeCloseTo(0.75);
  });

  it("re-presents the observation with a format-error event and ends after 3 in a row", async () => {
    const seen: Observation[] = [];
    const agent = scripted(
      (i) =>
        i === 1
          ? WAIT
          : i === 2
            ? { action: { kind: "jump" } as never, raw: "jump!" }
            : { formatError: `bad ${i}`, raw: `<${i}>` },
      seen,
    );
    const { record, trace } = await episode(agent);
    // 0: format error, 1: wait (resets the streak), 2: malformed action, 3, 4: format errors.
    expect(record).toMatchObject({ status: "failure", category: "FORMAT", endedBy: "format" });
    expect(record.formatErrors).toBe(4);
    expect(record.steps).toBe(5);
    expect(seen[1]?.step).toBe(0);
    expect(seen[1]?.events.at(-1)).toEqual({ type: FORMAT_ERROR_EVENT, text: "bad 0" });
    expect(seen[1]?.events.slice(0, -1)).toEqual(seen[0]?.events);
    expect(seen[2]?.events.some((e) => e.type === FORMAT_ERROR_EVENT)).toBe(false);
    expect(trace?.steps[0]).toMatchObject({ formatError: "bad 0", raw: "<0>" });
    expect(trace?.steps[0]?.result).toBeUndefined();
    expect(trace?.steps[2]?.formatError).toMatch(/^malformed action: kind/);
    expect(trace?.steps[2]?.raw).toBe("jump!");
  });

  it("counts invalid actions and keeps going", async () => {
    const agent = scripted((i) =>
      i === 0
        ? { action: { kind: "tool", calls: [{ tool: "fly", args: {} }] } }
        : i === 1
          ? { action: { kind: "tool", calls: [{ tool: "move", args: { direction: "up" } }] } }
          : { action: { kind: "finish" } },
    );
    const { record, trace } = await episode(agent);
    expect(record.invalidActions).toBe(2);
    expect(trace?.steps[0]?.result?.info.invalid?.code).toBe("unknown-tool");
    expect(trace?.steps[1]?.result?.info.invalid).toMatchObject({ code: "bad-arguments" });
    expect(trace?.steps[1]?.result?.info.invalid?.reason).toMatch(/direction/);
    // Finishing away from the goal: the suite's own category wins over QUIT.
    expect(record).toMatchObject({
      status: "failure",
      category: "WRONG_PLACE",
      endedBy: "terminated",
    });
  });

  it("falls back to QUIT when the scorer gives no category", async () => {
    const base = gridSuite();
    const suite: Suite<GridPayload> = {
      ...base,
      score: (spec, outcome, trace) => {
        const { category: _ignored, ...score } = base.score(spec, outcome, trace);
        return score;
      },
    };
    const { record } = await episode(
      scripted(() => ({ action: { kind: "finish" } })),
      { suite },
    );
    expect(record).toMatchObject({ status: "failure", category: "QUIT", endedBy: "terminated" });
  });

  it("makes a throwing agent or scorer an invalid ERR episode", async () => {
    const agent = await episode(throwingAgent({ at: 2 }));
    expect(agent.record).toMatchObject({
      status: "invalid",
      category: "ERR",
      endedBy: "error",
      steps: 2,
    });
    expect(agent.record.error).toMatch(/provider exploded/);
    expect(agent.trace?.steps).toHaveLength(2);
    const scorer = await episode(greedyAgent(), {
      suite: { ...gridSuite(), score: () => ({ nope: 1 }) as never },
    });
    // Play ended normally: the record keeps how, and the trace keeps the outcome for rescoring.
    expect(scorer.record).toMatchObject({
      status: "invalid",
      category: "ERR",
      endedBy: "terminated",
    });
    expect(scorer.trace?.outcome?.success).toBe(true);
    expect(scorer.record.error).toMatch(/invalid score of grid\/s5\/1@0/);
  });

  it("rethrows usage errors from the agent and abandons on the run signal", async () => {
    const misconfigured: Agent = {
      id: "bad",
      start: () => {
        throw new LonghaulError("USAGE", "no API key");
      },
    };
    await expect(episode(misconfigured)).rejects.toThrow(/no API key/);
    const controller = new AbortController();
    const agent: Agent = {
      id: "interrupted",
      start: () => ({
        act: () => {
          controller.abort();
          return new Promise<Decision>(() => undefined);
        },
      }),
    };
    await expect(episode(agent, { signal: controller.signal })).rejects.toThrow(/abandoned/);
  });

  it("merges budgets layer over layer and maps end reasons to categories", () => {
    expect(mergeBudgets({ maxSteps: 5, maxSimTime: 9 }, undefined, { maxSteps: 2 })).toEqual({
      maxSteps: 2,
      maxSimTime: 9,
    });
    expect(genericCategory("maxWallMs", false)).toBe("TIME");
    expect(genericCategory("maxCostUsd", false)).toBe("BUDGET");
    expect(genericCategory("finished", false)).toBe("QUIT");
    expect(genericCategory("terminated", true)).toBe("TIME");
  });
});
