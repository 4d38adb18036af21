/**
 * RoboGraph's goal state (Suite.goalState) for `--memory oracle-state`: the atoms of the
 * active goal, split by whether they hold in the latent scene now. The active goal is the one
 * every observation shows as success_criterion (appendix B), rewritten only by interventions
 * that have fired, so no goal is revealed before the agent is told it.
 */
import type { GoalState, Json } from "../../core/index.ts";
import { type GoalAtom, World } from "../../world/index.ts";
import type { RoboGraphLatent } from "./environment.ts";

/** One goal atom as text, in the order of its fields: `ON pen_1 desk_2`, `COUNT INSIDE marker box_1 exactly 3`. */
export function atomText(atom: GoalAtom): string {
  const { pred, ...args } = atom;
  return [pred, ...Object.values(args).map(String)].join(" ");
}

/** The active goal's atoms, remaining and completed, in this latent snapshot. */
export function robographGoalState(latent: Json): GoalState {
  const { scene, goal } = latent as unknown as RoboGraphLatent;
  const progress = new World(scene, goal).goalProgress();
  const state: GoalState = { remaining: [], completed: [] };
  goal.all.forEach((atom, i) => {
    (progress[i] ? state.completed : state.remaining).push(atomText(atom));
  });
  return state;
}
