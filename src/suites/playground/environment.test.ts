import { afterEach, describe, expect, it } from "vitest";
import { type Action, type Observation, PRIVILEGED_ACCESS } from "../../core/index.ts";
import { PlaygroundEnvironment } from "./environment.ts";
import { LAUNCH_FAMILY } from "./launch/family.ts";
import { launchReference } from "./launch/reference.ts";
import type { LaunchScene } from "./launch/tasks.ts";
import type { FamilyBudget } from "./protocol.ts";
import { drive, envFor, specFor, tool } from "./test-support.ts";
import type { TowerScene } from "./tower/board.ts";
import { towerReference } from "./tower/reference.ts";

const envs: PlaygroundEnvironment[] = [];
afterEach(() => {
  for (const e of envs.splice(0)) e.close();
});
async function started(
  index: string,
  condition = 0,
  level: "L0" | "L1" | "L2" | "L3" = "L3",
  rejected: "invalid" | "feedback" = "invalid",
) {
  const env = envFor(index, condition, level, PRIVILEGED_ACCESS, rejected);
  envs.push(env);
  const first = await env.reset();
  return { env, first };
}

describe("the playground protocol (§3.1)", () => {
  it("observe leaves simulated time unchanged; step advances whole control periods, one action each", async () => {
    const { env, first } = await started("Launch-02");
    expect(first.simTime).toBe(0);
    const seen = env.step(tool("observe"));
    expect(seen.observation.simTime).toBe(0);
    expect(seen.info.actions).toBe(0);
    const stepped = env.step(tool("step", { launcher: { drawRate: 0.1 }, periods: 5 }));
    expect(stepped.observation.simTime).toBeCloseTo(5 / 50, 9); // launcher control at 50 Hz
    expect(stepped.info.actions).toBe(5);
    const waited = env.step({ kind: "wait" });
    expect(waited.info.actions).toBe(6);
    expect(
      (waited.observation.view as { launcher: { draw: number } }).launcher.draw,
    ).toBeGreaterThan(0.005);
    // A planning tool (L1) runs many control periods for one call, each an action.
    const turned = env.step(tool("set_elevation", { degrees: 25 }));
    const [before, after] = [waited.info.actions as number, turned.info.actions as number];
    expect(after - before).toBeGreaterThan(20);
    expect(turned.observation.simTime).toBeCloseTo(after / 50, 9);
  });

  it("grants tools by access level and shows simulator fields only at L3", async () => {
    const names = (level: "L0" | "L1" | "L2" | "L3") =>
      envFor("Tower-01", 0, level)
        .describe()
        .tools.map((t) => t.name);
    expect(names("L0")).toEqual(["observe", "wait", "run_program", "step"]);
    expect(names("L1")).toEqual([...names("L0"), "move_to", "grasp", "release"]);
    expect(names("L2")).toEqual([...names("L1"), "grasp_pose"]);
    expect(names("L3")).toEqual(names("L2"));
    const l0 = await started("Tower-01", 0, "L0");
    expect(l0.first.view).not.toHaveProperty("simulator");
    const refused = l0.env.step(tool("move_to", { pos: [0, 0, 0.3] }));
    expect(refused.info.invalid).toMatchObject({ code: "not-allowed" });
    const l3 = await started("Tower-01", 0, "L3");
    expect(l3.first.view).toHaveProperty("simulator.rings");
  });

  it("rejects bad arguments with the path of what is wrong, without advancing time", async () => {
    // The development rule: refusals are feedback and play goes on (the paper's rule below).
    const { env } = await started("Launch-02", 0, "L3", "feedback");
    const bad = env.step(tool("step", { launcher: { azimuthRate: 9 } }));
    expect(bad.info.invalid).toMatchObject({ code: "bad-arguments", path: "launcher.azimuthRate" });
    expect(bad.observation.simTime).toBe(0);
    const badPos = env.step(tool("step", { gripper: { pos: [0, 0] } }));
    expect(badPos.info.invalid).toMatchObject({ path: "gripper.pos" });
    expect(env.step(tool("teleport")).info.invalid).toMatchObject({ code: "unknown-tool" });
    expect(env.outcome().data).toMatchObject({ rejectedActions: 3 });
  });

  it("a rejected action ends the attempt as invalid (§5.4), also inside a program", async () => {
    const direct = await started("Launch-02");
    const r = direct.env.step(tool("set_draw", { metres: 0.5 }));
    expect(r.info.invalid).toMatchObject({ code: "bad-arguments", path: "metres" });
    expect(r.terminated).toBe(true);
    expect(r.observation.events.at(-1)?.text).toMatch(/^REJECTED: set_draw/);
    expect(direct.env.outcome()).toMatchObject({
      success: false,
      category: "ERR",
      data: { rejectedActions: 1, termination: expect.stringMatching(/^REJECTED/) },
    });
    // A program's refused bridge call is a rejected action too: the program stops there.
    const coded = await started("Launch-02");
    const code = `step({}, 2); try { tool("reload", {}); } catch (e) { step({}, 5); } return 1;`;
    const ran = coded.env.step(tool("run_program", { code }));
    expect(ran.terminated).toBe(true);
    expect(ran.info.actions).toBe(2);
    expect(coded.env.outcome()).toMatchObject({ category: "ERR" });
  });

  it("the same seed and actions give the same final state, bit for bit", async () => {
    const run = async () => {
      const { env } = await started("Launch-01", 2);
      const script = launchReference(
        specFor("Launch-01", 2).payload.scene as unknown as LaunchScene,
      );
      drive(env, script);
      return env.latent();
    };
    const a = await run();
    const b = await run();
    expect(b).toEqual(a);
    expect((a as { state: { time: number } }).state.time).toBeGreaterThan(5);
  });
});

describe("physical rules and the evaluator (Table 19)", () => {
  it("firing with the brake released breaks the launcher interlock (RULE)", async () => {
    const { env } = await started("Launch-02");
    env.step(tool("step", { launcher: { brake: false } }));
    const r = env.step(tool("step", { launcher: { fire: true } }));
    expect(r.terminated).toBe(true);
    expect(env.outcome()).toMatchObject({ success: false, category: "RULE" });
  });

  it("turning a braked handwheel is MECH; driving past the elevation limit is LIMIT", async () => {
    const braked = await started("Launch-02");
    braked.env.step(tool("step", { launcher: { elevationRate: 0.2 } }));
    expect(braked.env.outcome()).toMatchObject({ category: "MECH" });
    const limit = await started("Launch-02");
    const r = limit.env.step(tool("set_elevation", { degrees: 80 }));
    expect(r.terminated).toBe(true);
    expect(limit.env.outcome()).toMatchObject({ category: "LIMIT" });
  });

  it("finishing without the goal is QUIT; a success needs the Hanoi 1 s dwell before finish", async () => {
    const quit = await started("Tower-01");
    quit.env.step({ kind: "finish" });
    expect(quit.env.outcome()).toMatchObject({ success: false, category: "QUIT" });
    // The reference's one move, then finish after 0.3 s instead of its 1.3 s wait.
    const early = await started("Tower-01");
    function* shortDwell(script: Generator<Action, void, Observation>) {
      let next = script.next();
      while (!next.done) {
        const call = next.value.kind === "tool" ? next.value.calls[0] : undefined;
        const dwell = call?.tool === "wait" && (call.args.seconds as number) > 1;
        next = script.next(yield dwell ? tool("wait", { seconds: 0.3 }) : next.value);
      }
    }
    drive(
      early.env,
      shortDwell(towerReference(specFor("Tower-01").payload.scene as unknown as TowerScene)),
    );
    expect(early.env.outcome()).toMatchObject({ success: false, category: "QUIT" });
    expect((early.env.outcome().data as { detail: string }).detail).toMatch(
      /^goal held 0\.\d+ s of 1 s/,
    );
  });

  it("the gripper pressed into the floor is PEN, in both families", async () => {
    for (const index of ["Tower-01", "Launch-02"]) {
      const { env, first } = await started(index);
      const [x, y] = (first.view as { gripper: { pos: number[] } }).gripper.pos;
      const r = env.step(tool("step", { gripper: { pos: [x, y, 0] }, periods: 60 }));
      expect(r.terminated, index).toBe(true);
      expect(env.outcome(), index).toMatchObject({ success: false, category: "PEN" });
    }
  });

  it("spending the last marble without clearing the targets ends the episode (AMMO)", async () => {
    const { env } = await started("Launch-24"); // one marble
    env.step(tool("set_azimuth", { degrees: 40 }));
    env.step(tool("set_draw", { metres: 0.08 }));
    env.step(tool("fire"));
    let r = env.step(tool("wait", { seconds: 3 }));
    for (let i = 0; i < 5 && !r.terminated; i++) r = env.step(tool("wait", { seconds: 2 }));
    expect(r.terminated).toBe(true);
    expect(env.outcome()).toMatchObject({ success: false, category: "AMMO" });
  });

  it("a ring released away from the pegs is dropped (DROP)", async () => {
    const { env } = await started("Tower-01");
    const g = env.step(tool("grasp_pose", { ring: 1 })).observation.events[0]!.data as {
      pos: number[];
      yaw: number;
    };
    env.step(tool("move_to", { pos: g.pos, yaw: g.yaw, path: "lift" }));
    env.step(tool("grasp"));
    env.step(tool("move_to", { pos: [g.pos[0], g.pos[1], 0.25], yaw: g.yaw }));
    env.step(tool("move_to", { pos: [g.pos[0], (g.pos[1] ?? 0) - 0.15, 0.1], yaw: g.yaw }));
    env.step(tool("release"));
    const r = env.step(tool("wait", { seconds: 2 }));
    expect(r.terminated).toBe(true);
    expect(env.outcome()).toMatchObject({ success: false, category: "DROP" });
  });

  it("seating a ring on a smaller ring is RULE", async () => {
    const { env, first } = await started("Tower-02");
    // Move ring 1 to peg B, then ring 2 onto it.
    const view = first.view as { simulator: { pegs: { x: number; y: number }[] } };
    const grasp = (ring: number) =>
      env.step(tool("grasp_pose", { ring })).observation.events[0]!.data as {
        pos: number[];
        yaw: number;
      };
    const carry = (ring: number, peg: number, lift: number) => {
      const g = grasp(ring);
      env.step(tool("move_to", { pos: g.pos, yaw: g.yaw, path: "lift" }));
      env.step(tool("grasp"));
      env.step(tool("move_to", { pos: [g.pos[0], g.pos[1], 0.27], yaw: g.yaw }));
      const p = view.simulator.pegs[peg]!;
      const held = env.step(tool("observe")).observation.view as {
        simulator: { rings: { pos: number[] }[] };
        gripper: { pos: number[] };
      };
      const ringPos = held.simulator.rings[ring - 1]!.pos;
      const palm = held.gripper.pos;
      const x = p.x - (ringPos[0]! - palm[0]!);
      const y = p.y - (ringPos[1]! - palm[1]!);
      env.step(tool("move_to", { pos: [x, y, 0.27], yaw: g.yaw }));
      env.step(tool("move_to", { pos: [x, y, lift], yaw: g.yaw }));
      return env.step(tool("release"));
    };
    carry(1, 1, 0.072);
    const r = carry(2, 1, 0.09);
    expect(r.terminated).toBe(true);
    expect(env.outcome()).toMatchObject({ success: false, category: "RULE" });
    expect((env.outcome().data as { firstViolation: string }).firstViolation).toMatch(
      /ring 2 rests on the smaller ring 1/,
    );
  });

  it("lifting a covered ring lifts two rings at once: RULE", async () => {
    const { env } = await started("Tower-01");
    const g = env.step(tool("grasp_pose", { ring: 2 })).observation.events[0]!.data as {
      pos: number[];
      yaw: number;
    };
    env.step(tool("move_to", { pos: g.pos, yaw: g.yaw, path: "lift" }));
    env.step(tool("grasp"));
    const r = env.step(tool("move_to", { pos: [g.pos[0], g.pos[1], 0.27], yaw: g.yaw }));
    expect(r.terminated).toBe(true);
    expect(env.outcome()).toMatchObject({ success: false, category: "RULE" });
    expect((env.outcome().data as { firstViolation: string }).firstViolation).toMatch(
      /rings 1 and 2 are off their seats at once/,
    );
  });

  it("the gripper pushing a pane breaks no target: it touched a scene object (COLL)", async () => {
    // Launch-22's outer pane stands 0.9 m out, inside the gripper's workspace.
    const { env } = await started("Launch-22", 0, "L0");
    env.step(tool("step", { gripper: { pos: [0.8, 0, 0.3] }, periods: 150 }));
    const r = env.step(tool("step", { gripper: { pos: [0.97, 0, 0.2] }, periods: 50 }));
    expect(r.terminated).toBe(true);
    expect(env.outcome()).toMatchObject({ success: false, category: "COLL" });
    expect((env.outcome().data as { firstViolation: string }).firstViolation).toMatch(
      /the gripper touched outer/,
    );
  });

  it("running out of actions, then of simulated time, is TIME", async () => {
    // Table 4's budgets (7,500 actions = 150 s for the launcher) scaled down to keep this short.
    const short = async (budget: Partial<FamilyBudget>) => {
      const spec = specFor("Launch-02");
      const payload = { ...spec.payload, budget: { ...spec.payload.budget, ...budget } };
      const env = new PlaygroundEnvironment({ ...spec, payload }, PRIVILEGED_ACCESS, LAUNCH_FAMILY);
      envs.push(env);
      await env.reset();
      return env;
    };
    const actions = await short({ maxActions: 40 });
    const r = actions.step(tool("wait", { seconds: 2 }));
    expect([r.terminated, r.info.actions]).toEqual([true, 40]);
    expect(actions.outcome()).toMatchObject({
      category: "TIME",
      data: { termination: "TIME: 40 actions used" },
    });
    const time = await short({ maxSimTime: 0.5 });
    expect(time.step(tool("wait", { seconds: 2 })).info.actions).toBe(25);
    expect(time.outcome()).toMatchObject({
      category: "TIME",
      data: { termination: "TIME: 0.5 s simulated" },
    });
  });
});
