import { describe, expect, it } from "vitest";
import { Sim } from "../../../physics/index.ts";
import { launchScenes } from "./scene.ts";
import { launchScene } from "./tasks.ts";
import { launchMjcf } from "./world.ts";

/** Launch-13's domino row, its first domino pushed over: 1.5 s of colliding boxes and plates. */
async function collapse(xml: string): Promise<number[]> {
  const sim = await Sim.fromXml(xml);
  try {
    const body = sim.id("body", "obj0");
    const dof = (sim.model.jnt_dofadr as Int32Array)[(sim.model.body_jntadr as Int32Array)[body]!]!;
    const qvel = sim.data.qvel as Float64Array;
    qvel[dof] = 0.8; // towards the next domino (+x)
    qvel[dof + 4] = 8; // and tipping about +y
    sim.step(1500);
    const s = sim.state();
    return [...s.qpos, ...s.qvel];
  } finally {
    sim.close();
  }
}

describe("launcher physics options (docs/playground.md, Physics options)", () => {
  it("without the BVH midphase the same contacts are found: a domino collapse ends bit for bit equal", async () => {
    const xml = launchMjcf(launchScene(launchScenes().get("Launch-13")!, 0));
    expect(xml).toContain(`midphase="disable"`);
    const without = await collapse(xml);
    const withMidphase = await collapse(xml.replace(` midphase="disable"`, ""));
    // The push really knocked the row over (obj3, the fourth domino, moves about 8 cm); a
    // numerically different option (island="disable") does change these bits.
    const start = launchScenes().get("Launch-13")!.objects[3]!.pos;
    const sim = await Sim.fromXml(xml);
    const adr = (sim.model.jnt_qposadr as Int32Array)[
      (sim.model.body_jntadr as Int32Array)[sim.id("body", "obj3")]!
    ]!;
    sim.close();
    expect(Math.hypot(without[adr]! - start[0], without[adr + 2]! - start[2])).toBeGreaterThan(
      0.02,
    );
    expect(without).toEqual(withMidphase);
  });
});
