/**
 * Rules scenes (Table 2's Rules type): ordered targets, protected targets and recovery after a
 * miss, checked by playing the reference controller with a changed shot list.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { PlaygroundEnvironment } from "../environment.ts";
import { drive, envFor, specFor } from "../test-support.ts";
import { launchReference } from "./reference.ts";
import type { LaunchScene } from "./tasks.ts";

const envs: PlaygroundEnvironment[] = [];
afterEach(() => {
  for (const e of envs.splice(0)) e.close();
});

type Shot = LaunchScene["file"]["solution"][number];

/** The reference controller of `index` (condition 2) shooting `shots` instead of its solution. */
async function play(index: string, shots: (solution: Shot[]) => Shot[]) {
  const scene = specFor(index, 1).payload.scene as unknown as LaunchScene;
  const env = envFor(index, 1);
  envs.push(env);
  await env.reset();
  drive(
    env,
    launchReference({ ...scene, file: { ...scene.file, solution: shots(scene.file.solution) } }),
  );
  return env.outcome() as {
    success: boolean;
    category?: string;
    data: { firstViolation: string | null };
  };
}

describe("Rules scenes", () => {
  it("a target cleared before those ordered ahead of it is RULE (Launch-34: glass, wood, metal)", async () => {
    const outcome = await play("Launch-34", ([glass, wood, metal]) => [metal!, glass!, wood!]);
    expect(outcome).toMatchObject({ success: false, category: "RULE" });
    expect(outcome.data.firstViolation).toMatch(/metal was cleared before glass, wood/);
  });

  it("hitting a protected target is RULE (Launch-27: the neighbor plate)", async () => {
    const outcome = await play("Launch-27", () => [{ aim: [1.3, -0.12, 0.05], elevation: 14 }]);
    expect(outcome).toMatchObject({ success: false, category: "RULE" });
    expect(outcome.data.firstViolation).toMatch(/protected neighbor was hit/);
  });

  it("a miss is recoverable: reload from the tray and hit with the second marble (Launch-27)", async () => {
    const outcome = await play("Launch-27", (solution) => [
      { aim: [1.3, 0.5, 0.05], elevation: 14 },
      ...solution,
    ]);
    expect(outcome).toMatchObject({ success: true, data: { firstViolation: null } });
  });
});
