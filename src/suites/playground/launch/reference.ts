/**
 * The launcher reference controller: each scene's solution lists aim points and elevations;
 * the controller solves azimuth and draw for the realized condition (the spring stiffness and
 * launcher pose it observes) from the card's launcher model, and shoots through the L1 tools.
 */
import type { Action, Json, Observation } from "../../../core/index.ts";
import { aimAt, drawFor } from "./launcher.ts";
import type { LaunchScene } from "./tasks.ts";
import { PROTECTED_WINDOW } from "./world.ts";

interface View {
  launcher: {
    base: { x: number; y: number; yaw: number };
    elevation: number;
    loaded: boolean;
    springStiffness: number;
  };
  simulator?: { marbles: { state: string; speed: number }[]; bodies: { speed: number }[] };
}

const call = (tool: string, args: Record<string, Json>): Action => ({
  kind: "tool",
  calls: [{ tool, args }],
});
const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

export function* launchReference(scene: LaunchScene): Generator<Action, void, Observation> {
  let obs: Observation = yield call("observe", {});
  const view = () => obs.view as View;
  for (const shot of scene.file.solution) {
    if (!view().launcher.loaded) obs = yield call("reload", {});
    obs = yield call("set_elevation", { degrees: shot.elevation });
    const base = view().launcher.base;
    const el = rad(view().launcher.elevation);
    const aim = aimAt(base, shot.aim, el);
    if (!aim)
      throw new Error(`${scene.file.index}: aim point unreachable at ${shot.elevation} deg`);
    const draw = drawFor(view().launcher.springStiffness, aim.speed, el);
    if (draw === undefined)
      throw new Error(`${scene.file.index}: ${aim.speed.toFixed(2)} m/s is beyond the spring`);
    obs = yield call("set_azimuth", { degrees: deg(aim.az) });
    obs = yield call("set_draw", { metres: draw });
    obs = yield call("fire", {});
    // Let the shot and what it sets moving come to rest.
    for (let i = 0; i < 12; i++) {
      obs = yield call("wait", { seconds: 0.5 });
      const p = view().simulator;
      if (
        i >= 2 &&
        p &&
        p.marbles.every((m) => m.speed < 0.05) &&
        p.bodies.every((b) => b.speed < 0.05)
      )
        break;
    }
  }
  if ((scene.file.protected ?? []).length > 0)
    obs = yield call("wait", { seconds: PROTECTED_WINDOW + 0.2 });
  yield { kind: "finish" };
}
