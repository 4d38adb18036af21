import { afterEach, describe, expect, it } from "vitest";
import { leakedValues } from "../../check/leaks.ts";
import type { Json } from "../../core/index.ts";
import type { PlaygroundEnvironment } from "./environment.ts";
import { hiddenValues, type PlaygroundLatent } from "./hidden.ts";
import type { Level } from "./protocol.ts";
import { envFor, specFor, tool } from "./test-support.ts";

const envs: PlaygroundEnvironment[] = [];
afterEach(() => {
  for (const e of envs.splice(0)) e.close();
});

async function latentAfterMoving(index: string, level: Level) {
  const env = envFor(index, 1, level);
  envs.push(env);
  await env.reset();
  const gripper = { pos: [0.05, -0.1, 0.25], closure: 0 };
  const moved = env.step(tool("step", { gripper, periods: 20 }));
  return { env, observation: moved.observation, latent: env.latent() };
}

describe("what an agent must not read at its level (Suite.hidden)", () => {
  it("below L3 the simulator readout is hidden and the honest observation shows none of it", async () => {
    for (const index of ["Tower-04", "Launch-13"]) {
      const { observation, latent } = await latentAfterMoving(index, "L1");
      const hidden = hiddenValues(latent, specFor(index, 1, "L1"));
      // At rest most poses equal the card's layout; the ones that differ (settled rings, the
      // preloaded marble) are hidden.
      expect(hidden.length, index).toBeGreaterThan(0);
      expect(leakedValues(observation, hidden), index).toEqual([]);
      // A view that carried the L3 fields under any other name would be caught.
      const simulator = (latent as unknown as PlaygroundLatent).view.simulator;
      const leaky = { ...observation, view: { ...(observation.view as object), poses: simulator } };
      expect(leakedValues(leaky, hidden).length, index).toBeGreaterThan(0);
    }
  });

  it("at L3 only the Tower's realized perturbations stay hidden, and the card gives nominal values", async () => {
    const { env, observation, latent } = await latentAfterMoving("Tower-04", "L3");
    const spec = specFor("Tower-04", 1, "L3");
    const hidden = hiddenValues(latent, spec);
    expect(hidden).toHaveLength(10); // five masses and five frictions
    expect(leakedValues({ card: env.describe(), observation } as unknown as Json, hidden)).toEqual(
      [],
    );
    expect(leakedValues(spec.payload.scene, hidden)).toHaveLength(10);
    const launch = await latentAfterMoving("Launch-02", "L3");
    expect(hiddenValues(launch.latent, specFor("Launch-02", 1, "L3"))).toEqual([]);
  });
});
