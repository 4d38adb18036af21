import { afterEach, describe, expect, it } from "vitest";
import { GripperDriver, type GripperSpec, gripperBodies, gripperConstraints } from "./gripper.ts";
import { mjcf } from "./mjcf.ts";
import { Sim } from "./mujoco.ts";

const spec: GripperSpec = { name: "g", pos: [0, 0, 0.3] };

function scene(): string {
  const c = gripperConstraints(spec);
  return mjcf({
    name: "grasp",
    timestep: 0.002,
    worldbody: [
      `<geom name="floor" type="plane" size="1 1 0.1"/>`,
      gripperBodies(spec),
      `<body name="box" pos="0.02 0 0.025"><freejoint/><geom name="boxg" type="box" size="0.02 0.02 0.025" mass="0.1"/></body>`,
    ],
    equality: [c.equality],
    actuator: [c.actuator],
  });
}

/** Run a command until the target settles, then `extra` more steps. */
function drive(sim: Sim, g: GripperDriver, cmd: GripperDriver["command"], extra = 100): void {
  g.command = cmd;
  for (let i = 0; i < 5000 && !g.settled(); i++) {
    g.beforeStep(sim.timestep);
    sim.step();
  }
  for (let i = 0; i < extra; i++) {
    g.beforeStep(sim.timestep);
    sim.step();
  }
}

function pickAndLift(sim: Sim): void {
  const g = new GripperDriver(sim, spec);
  // Pads centred on the box (pad centre is 0.037 below the palm).
  drive(sim, g, { pos: [0.02, 0, 0.06], yaw: 0, grip: 0 });
  drive(sim, g, { pos: [0.02, 0, 0.06], yaw: 0, grip: 1 }, 200);
  drive(sim, g, { pos: [0.02, 0, 0.25], yaw: Math.PI / 4, grip: 1 }, 250);
}

const sims: Sim[] = [];
afterEach(() => {
  for (const s of sims.splice(0)) s.close();
});

describe("MuJoCo WebAssembly physics", () => {
  it("a floating gripper lifts a box by friction alone and carries it while turning", async () => {
    const sim = await Sim.fromXml(scene());
    sims.push(sim);
    const box = sim.id("body", "box");
    pickAndLift(sim);
    const [x, y, z] = sim.bodyPos(box);
    expect(z).toBeGreaterThan(0.2);
    expect(Math.hypot(x - 0.02, y)).toBeLessThan(0.01);
    // Open: the box falls back to the floor.
    const g = new GripperDriver(sim, spec);
    g.target = { pos: [0.02, 0, 0.25], yaw: Math.PI / 4 };
    drive(sim, g, { pos: [0.02, 0, 0.25], yaw: Math.PI / 4, grip: 0 }, 600);
    expect(sim.bodyPos(box)[2]).toBeLessThan(0.03);
  });

  it("the same actions give the same state bit for bit", async () => {
    const a = await Sim.fromXml(scene());
    const b = await Sim.fromXml(scene());
    sims.push(a, b);
    pickAndLift(a);
    pickAndLift(b);
    expect(b.state()).toEqual(a.state());
    expect(a.state().time).toBeGreaterThan(1);
    // The JavaScript mirror of simulated time is MuJoCo's own value, bit for bit.
    expect(a.time).toBe(a.state().time);
  });

  it("reports contacts with penetration and normal force", async () => {
    const sim = await Sim.fromXml(scene());
    sims.push(sim);
    sim.step(50);
    const floor = sim.id("geom", "floor");
    const boxg = sim.id("geom", "boxg");
    const resting = sim.contacts().filter((c) => c.geom1 === floor && c.geom2 === boxg);
    expect(resting.length).toBeGreaterThan(0);
    const total = resting.reduce((s, c) => s + c.force, 0);
    expect(total).toBeCloseTo(0.1 * 9.81, 1);
  });

  it("rejects malformed MJCF with MuJoCo's error", async () => {
    await expect(
      Sim.fromXml("<mujoco><worldbody><geom type='nope'/></worldbody></mujoco>"),
    ).rejects.toThrow();
  });
});
