/**
 * Playground's goal state, read next to every step of the reference controllers: required,
 * ordered and protected targets (Launch-26, Launch-27) and Hanoi rings (Tower-01) move to
 * completed as the world's evidence shows them done, and over every compiled task the goals
 * name only what the card states.
 */
import { describe, expect, it } from "vitest";
import { leakedValues } from "../../check/index.ts";
import { type Action, DEFAULT_ACCESS, type GoalState, type Observation } from "../../core/index.ts";
import { playgroundGoalState } from "./goal-state.ts";
import { hiddenValues } from "./hidden.ts";
import { playgroundSuite } from "./index.ts";
import { launchReference } from "./launch/reference.ts";
import type { LaunchScene } from "./launch/tasks.ts";
import type { TowerScene } from "./tower/board.ts";
import { towerReference } from "./tower/reference.ts";

const specs = playgroundSuite.compile({});

/** The distinct goal states of a reference play, from before reset to after finish. */
async function play(id: string): Promise<{ states: GoalState[]; success: boolean }> {
  const spec = specs.find((s) => s.id === id);
  if (!spec) throw new Error(`no ${id}`);
  const env = await playgroundSuite.make(spec, { access: DEFAULT_ACCESS });
  const states: GoalState[] = [];
  const read = () => {
    const latent = env.latent?.() ?? null;
    const goals = playgroundGoalState(latent, spec);
    expect(leakedValues(goals, hiddenValues(latent, spec))).toEqual([]);
    if (JSON.stringify(goals) !== JSON.stringify(states.at(-1))) states.push(goals);
  };
  read();
  let observation: Observation = await env.reset();
  const p = spec.payload;
  const script: Generator<Action, void, Observation> =
    p.family === "launcher"
      ? launchReference(p.scene as unknown as LaunchScene)
      : towerReference(p.scene as unknown as TowerScene);
  for (let next = script.next(); !next.done; next = script.next(observation)) {
    read();
    const result = await env.step(next.value);
    observation = result.observation;
    if (result.terminated) break;
  }
  read();
  await env.step({ kind: "finish" });
  read();
  const success = (await env.outcome()).success;
  await env.close?.();
  return { states, success };
}

describe("Playground's goal state (Suite.goalState)", () => {
  it("Launch-26: far, then near, then the order; all completed at the end", async () => {
    const { states, success } = await play("Launch-26/c1");
    expect(success).toBe(true);
    expect(states).toEqual([
      {
        remaining: ["clear far", "clear near", "clear far then near in this order"],
        completed: [],
      },
      { remaining: ["clear near", "clear far then near in this order"], completed: ["clear far"] },
      {
        remaining: [],
        completed: ["clear far", "clear near", "clear far then near in this order"],
      },
    ]);
  });

  it("Launch-27: the protected neighbor stays a goal until the window after the hit has passed", async () => {
    const { states } = await play("Launch-27/c1");
    const keep = "keep neighbor intact until the window after the last required hit ends";
    expect(states).toEqual([
      { remaining: ["clear target", keep], completed: [] },
      { remaining: [keep], completed: ["clear target"] },
      { remaining: [], completed: ["clear target", keep] },
    ]);
  });

  it("Tower-01: rings 2-5 start on their goal peg, ring 1 is moved, then the arrangement holds", async () => {
    const { states, success } = await play("Tower-01/c1");
    expect(success).toBe(true);
    const placed = [5, 4, 3, 2].map((r) => `ring ${r} seated on peg A`);
    const held = "goal arrangement held, released and at rest, for 1 s";
    expect(states).toEqual([
      { remaining: ["ring 1 seated on peg B", held], completed: placed },
      { remaining: [held], completed: [...placed, "ring 1 seated on peg B"] },
      { remaining: [], completed: [...placed, "ring 1 seated on peg B", held] },
    ]);
  });

  it("names only targets the card lists and rings and pegs it describes, on every task", () => {
    for (const spec of specs) {
      const goals = playgroundGoalState(null, spec);
      expect(goals.completed.length + goals.remaining.length).toBeGreaterThan(0);
      const card = spec.payload.instructions;
      for (const goal of goals.remaining) {
        const named = /^(?:clear|keep) (\S+)/.exec(goal)?.[1];
        if (named) expect(card, `${spec.id}: ${goal}`).toMatch(new RegExp(`\\b${named}\\b`));
        const order = /^clear (.*) in this order$/.exec(goal)?.[1];
        if (order) expect(card, spec.id).toContain(`in this order: ${order}`);
      }
    }
  });
});
