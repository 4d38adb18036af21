/**
 * MAGMA's goal state on compiled Packaging episodes played by the expert: hand-checked lists at
 * each stage of a clean rule, a mission update and both interruption variants, and over every
 * realization-0 episode, no goal in words the user has not said yet.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { leakedValues } from "../../check/index.ts";
import { DEFAULT_ACCESS, type GoalState, type TaskSpec } from "../../core/index.ts";
import { compileSuite } from "./compiler.ts";
import { MagmaEnvironment, type MagmaLatent } from "./environment.ts";
import { Expert } from "./expert.ts";
import { packaging } from "./families/packaging.ts";
import { magmaGoalState } from "./goal-state.ts";
import { hiddenStrings } from "./hidden.ts";
import { Renamer } from "./realize.ts";
import type { MagmaPayload } from "./types.ts";

let specs: TaskSpec<MagmaPayload>[] = [];
beforeAll(() => {
  specs = compileSuite({ families: "packaging" });
}, 120_000);

/** What the agent had been told by each decision, and the goal state next to it. */
interface Seen {
  stage: number;
  goals: GoalState;
  told: string[];
  hidden: string[];
}

/** Play a spec with the expert, reading the goal state next to every observation. */
function play(id: string): { seen: Seen[]; success: boolean } {
  const spec = specs.find((s) => s.id === id);
  if (!spec) throw new Error(`no ${id}`);
  const env = new MagmaEnvironment(spec, packaging, DEFAULT_ACCESS);
  const expert = new Expert(packaging, spec.payload, new Renamer(spec.payload.names));
  const told: string[] = [];
  const seen: Seen[] = [];
  let observation = env.reset();
  for (let i = 0; i < 500; i++) {
    for (const e of observation.events) if (e.type === "user") told.push(e.text ?? "");
    const latent = env.latent();
    seen.push({
      stage: (latent as unknown as MagmaLatent).stage,
      goals: magmaGoalState(latent, spec),
      told: [...told],
      hidden: hiddenStrings(latent, spec, packaging),
    });
    const result = env.stepSync(expert.decide(latent as unknown as MagmaLatent));
    observation = result.observation;
    if (result.terminated) break;
  }
  seen.push({
    stage: -1,
    goals: magmaGoalState(env.latent(), spec),
    told: [...told],
    hidden: [],
  });
  return { seen, success: env.outcome().success };
}

/** The first goal state read while stage `k` (0-based) runs. */
const at = (seen: Seen[], k: number) => seen.find((s) => s.stage === k)?.goals;

const RULE = 'Acknowledge: "The default tray recipe is soda, apple and pasta."';
const TRAYS = '"More food just arrived on the table. Prepare two standard trays."';

describe("MAGMA's goal state (Suite.goalState)", () => {
  it("interruption X1 -> Y -> X2: Y then X2 remaining while Y runs, all completed at the end", () => {
    const { seen, success } = play("packaging-01/IN/r0");
    expect(success).toBe(true);
    // Start: only the rule the user has stated.
    expect(at(seen, 0)).toEqual({ remaining: [RULE], completed: [] });
    expect(at(seen, 1)).toEqual({ remaining: [`Do: ${TRAYS}`], completed: [RULE] });
    // The interruption: the first tray done, Y and then the resumption of X remaining.
    const y =
      'Do: "Stop what you are doing. First, prepare a tray with water, sandwich and orange for me first. Then continue with the previous task."';
    expect(at(seen, 2)).toEqual({
      remaining: [y, `Resume: ${TRAYS}`],
      completed: [RULE, `Do (until the interruption): ${TRAYS}`],
    });
    expect(at(seen, 3)).toEqual({
      remaining: [`Resume: ${TRAYS}`],
      completed: [RULE, `Do (until the interruption): ${TRAYS}`, y],
    });
    expect(seen.at(-1)?.goals).toEqual({
      remaining: [],
      completed: [RULE, `Do (until the interruption): ${TRAYS}`, y, `Resume: ${TRAYS}`],
    });
  });

  it("mission update: the rule's update is a goal once said, the request relying on it only later", () => {
    const { seen, success } = play("packaging-01/MU/r0");
    expect(success).toBe(true);
    const update = 'Acknowledge: "In the default recipe, replace apple with banana."';
    expect(at(seen, 0)).toEqual({ remaining: [RULE], completed: [] });
    expect(at(seen, 1)).toEqual({ remaining: [update], completed: [RULE] });
    expect(at(seen, 2)).toEqual({ remaining: [`Do: ${TRAYS}`], completed: [RULE, update] });
    expect(seen.at(-1)?.goals).toEqual({
      remaining: [],
      completed: [RULE, update, `Do: ${TRAYS}`],
    });
  });

  it('"when you are done, do Y": X resumed and the announced Y remaining; reports name their request', () => {
    const { seen, success } = play("packaging-03/IN/r0");
    expect(success).toBe(true);
    const trays = '"More food just arrived on the table. Prepare two standard trays."';
    const rule = 'Acknowledge: "The default tray recipe is soda and orange."';
    const x =
      '"More food just arrived on the table. Prepare a tray with rice and water; then one with sandwich, soda and apple."';
    const y =
      'Do: "When you are done with the current task, prepare a tray with banana and pasta for me first."';
    // The report is due once the trays are done: it names the request it reports on.
    expect(at(seen, 2)).toEqual({
      remaining: [`Report completion: ${trays}`],
      completed: [rule, `Do: ${trays}`],
    });
    expect(at(seen, 3)?.remaining).toEqual([`Do: ${x}`]);
    // The announcement (stage 5) resumes X and reveals Y, which has no words of its own.
    expect(at(seen, 4)?.remaining).toEqual([`Resume: ${x}`, y]);
    expect(at(seen, 4)?.completed.at(-1)).toBe(`Do (until the interruption): ${x}`);
    expect(at(seen, 5)?.remaining).toEqual([y]);
    expect(at(seen, 6)?.remaining).toEqual(['Reply: "How many drinks are on the table?"']);
    const end = seen.at(-1)?.goals;
    expect(end?.remaining).toEqual([]);
    expect(end?.completed).toHaveLength(9);
  });

  it("never shows words the user has not said, nor anything hidden(), in any realization-0 episode", () => {
    let states = 0;
    for (const spec of specs.filter((s) => s.payload.realization === 0)) {
      const { seen } = play(spec.id);
      for (const { goals, told, hidden } of seen) {
        states++;
        for (const goal of [...goals.remaining, ...goals.completed]) {
          const words = /"(.*)"$/.exec(goal)?.[1] ?? "";
          expect(told, `${spec.id}: ${goal}`).toContain(words);
        }
        expect(leakedValues(goals, hidden), spec.id).toEqual([]);
      }
    }
    expect(states).toBeGreaterThan(500);
  }, 120_000);
});
