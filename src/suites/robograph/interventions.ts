/**
 * Interventions I1-I6 of Table 4 as world event schedules Λ = {⟨ψ, δ, κ⟩}. Triggers refer to
 * semantic progress (first successful action of a type, a newly satisfied placement fact, a
 * reached attribute, a full container), never to step counts alone.
 */
import type {
  EventSchedule,
  GoalAtom,
  SingleRobotScene,
  WorldEvent,
  WorldNode,
} from "../../world/index.ts";
import type { SceneRoles } from "./generator.ts";
import type { Condition } from "./outcome.ts";

/** Steps before I2 may fire ("after the minimum-step guard"). */
export const I2_MIN_STEP = 2;
/** Steps before I5 may fire (an eligible mid-episode pair). */
export const I5_MIN_STEP = 4;
/** I1 fires at most once per action name; this bounds it by the catalog size. */
const CATALOG_SIZE = 11;

function freshId(scene: SingleRobotScene, name: string): string {
  const base = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");
  const used = new Set(scene.nodes.map((n) => n.id));
  let id = base;
  for (let k = 2; used.has(id); k++) id = `${base}_${k}`;
  return id;
}

function addedObject(scene: SingleRobotScene, name: string, category: string): WorldNode {
  return {
    id: freshId(scene, name),
    type: "object",
    name,
    category,
    affordances: ["grabbable"],
    attrs: {},
  };
}

/** I2 resets an opened container; scenes without openables reset a moved-aside blocker. */
function stateRegression(scene: SingleRobotScene): WorldEvent {
  const openable = scene.nodes.some((n) => n.affordances.includes("openable"));
  const attr = openable ? "open" : "moved_aside";
  return {
    id: "I2",
    trigger: { on: "attr_reached", attr, value: true, minStep: I2_MIN_STEP },
    rewrites: [{ op: "set_attr", node: "$node", attr, value: false }],
    timing: "after_action",
    maxFires: 1,
    oncePerAction: false,
  };
}

function addedOcclusion(scene: SingleRobotScene, roles: SceneRoles): WorldEvent {
  const rewrites: WorldEvent["rewrites"] = [];
  let blocker = roles.blocker;
  if (!blocker) {
    const node: WorldNode = {
      id: freshId(scene, "cardboard box"),
      type: "object",
      name: "cardboard box",
      category: "clutter",
      affordances: ["movable"],
      attrs: { moved_aside: false },
    };
    rewrites.push(
      { op: "add_node", node },
      { op: "add_edge", from: node.id, to: roles.staging, rel: "ON" },
    );
    blocker = { id: node.id, surface: roles.staging };
  }
  const surface = scene.nodes.find((n) => n.id === blocker.surface);
  const rel = surface?.type === "container" ? "INSIDE" : "ON";
  rewrites.push(
    { op: "relocate", node: "$object", rel, target: blocker.surface },
    { op: "set_attr", node: blocker.id, attr: "moved_aside", value: false },
    { op: "add_edge", from: blocker.id, to: "$object", rel: "OCCLUDES" },
  );
  return {
    id: "I5",
    trigger: { on: "goal_fact", minStep: I5_MIN_STEP },
    rewrites,
    timing: "after_action",
    maxFires: 1,
    oncePerAction: false,
  };
}

function addedObjectSubgoal(scene: SingleRobotScene, roles: SceneRoles): WorldEvent | null {
  if (roles.capacity) {
    const node = addedObject(scene, roles.capacity.spareName, roles.capacity.category);
    return {
      id: "I6",
      trigger: { on: "full", node: roles.capacity.container },
      rewrites: [
        { op: "add_node", node },
        { op: "add_edge", from: node.id, to: roles.staging, rel: "ON" },
        {
          op: "extend_goal",
          atoms: [{ pred: "INSIDE", object: node.id, target: roles.capacity.overflow }],
        },
      ],
      timing: "after_action",
      maxFires: 1,
      oncePerAction: false,
    };
  }
  const source = roles.source;
  if (!source) return null;
  const node = addedObject(scene, source.spareName, source.category);
  const fact: GoalAtom = { pred: source.rel, object: source.id, target: source.target };
  return {
    id: "I6",
    trigger: { on: "goal_fact", fact },
    rewrites: [
      { op: "add_node", node },
      { op: "add_edge", from: node.id, to: roles.staging, rel: "ON" },
      { op: "extend_goal", atoms: [{ pred: source.rel, object: node.id, target: source.target }] },
    ],
    timing: "after_action",
    maxFires: 1,
    oncePerAction: false,
  };
}

/** The event schedule of one condition; the baseline has none. */
export function interventionSchedule(
  condition: Condition,
  scene: SingleRobotScene,
  roles: SceneRoles,
): EventSchedule {
  switch (condition) {
    case "base":
      return [];
    case "i1":
      return [
        {
          id: "I1",
          trigger: { on: "action_success" },
          rewrites: [],
          timing: "suppress",
          maxFires: CATALOG_SIZE,
          oncePerAction: true,
        },
      ];
    case "i2":
      return [stateRegression(scene)];
    case "i3":
      return [
        {
          id: "I3",
          trigger: { on: "goal_fact" },
          rewrites: [{ op: "relocate", node: "$object", rel: "ON", target: roles.staging }],
          timing: "after_action",
          maxFires: 1,
          oncePerAction: false,
        },
      ];
    case "i4":
      return roles.wrong
        ? [
            {
              id: "I4",
              trigger: { on: "goal_fact", pred: "INSIDE" },
              rewrites: [{ op: "relocate", node: "$object", rel: "INSIDE", target: roles.wrong }],
              timing: "after_action",
              maxFires: 1,
              oncePerAction: false,
            },
          ]
        : [];
    case "i5":
      return [addedOcclusion(scene, roles)];
    case "i6": {
      const event = addedObjectSubgoal(scene, roles);
      return event ? [event] : [];
    }
  }
}
