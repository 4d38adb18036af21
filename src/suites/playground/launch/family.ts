/** The launcher family: tool declarations, the low-level command, task compilation. */
import type { Json } from "../../../core/index.ts";
import { type CatalogEntry, LAUNCH_TIER, launchWorkload } from "../catalog.ts";
import { GRIPPER_COMMAND_SCHEMA } from "../commands.ts";
import type { FamilyDef } from "../environment.ts";
import type { FamilyPayload } from "../payload.ts";
import { FAMILY_BUDGETS, type Level } from "../protocol.ts";
import { launchVerdict } from "./evaluate.ts";
import { LAUNCHER, MUZZLE_EFFICIENCY } from "./launcher.ts";
import { launchScenes } from "./scene.ts";
import { type LaunchScene, launchScene } from "./tasks.ts";
import {
  BLOCK_SHIFT,
  BLOCK_TILT,
  LaunchWorld,
  PLATE_CLEARED,
  PROTECTED_WINDOW,
  START_ANGLES,
} from "./world.ts";

const noArgs = { type: "object", properties: {}, additionalProperties: false };
const degrees = (what: string) => ({
  type: "object",
  properties: { degrees: { type: "number", description: what } },
  required: ["degrees"],
  additionalProperties: false,
});

export const LAUNCH_FAMILY: FamilyDef = {
  commandSchema: {
    type: "object",
    properties: {
      gripper: GRIPPER_COMMAND_SCHEMA,
      launcher: {
        type: "object",
        description: "handwheel and winch rates (held until changed), brake, one-shot fire",
        properties: {
          azimuthRate: {
            type: "number",
            minimum: -LAUNCHER.azimuthRate,
            maximum: LAUNCHER.azimuthRate,
            description: "rad/s",
          },
          elevationRate: {
            type: "number",
            minimum: -LAUNCHER.elevationRate,
            maximum: LAUNCHER.elevationRate,
            description: "rad/s",
          },
          drawRate: {
            type: "number",
            minimum: -LAUNCHER.drawRate,
            maximum: LAUNCHER.drawRate,
            description: "m/s, positive draws back",
          },
          brake: { type: "boolean" },
          fire: { type: "boolean" },
        },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
  tools: [
    {
      grant: "planning",
      spec: {
        name: "set_azimuth",
        description:
          "Release the brake, turn the azimuth handwheel to the angle at its speed limit, settle, engage the brake.",
        parameters: degrees("azimuth in degrees from the launcher's base yaw"),
      },
    },
    {
      grant: "planning",
      spec: {
        name: "set_elevation",
        description:
          "Release the brake, turn the elevation handwheel to the angle at its speed limit, settle, engage the brake.",
        parameters: degrees("elevation in degrees above horizontal"),
      },
    },
    {
      grant: "planning",
      spec: {
        name: "set_draw",
        description:
          "Wind the winch until the plunger is drawn back by `metres` (0 to 0.2), then settle.",
        parameters: {
          type: "object",
          properties: { metres: { type: "number", minimum: 0, maximum: LAUNCHER.maxDraw } },
          required: ["metres"],
          additionalProperties: false,
        },
      },
    },
    {
      grant: "planning",
      spec: {
        name: "fire",
        description: "Release the latch (the brake must be engaged).",
        parameters: noArgs,
      },
    },
    {
      grant: "planning",
      spec: {
        name: "reload",
        description:
          "With the gripper, take the next marble from the tray and drop it into the breech (plunger forward, barrel empty).",
        parameters: noArgs,
      },
    },
  ],
  build: (payload) => LaunchWorld.create(payload.scene as unknown as LaunchScene),
  verdict: launchVerdict,
};

/** The payload of one Launch task under one condition. */
export function launchPayload(entry: CatalogEntry, condition: number, level: Level): FamilyPayload {
  const file = launchScenes().get(entry.index);
  if (!file) throw new Error(`no scene file for ${entry.index}`);
  const scene = launchScene(file, condition);
  const tier = LAUNCH_TIER[file.case]!;
  const instructions = [
    file.description,
    `Required targets: ${file.required.join(", ")}${file.order ? `; in this order: ${file.order.join(" then ")}` : ""}${file.protected ? `; protected (must stay intact): ${file.protected.join(", ")}` : ""}.`,
    `Ammunition: ${file.ammo} marbles of ${LAUNCHER.ballMass} kg (radius ${LAUNCHER.ballRadius} m), the first preloaded; reload the others from the tray with the gripper.`,
    `Launcher at (${scene.base.x.toFixed(3)}, ${scene.base.y.toFixed(3)}) m, base yaw ${scene.base.yaw.toFixed(3)} rad, pivot ${LAUNCHER.pivotHeight} m high; the ball leaves the muzzle ${LAUNCHER.muzzle} m ahead of the pivot along the barrel. Start: azimuth ${START_ANGLES.az}, elevation ${START_ANGLES.el} rad, brake engaged.`,
    `Spring stiffness k = ${scene.k} N/m, plunger ${LAUNCHER.plungerMass} kg; muzzle speed v = ${MUZZLE_EFFICIENCY} * sqrt((k d^2 - 2 m_b g sin(el) d)/(m_p + m_b) - 2 g sin(el) * ${(LAUNCHER.muzzle - LAUNCHER.ballRest).toFixed(3)}) for draw d <= ${LAUNCHER.maxDraw} m (marble m_b, plunger m_p); no air drag.`,
    `Limits: azimuth within +/-${Math.round((LAUNCHER.azimuthRange[1] * 180) / Math.PI)} deg, elevation ${Math.round((LAUNCHER.elevationRange[0] * 180) / Math.PI)}-${Math.round((LAUNCHER.elevationRange[1] * 180) / Math.PI)} deg (LIMIT beyond); turn handwheels only with the brake released (MECH), fire only with it engaged (RULE).`,
    `A plate is cleared when it falls past ${PLATE_CLEARED} rad; a pane when it shatters; a free body with an id when it tilts past ${BLOCK_TILT} rad or moves ${BLOCK_SHIFT} m.${file.protected ? ` After the last required hit, ${PROTECTED_WINDOW} s must pass with the protected targets intact before finishing.` : ""}`,
  ].join("\n");
  const objects: Json = file.objects as unknown as Json;
  return {
    entry,
    family: "launcher",
    condition,
    level,
    budget: FAMILY_BUDGETS.launcher,
    workload: launchWorkload(tier, file.loadedLevel, file.required.length),
    instructions: `${instructions}\nScene objects (nominal): ${JSON.stringify(objects)}`,
    rules: [
      "Clear every required target; ordered targets in order; never hit a protected target (RULE).",
      "Aiming cycle: release the brake, turn the handwheels, engage the brake, then fire (RULE otherwise).",
      "Angles beyond the launcher's limits are LIMIT; turning a braked handwheel is MECH.",
      "When every marble is spent and the scene is at rest without success, the episode ends (AMMO).",
      "The gripper only handles marbles: touching a scene box, ball or pane is COLL; a gripper contact deeper than 12 mm is PEN.",
    ],
    scene: scene as unknown as Json,
  };
}
