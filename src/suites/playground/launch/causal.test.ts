/**
 * Causal scenes (Table 2's Causal type is about indirect effects): where a direct shot at the
 * target would also have worked, the scene now shields the target (a screen and a roof, a
 * roof over a frame, a flap as tall as its walls, a single marble for one push), so the causal
 * path is the only one. A direct shot aimed at the target itself fails.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Action, Json } from "../../../core/index.ts";
import type { PlaygroundEnvironment } from "../environment.ts";
import { envFor } from "../test-support.ts";
import { aimAt, drawFor } from "./launcher.ts";

const call = (tool: string, args: Record<string, Json>): Action => ({
  kind: "tool",
  calls: [{ tool, args }],
});
const envs: PlaygroundEnvironment[] = [];
afterEach(() => {
  for (const e of envs.splice(0)) e.close();
});

interface View {
  launcher: {
    base: { x: number; y: number; yaw: number };
    elevation: number;
    springStiffness: number;
  };
  cleared: string[];
}

/** One shot through the L1 tools at `aim` with `elevation` degrees; what it cleared. */
async function shoot(index: string, aim: [number, number, number], elevation: number) {
  const env = envFor(index, 1, "L1");
  envs.push(env);
  await env.reset();
  const view = (r: { observation: { view: unknown } }) => r.observation.view as View;
  const v = view(env.step(call("set_elevation", { degrees: elevation })));
  const el = (v.launcher.elevation * Math.PI) / 180;
  const solution = aimAt(v.launcher.base, aim, el);
  if (!solution) throw new Error(`${index}: ${aim} is out of reach at ${elevation} deg`);
  const draw = drawFor(v.launcher.springStiffness, solution.speed, el);
  if (draw === undefined) throw new Error(`${index}: beyond the spring`);
  env.step(call("set_azimuth", { degrees: (solution.az * 180) / Math.PI }));
  env.step(call("set_draw", { metres: draw }));
  env.step(call("fire", {}));
  const after = env.step(call("wait", { seconds: 4 }));
  return { cleared: view(after).cleared, outcome: env.outcome() };
}

describe("Causal scenes need their causal path", () => {
  it("a shot at a bridge's crate hits its screen or roof (Launch-14)", async () => {
    for (const elevation of [18, 35]) {
      expect((await shoot("Launch-14", [1.33, 0.3, 0.24], elevation)).cleared).toEqual([]);
    }
  });

  it("a lob over the window frame meets the roof (Launch-15); only breaking the pane reaches the plate", async () => {
    expect((await shoot("Launch-15", [1.3, 0, 0.08], 50)).cleared).toEqual([]);
    expect((await shoot("Launch-15", [1.3, 0, 0.08], 12)).cleared).toEqual(["window", "T1"]);
  });

  it("a lob over the flap meets the roof (Launch-19)", async () => {
    expect((await shoot("Launch-19", [1.45, 0, 0.05], 45)).cleared).toEqual([]);
  });

  it("a direct shot at one branch's plate clears that plate only, and the one marble is spent (Launch-13)", async () => {
    const { cleared, outcome } = await shoot("Launch-13", [1.49, 0.05, 0.04], 18);
    expect(cleared).toEqual(["L"]);
    expect(outcome).toMatchObject({ success: false });
  });
});
