import { describe, expect, it } from "vitest";
import {
  AdaptiveLimiter,
  type Agent,
  GOAL_STATE_GRANT,
  type GoalState,
  type Json,
} from "../../core/index.ts";
import { runEpisode } from "../../run/index.ts";
import type { WorldEvent } from "../../world/index.ts";
import { compileFamilies, DEFAULT_SEED } from "./compiler.ts";
import { builtinFamilies } from "./families.ts";
import { atomText } from "./goal-state.ts";
import { robographSuite } from "./index.ts";
import { oracleAgent } from "./oracle-agent.ts";

describe("RoboGraph's goal state (Suite.goalState)", () => {
  it("reveals an added subgoal only once its intervention has fired, and completes every atom", async () => {
    const specs = compileFamilies([builtinFamilies()[0]!], DEFAULT_SEED);
    const spec = specs.find((s) => s.payload.events.some((e: WorldEvent) => e.id === "I6"))!;
    const event = spec.payload.events.find((e: WorldEvent) => e.id === "I6")!;
    const extension = event.rewrites.find((r) => r.op === "extend_goal");
    if (extension?.op !== "extend_goal") throw new Error("I6 extends the goal");
    const added = extension.atoms.map(atomText);
    const initial = spec.payload.goal.all.map(atomText);

    // The oracle plays; at each decision we read the goal state and whether I6 has fired.
    const seen: { goals: GoalState; fired: boolean }[] = [];
    const oracle = oracleAgent();
    const agent: Agent = {
      id: "oracle-reading-goals",
      privileged: true,
      async start(card, context) {
        const session = await oracle.start(card, context);
        return {
          async act(observation) {
            const latent = context.privileged!.latent() as { fired: { id: string }[] } & Json;
            seen.push({
              goals: context.goalState!()!,
              fired: latent.fired.some((f) => f.id === "I6"),
            });
            return session.act(observation);
          },
        };
      },
    };
    const result = await runEpisode({
      suite: robographSuite,
      agent,
      planned: { episodeId: `${spec.id}@0`, spec, epoch: 0 },
      seed: "0",
      access: { level: "privileged", privileged: true, grants: ["latent", GOAL_STATE_GRANT] },
      gate: new AdaptiveLimiter(1),
      signal: new AbortController().signal,
      maxConsecutiveFormatErrors: 3,
    });
    expect(result.kind === "done" && result.record.status).toBe("success");
    const before = seen.filter((s) => !s.fired);
    const after = seen.filter((s) => s.fired);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    for (const { goals } of before) {
      expect([...goals.remaining, ...goals.completed].sort()).toEqual([...initial].sort());
    }
    for (const { goals } of after) {
      expect([...goals.remaining, ...goals.completed].sort()).toEqual(
        [...initial, ...added].sort(),
      );
    }
    // Progress is the latent truth: atoms move to completed as the oracle works, and all of
    // them hold when it decides to stop.
    expect(seen[0]!.goals.remaining.length).toBeGreaterThan(0);
    expect(seen.at(-1)!.goals.remaining).toEqual([]);
  });

  it("writes each atom as its predicate and fields in order", () => {
    expect(atomText({ pred: "ON", object: "pen_1", target: "desk_2" })).toBe("ON pen_1 desk_2");
    expect(
      atomText({
        pred: "COUNT",
        rel: "INSIDE",
        category: "marker",
        target: "box",
        op: "exactly",
        n: 3,
      }),
    ).toBe("COUNT INSIDE marker box exactly 3");
  });
});
