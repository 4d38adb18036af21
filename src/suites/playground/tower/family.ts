/** The Hanoi family: tool declarations, the low-level command, task compilation. */
import { type CatalogEntry, hanoiDepth, towerWorkload } from "../catalog.ts";
import { GRIPPER_COMMAND_SCHEMA } from "../commands.ts";
import type { FamilyDef } from "../environment.ts";
import type { FamilyPayload, PlaygroundPayload } from "../payload.ts";
import { FAMILY_BUDGETS, type Level } from "../protocol.ts";
import type { TowerScene } from "./board.ts";
import { hanoiVerdict } from "./evaluate.ts";
import { towerScene } from "./tasks.ts";
import { HANOI_DWELL, HanoiWorld, LIFT_PERIODS, REST_SPEED, REST_SPIN } from "./world.ts";

const POSE = {
  pos: { type: "array", items: { type: "number" }, minItems: 3, maxItems: 3 },
  yaw: { type: "number" },
};

export const HANOI_FAMILY: FamilyDef = {
  commandSchema: {
    type: "object",
    properties: { gripper: GRIPPER_COMMAND_SCHEMA },
    additionalProperties: false,
  },
  tools: [
    {
      grant: "planning",
      spec: {
        name: "move_to",
        description:
          'Move the palm to pos (metres) and yaw (radians) at the speed limit; path "lift" rises to a height that clears every peg and barrier first, travels, then descends.',
        parameters: {
          type: "object",
          properties: { ...POSE, path: { enum: ["direct", "lift"] } },
          required: ["pos"],
          additionalProperties: false,
        },
      },
    },
    {
      grant: "planning",
      spec: {
        name: "grasp",
        description: "Close the fingers and wait 0.3 s.",
        parameters: { type: "object", properties: {}, additionalProperties: false },
      },
    },
    {
      grant: "planning",
      spec: {
        name: "release",
        description: "Open the fingers and wait 0.3 s.",
        parameters: { type: "object", properties: {}, additionalProperties: false },
      },
    },
    {
      grant: "grasp",
      spec: {
        name: "grasp_pose",
        description: "Grasp proposal: the palm pose that centres the pads on a ring's handle.",
        parameters: {
          type: "object",
          properties: { ring: { type: "integer", minimum: 1, maximum: 5 } },
          required: ["ring"],
          additionalProperties: false,
        },
      },
    },
  ],
  build: (payload) => HanoiWorld.create(payload.scene as unknown as TowerScene),
  verdict: hanoiVerdict,
};

const pegName = (p: number) => "ABC"[p]!;

function arrangement(state: number[]): string {
  return [0, 1, 2]
    .map((p) => {
      const rings = state.flatMap((q, i) => (q === p ? [i + 1] : [])).reverse();
      return `${pegName(p)}: [${rings.join(", ")}]`;
    })
    .join("; ");
}

/** The payload of one Tower task under one condition. */
export function towerPayload(entry: CatalogEntry, condition: number, level: Level): FamilyPayload {
  const { scene, theme } = towerScene(entry.caseId, condition);
  const depth = hanoiDepth(entry.caseId);
  const pegs = scene.pegs
    .map(
      (p, i) =>
        `${pegName(i)} at (${p.x.toFixed(3)}, ${p.y.toFixed(3)}) m, base ${p.base} m, length ${p.height} m`,
    )
    .join("; ");
  const instructions = [
    `Tower of Hanoi with five rings (1 smallest .. 5 largest) and three pegs, ${theme}.`,
    `Start (bottom to top): ${arrangement(scene.start)}. Goal: ${arrangement(scene.goal)} (${depth} moves at best).`,
    `Pegs: ${pegs}; peg radius ${scene.pegRadius} m, ring hole radius ${scene.holeRadius} m, ring height ${scene.ringHeight} m, ring outer radii ${scene.rings.map((r) => r.outer).join(", ")} m.`,
    "Each ring has a handle tab pointing along its yaw, reaching 35 mm beyond its rim; a floating parallel gripper (pads close along the palm's y axis, hanging 37 mm below the palm) grasps it by friction.",
    `Finish after the goal arrangement has held, released and at rest, for ${HANOI_DWELL} s; finish grants no extra time.`,
    `A ring is at rest below ${REST_SPEED} m/s and ${REST_SPIN} rad/s; two rings off their seats for ${LIFT_PERIODS} control periods at once count as lifted together.`,
  ].join("\n");
  return {
    entry,
    family: "hanoi",
    condition,
    level,
    budget: FAMILY_BUDGETS.hanoi,
    workload: towerWorkload(entry.caseId, "panda"),
    instructions,
    rules: [
      "Move only the exposed (top) ring; never lift two rings at once.",
      "Never seat a ring on a smaller ring.",
      "Rings must stay on the pegs or in the gripper: a ring at rest elsewhere is dropped (DROP).",
      "Penetration beyond 12 mm (PEN) and gripper speeds above 1.5 m/s (LIMIT) end the episode.",
    ],
    scene: scene as unknown as PlaygroundPayload["scene"],
  };
}
