/**
 * EmbodiedCLBench's goal state: the goal predicates move to completed as the success path
 * makes them hold (hand-checked on the Table 3 task and a four-goal task), and over every
 * zero-shot task they name only the goals' own objects, never a distractor nor a hidden value.
 */
import { describe, expect, it } from "vitest";
import { leakedValues } from "../../check/index.ts";
import { DEFAULT_ACCESS, type GoalState, type TaskSpec } from "../../core/index.ts";
import { ContinualEnvironment, type ContinualLatent } from "./environment.ts";
import { continualGoalState } from "./goal-state.ts";
import { continualSuite } from "./index.ts";
import type { ContinualPayload } from "./payload.ts";
import { movieNightSpec, select, tidy } from "./test-support.ts";

/** The goal state before each decision of the success path, and at its end. */
function successPath(spec: TaskSpec<ContinualPayload>): GoalState[] {
  const env = new ContinualEnvironment(spec, DEFAULT_ACCESS);
  env.reset();
  const states = [continualGoalState(env.latent(), spec)];
  for (let i = 0; i < 40; i++) {
    const latent = env.latent() as unknown as ContinualLatent;
    const label = latent.choices.find((c) => c.role === "success_path")?.label;
    const result = env.step(select(label));
    states.push(continualGoalState(env.latent(), spec));
    if (result.terminated) break;
  }
  return states;
}

describe("EmbodiedCLBench's goal state (Suite.goalState)", () => {
  it("movie night: the light is off after 3 steps, both goals hold after 6", () => {
    const states = successPath(movieNightSpec);
    expect(states).toHaveLength(7);
    const both = ["open(media_cabinet)", "powered_off(ceiling_light)"];
    expect(states[0]).toEqual({ remaining: both, completed: [] });
    // look at, walk to, switch off the light; then the cabinet.
    expect(states[3]).toEqual({
      remaining: ["open(media_cabinet)"],
      completed: ["powered_off(ceiling_light)"],
    });
    expect(states[5]).toEqual(states[3]);
    expect(states[6]).toEqual({ remaining: [], completed: both });
  });

  it("four goals, the magazine in hand: no predicate for picking the cup up, each placement completes", () => {
    const spec = { ...movieNightSpec, payload: { ...movieNightSpec.payload } };
    spec.payload.task = { source: "generated", def: tidy };
    const states = successPath(spec);
    expect(states[0]).toEqual({
      remaining: ["in(magazine, trash_can)", "on(cup, bookshelf)", "powered_on(floor_lamp)"],
      completed: [],
    });
    // Drop the magazine (3 steps), then pick the cup up and shelve it (6 more).
    expect(states[3]?.completed).toEqual(["in(magazine, trash_can)"]);
    expect(states[8]?.completed).toEqual(["in(magazine, trash_can)"]);
    expect(states[9]?.completed).toEqual(["in(magazine, trash_can)", "on(cup, bookshelf)"]);
    expect(states.at(-1)).toEqual({
      remaining: [],
      completed: ["in(magazine, trash_can)", "on(cup, bookshelf)", "powered_on(floor_lamp)"],
    });
  });

  it("names only the instruction's goal objects and no hidden value, on every zero-shot task", () => {
    const specs = continualSuite
      .compile({})
      .filter((s) => s.payload.setting === "zero-shot" && s.payload.task.source === "generated");
    expect(specs.length).toBeGreaterThan(200);
    for (const spec of specs) {
      const def = spec.payload.task.source === "generated" ? spec.payload.task.def : undefined;
      const goalObjects = new Set(def?.goals.flatMap((g) => [g.object, g.target ?? g.object]));
      const env = new ContinualEnvironment(spec, DEFAULT_ACCESS);
      env.reset();
      // First listed option at every step: success paths, detours and failures alike.
      for (let i = 0; i < 4; i++) {
        const latent = env.latent();
        const goals = continualGoalState(latent, spec);
        const all = [...goals.remaining, ...goals.completed];
        expect(all.length, spec.id).toBeGreaterThan(0);
        for (const goal of all)
          for (const id of /\((.*)\)/.exec(goal)?.[1]?.split(", ") ?? ["?"])
            expect(goalObjects, `${spec.id}: ${goal}`).toContain(id);
        expect(leakedValues(goals, continualSuite.hidden!(latent, spec)), spec.id).toEqual([]);
        if (env.step(select("A")).terminated) break;
      }
    }
  }, 60_000);
});
