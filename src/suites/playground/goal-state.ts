/**
 * Playground's goal state (Suite.goalState) for `--memory oracle-state`: the goals the task
 * card states, completed from the world's evidence (the verdict's own inputs, §5.4). Launch:
 * clear each required target, clear the ordered ones in order, keep each protected target
 * intact through the observation window. Tower: seat each ring on its goal peg (largest first,
 * as the goal arrangement is built), then hold the arrangement released and at rest. Nothing
 * the card withholds (the realized ring masses and frictions) is named.
 */
import type { GoalState, Json, TaskSpec } from "../../core/index.ts";
import type { PlaygroundLatent } from "./hidden.ts";
import { clearedOutOfOrder, type LaunchEvidence, launchVerdict } from "./launch/evaluate.ts";
import type { LaunchScene } from "./launch/tasks.ts";
import type { PlaygroundPayload } from "./payload.ts";
import type { TowerScene } from "./tower/board.ts";
import { type HanoiEvidence, hanoiVerdict } from "./tower/evaluate.ts";
import { HANOI_DWELL } from "./tower/world.ts";

/** One goal and whether it holds. */
type Goal = [text: string, done: boolean];

/** The card's goals, remaining and completed, in this latent snapshot (null before reset). */
export function playgroundGoalState(latent: Json, spec: TaskSpec<PlaygroundPayload>): GoalState {
  const evidence = latent === null ? null : (latent as unknown as PlaygroundLatent).evidence;
  const p = spec.payload;
  const goals =
    p.family === "launcher"
      ? launchGoals(p.scene as unknown as LaunchScene, evidence as LaunchEvidence | null)
      : hanoiGoals(p.scene as unknown as TowerScene, evidence as HanoiEvidence | null);
  const state: GoalState = { remaining: [], completed: [] };
  for (const [text, done] of goals) (done ? state.completed : state.remaining).push(text);
  return state;
}

/** Launch: the required, ordered and protected targets of the card. */
function launchGoals(scene: LaunchScene, e: LaunchEvidence | null): Goal[] {
  const { required, order = [], protected: intact = [] } = scene.file;
  const when = new Map((e?.cleared ?? []).map((c) => [c.id, c.time]));
  const won = e !== null && launchVerdict(e as unknown as Json).goal;
  const inOrder = order.every((id) => when.has(id)) && !clearedOutOfOrder(order, when);
  return [
    ...required.map((id): Goal => [`clear ${id}`, when.has(id)]),
    ...(order.length > 0 ? [[`clear ${order.join(" then ")} in this order`, inOrder] as Goal] : []),
    ...intact.map(
      (id): Goal => [`keep ${id} intact until the window after the last required hit ends`, won],
    ),
  ];
}

/** Tower: each ring on its goal peg, then the arrangement held for the dwell time. */
function hanoiGoals(scene: TowerScene, e: HanoiEvidence | null): Goal[] {
  // Before reset there is no evidence yet: the rings stand as the card's start says.
  const seated = e?.seated ?? scene.start;
  const rings = scene.goal.map((peg, i) => ({ ring: i + 1, peg })).reverse();
  return [
    ...rings.map(
      ({ ring, peg }): Goal => [
        `ring ${ring} seated on peg ${"ABC"[peg]}`,
        seated[ring - 1] === peg,
      ],
    ),
    [
      `goal arrangement held, released and at rest, for ${HANOI_DWELL} s`,
      e !== null && hanoiVerdict(e as unknown as Json).goal,
    ],
  ];
}
