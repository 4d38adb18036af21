/**
 * RoboGraph's rule for `longhaul check` (Suite.hidden): an observation without privileged
 * access never names a node the robot cannot see right now (Eq. 2 projects the view from the
 * latent graph), except nodes the active goal names: the success criterion is part of every
 * observation (appendix B) and may name objects still out of sight. Rooms appear as adjacent
 * rooms and the robot as itself, so neither counts as hidden.
 */
import type { Json } from "../../core/index.ts";
import { World } from "../../world/index.ts";
import { goalNodeIds, type RoboGraphLatent } from "./environment.ts";

/** Ids of the nodes hidden from the agent in this latent snapshot. */
export function hiddenNodeIds(latent: Json): string[] {
  const { scene, goal } = latent as unknown as RoboGraphLatent;
  const visible = new World(scene, goal).visibleIds();
  const named = new Set(goalNodeIds(goal));
  return scene.nodes
    .filter(
      (n) => n.type !== "room" && n.type !== "robot" && !visible.has(n.id) && !named.has(n.id),
    )
    .map((n) => n.id);
}
