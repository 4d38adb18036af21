/**
 * The Hanoi reference controller: replans the shortest legal sequence from the seated state
 * before every move, and executes each move with the L1 planning tools from L3 ring poses
 * (grasp the handle, lift clear, carry over the target peg, lower, release).
 */
import type { Action, Json, Observation } from "../../../core/index.ts";
import { handleGraspRadius, type TowerScene } from "./board.ts";
import { shortestPlan } from "./hanoi.ts";
import { HANOI_DWELL, PALM_ABOVE_RING_BOTTOM } from "./world.ts";

interface View {
  gripper: { pos: [number, number, number]; yaw: number };
  seated: (string | null)[];
  simulator: {
    rings: { ring: number; pos: [number, number, number]; handleYaw: number }[];
    pegs: { x: number; y: number; base: number; top: number }[];
  };
}

const call = (tool: string, args: Record<string, Json>): Action => ({
  kind: "tool",
  calls: [{ tool, args }],
});

/** Height the ring bottom is lowered to above its seat before release (metres). */
const RELEASE_GAP = 0.004;

/** Decisions of the reference controller; each `yield` receives the next observation. */
export function* towerReference(scene: TowerScene): Generator<Action, void, Observation> {
  let obs: Observation = yield call("observe", {});
  const view = () => obs.view as View;
  const safe =
    Math.max(
      ...scene.pegs.map((p) => p.base + p.height),
      ...scene.barriers.map((b) => b.pos[2] + b.half[2]),
    ) +
    0.02 +
    PALM_ABOVE_RING_BOTTOM;
  for (let guard = 0; guard < 64; guard++) {
    const state = view().seated.map((p) => (p === null ? -1 : "ABC".indexOf(p)));
    if (state.some((p) => p < 0)) break;
    if (state.every((p, i) => p === scene.goal[i])) break;
    const [move] = shortestPlan(state, scene.goal);
    if (!move) break;
    const ring = view().simulator.rings[move.ring - 1]!;
    const r = handleGraspRadius(scene.rings[move.ring - 1]!);
    const yaw = ring.handleYaw;
    const grasp: [number, number, number] = [
      ring.pos[0] + r * Math.cos(yaw),
      ring.pos[1] + r * Math.sin(yaw),
      ring.pos[2] + PALM_ABOVE_RING_BOTTOM,
    ];
    obs = yield call("release", {});
    obs = yield call("move_to", { pos: grasp, yaw, path: "lift" });
    obs = yield call("grasp", {});
    obs = yield call("move_to", { pos: [grasp[0], grasp[1], safe], yaw });
    obs = yield call("observe", {});
    const held = view().simulator.rings[move.ring - 1]!;
    const palm = view().gripper.pos;
    const peg = view().simulator.pegs[move.to]!;
    const below = state.filter((p, i) => p === move.to && i + 1 > move.ring).length;
    const seat = peg.base + below * scene.ringHeight + RELEASE_GAP;
    const target: [number, number, number] = [
      peg.x - (held.pos[0] - palm[0]),
      peg.y - (held.pos[1] - palm[1]),
      seat + (palm[2] - held.pos[2]),
    ];
    obs = yield call("move_to", { pos: [target[0], target[1], safe], yaw });
    obs = yield call("move_to", { pos: target, yaw });
    obs = yield call("release", {});
    obs = yield call("move_to", { pos: [target[0], target[1], safe], yaw });
  }
  obs = yield call("wait", { seconds: HANOI_DWELL + 0.3 });
  yield { kind: "finish" };
}
