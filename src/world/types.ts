/**
 * The world engine's data model as zod schemas: scene graph G = (V, E, X) with its robots, goal
 * predicates, grounded actions, event schedules Λ = {⟨ψ, δ, κ⟩} (RoboGraph Eq. 1, 10, 12) and
 * the agent view. Action catalogs (skill schemas) are in catalog.ts.
 */
import { z } from "zod";

/** Node kinds. `robot` nodes are declared in `SceneGraph.robots`, never in `nodes`. */
export const NodeType = z.enum([
  "room",
  "furniture",
  "container",
  "surface",
  "object",
  "part",
  "robot",
]);
export type NodeType = z.infer<typeof NodeType>;

/** A lower-case key naming an affordance, attribute or action. */
export const Key = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/, "use lowercase letters, digits and '_', starting with a letter");

/**
 * What a node affords; any key a catalog's preconditions test. RoboGraph's are `openable`
 * (open/close), `pressable`, `grabbable`, `movable` (a blocker move_aside can shift), `support`
 * (puton target), `contain` (putin target) and `attachable` (part).
 */
export const Affordance = Key;
export type Affordance = z.infer<typeof Affordance>;

/**
 * A boolean node attribute; any key. The engine itself reads `open` (closed containers hide
 * their contents), `moved_aside` (inactive blockers) and the goal predicates' `pressed` and
 * `assembled`; `is_full` is derived from `capacity`, never stored.
 */
export const AttrName = Key;
export type AttrName = z.infer<typeof AttrName>;

/** Mutable state of one node; an absent attribute is "not applicable" (`open` on a plate). */
export const NodeAttrs = z.record(AttrName, z.boolean());
export type NodeAttrs = z.infer<typeof NodeAttrs>;

/** A node id: letters, digits, `_`, `-`, `.`; ids starting with `$` are event bindings. */
export const NodeId = z
  .string()
  .regex(/^[A-Za-z0-9_.-]+$/, "node ids use letters, digits, '_', '-' and '.' only");
export type NodeId = z.infer<typeof NodeId>;

/** One entity of the scene. */
export const WorldNode = z
  .object({
    id: NodeId,
    type: NodeType,
    name: z.string().min(1),
    category: z.string().min(1),
    affordances: z.array(Affordance),
    attrs: NodeAttrs.default({}),
    /** Max direct children (ON for supports, INSIDE for containers); full when reached. */
    capacity: z.number().int().positive().optional(),
    /** For `attachable` parts: the node ids this part can be attached to. */
    compatible: z.array(NodeId).optional(),
  })
  .strict();
export type WorldNode = z.infer<typeof WorldNode>;

/**
 * Edge relations. Location edges (from child to parent): ON, INSIDE, ATTACHED (part to base),
 * IN_ROOM (root node to room). ADJACENT links rooms; OCCLUDES goes blocker -> hidden node and is
 * active while the blocker is not moved aside. HELD (robot -> object) puts a node in a free
 * hand of that robot; views show it for other robots' hands; scenes list hands in `robots`.
 */
export const Relation = z.enum([
  "ON",
  "INSIDE",
  "ATTACHED",
  "IN_ROOM",
  "ADJACENT",
  "OCCLUDES",
  "HELD",
]);
export type Relation = z.infer<typeof Relation>;

/** A directed edge `from -rel-> to`. */
export const WorldEdge = z.object({ from: NodeId, to: NodeId, rel: Relation }).strict();
export type WorldEdge = z.infer<typeof WorldEdge>;

/**
 * A robot: a first-class node of type `robot` located in a room, with its own hands (one
 * entry per gripper, each empty or holding a node id; the list's length is the robot's hand
 * capacity) and skill set. Trays are ordinary container nodes placed ON or INSIDE the robot;
 * whatever rests on a robot or in its hands moves with it.
 */
export const RobotSpec = z
  .object({
    id: NodeId,
    name: z.string().min(1).optional(),
    room: NodeId,
    hands: z.array(NodeId.nullable()).max(16).default([null, null]),
    /** The catalog actions this robot may execute; all of them when omitted. */
    skills: z.array(Key).optional(),
  })
  .strict();
export type RobotSpec = z.infer<typeof RobotSpec>;

/** A latent scene graph with its robots. `navigation` enables `walk` (indoor scenes). */
export const SceneGraph = z
  .object({
    nodes: z.array(WorldNode).min(1),
    edges: z.array(WorldEdge),
    robots: z.array(RobotSpec).min(1),
    navigation: z.boolean().default(false),
  })
  .strict();
export type SceneGraph = z.infer<typeof SceneGraph>;

/** RoboGraph's single-robot shorthand: `robot: { room, hands: [left, right] }`. */
export interface SingleRobotScene extends Omit<SceneGraph, "robots"> {
  robot: { room: string; hands: [string | null, string | null] };
}

/** A scene as callers may write it (defaults optional): with `robots`, or the shorthand. */
export type SceneInput = z.input<typeof SceneGraph> | SingleRobotScene;

/** The id the single-robot shorthand gives its robot. */
export const DEFAULT_ROBOT_ID = "robot";

/**
 * Read the single-robot shorthand as `robots: [{ id: "robot", room, hands }]` (RoboGraph's
 * compiled payloads keep the shorthand, so their content hash is unchanged); anything else is
 * returned as is for validation.
 */
export function normalizeScene(input: unknown): unknown {
  if (typeof input !== "object" || input === null || !("robot" in input) || "robots" in input)
    return input;
  const { robot, ...rest } = input as { robot: unknown };
  const single = typeof robot === "object" && robot !== null ? robot : {};
  return { ...rest, robots: [{ id: DEFAULT_ROBOT_ID, ...single }] };
}

/** Placement relations a goal can ask for. */
export const PlacementRel = z.enum(["ON", "INSIDE"]);
export type PlacementRel = z.infer<typeof PlacementRel>;

/**
 * One goal fact: a placement (ON/INSIDE object target), a node state (OPEN/CLOSED/PRESSED, or
 * ATTR for any attribute value: "the stove is switched off"), an assembly (ASSEMBLED part
 * target: an ATTACHED edge between the two, either direction), a counted placement ("exactly
 * three markers in box": COUNT over a category), or a whereabouts (AT node room: the node, a
 * robot or whatever rests on or is held by one, is in that room).
 */
export const GoalAtom = z.discriminatedUnion("pred", [
  z.object({ pred: z.literal("ON"), object: NodeId, target: NodeId }).strict(),
  z.object({ pred: z.literal("INSIDE"), object: NodeId, target: NodeId }).strict(),
  z.object({ pred: z.literal("OPEN"), node: NodeId }).strict(),
  z.object({ pred: z.literal("CLOSED"), node: NodeId }).strict(),
  z.object({ pred: z.literal("PRESSED"), node: NodeId }).strict(),
  z.object({ pred: z.literal("ATTR"), node: NodeId, attr: AttrName, value: z.boolean() }).strict(),
  z.object({ pred: z.literal("AT"), node: NodeId, room: NodeId }).strict(),
  z.object({ pred: z.literal("ASSEMBLED"), part: NodeId, target: NodeId }).strict(),
  z
    .object({
      pred: z.literal("COUNT"),
      rel: PlacementRel,
      category: z.string().min(1),
      target: NodeId,
      op: z.enum(["exactly", "at_least"]),
      n: z.number().int().nonnegative(),
    })
    .strict(),
]);
export type GoalAtom = z.infer<typeof GoalAtom>;

/** A goal predicate g: the conjunction of its atoms. */
export const Goal = z.object({ all: z.array(GoalAtom) }).strict();
export type Goal = z.infer<typeof Goal>;

/** The action names of RoboGraph's catalog (Table 5). */
export const ActionName = z.enum([
  "observe",
  "walk",
  "open",
  "close",
  "press",
  "grab",
  "attach",
  "puton",
  "putin",
  "move_aside",
  "stop",
]);
export type ActionName = z.infer<typeof ActionName>;

/**
 * One grounded action: a catalog action name, its ordered node ids (object, then target) and
 * the robot that executes it (the scene's first robot when omitted).
 */
export const WorldAction = z
  .object({ name: z.string(), args: z.array(z.string()).default([]), robot: NodeId.optional() })
  .strict();
export type WorldAction = z.infer<typeof WorldAction>;

/** Typed failure feedback, phrased in agent-visible terms only. */
export const FailureType = z.enum([
  "invalid_action",
  "not_visible",
  "not_available",
  "not_adjacent",
  "missing_affordance",
  "already_in_state",
  "hands_not_free",
  "not_held",
  "carrier_loaded",
  "target_full",
  "placement_cycle",
  "target_closed",
  "incompatible",
  "occupied",
  "injected_failure",
]);
export type FailureType = z.infer<typeof FailureType>;

/** The outcome of the last action as the agent sees it (φ(h_t) of Eq. 9). */
export const ActionFeedback = z
  .object({
    action: WorldAction,
    status: z.enum(["success", "failure"]),
    failure_type: FailureType.nullable(),
    message: z.string(),
  })
  .strict();
export type ActionFeedback = z.infer<typeof ActionFeedback>;

/**
 * An event-rewrite node reference: a literal node id, or a binding from the trigger:
 * `$object` / `$target` (the triggering action's args or goal fact), `$node` (attr trigger).
 */
export const NodeRef = z.string().min(1);
export type NodeRef = z.infer<typeof NodeRef>;

/** Guards of progress triggers: not before that many steps / that simulated time. */
const guards = {
  minStep: z.number().int().nonnegative().optional(),
  minTime: z.number().nonnegative().optional(),
};

/**
 * Event triggers ψ: on semantic progress (an action's success, a goal fact, an attribute, a
 * full container; `minStep`/`minTime` guard them and `action`/`node`/`robot` narrow what
 * matches), or on the clock (`step`: once n agent steps were taken; `time`: once the
 * simulated time given by the caller reaches `at` seconds).
 */
export const Trigger = z.discriminatedUnion("on", [
  /** An action that would succeed (checked before its effect; with timing `suppress` it fails). */
  z
    .object({
      on: z.literal("action_success"),
      action: Key.optional(),
      node: NodeId.optional(),
      robot: NodeId.optional(),
      ...guards,
    })
    .strict(),
  /** A goal atom of the active goal becomes satisfied (any ON/INSIDE placement if `fact` omitted). */
  z
    .object({
      on: z.literal("goal_fact"),
      fact: GoalAtom.optional(),
      pred: z
        .enum(["ON", "INSIDE", "OPEN", "CLOSED", "PRESSED", "ATTR", "AT", "ASSEMBLED", "COUNT"])
        .optional(),
      ...guards,
    })
    .strict(),
  /** A node attribute reaches a value through an agent action (e.g. open = true). */
  z
    .object({
      on: z.literal("attr_reached"),
      attr: AttrName,
      value: z.boolean(),
      node: NodeId.optional(),
      ...guards,
    })
    .strict(),
  /** A support/container reaches its capacity (is_full becomes true). */
  z
    .object({
      on: z.literal("full"),
      node: NodeId.optional(),
      ...guards,
    })
    .strict(),
  /** Once the world has counted `at` agent steps (checked after each step and on tick). */
  z.object({ on: z.literal("step"), at: z.number().int().positive() }).strict(),
  /** Once the simulated time passed to `World.tick` reaches `at` seconds. */
  z.object({ on: z.literal("time"), at: z.number().nonnegative() }).strict(),
]);
export type Trigger = z.infer<typeof Trigger>;

/** Graph rewrites δ an event applies; node references may use trigger bindings. */
export const Rewrite = z.discriminatedUnion("op", [
  z.object({ op: z.literal("add_node"), node: WorldNode }).strict(),
  z.object({ op: z.literal("remove_node"), node: NodeRef }).strict(),
  z.object({ op: z.literal("add_edge"), from: NodeRef, to: NodeRef, rel: Relation }).strict(),
  z.object({ op: z.literal("remove_edge"), from: NodeRef, to: NodeRef, rel: Relation }).strict(),
  z
    .object({ op: z.literal("set_attr"), node: NodeRef, attr: AttrName, value: z.boolean() })
    .strict(),
  /** Move a node (out of a hand if held) to a new ON/INSIDE location. */
  z
    .object({ op: z.literal("relocate"), node: NodeRef, rel: PlacementRel, target: NodeRef })
    .strict(),
  /** Replace the active goal. */
  z.object({ op: z.literal("replace_goal"), goal: Goal }).strict(),
  /** Add atoms to the active goal. */
  z.object({ op: z.literal("extend_goal"), atoms: z.array(GoalAtom) }).strict(),
]);
export type Rewrite = z.infer<typeof Rewrite>;

/**
 * When κ the rewrite applies: `suppress` replaces the triggering action's effect with a typed
 * failure (I1); `after_action` applies right after the triggering step, before the observation
 * (clock triggers: as soon as they are due).
 */
export const Timing = z.enum(["suppress", "after_action"]);
export type Timing = z.infer<typeof Timing>;

/** One scheduled event λ = ⟨ψ, δ, κ⟩ with firing limits. */
export const WorldEvent = z
  .object({
    id: z.string().min(1),
    trigger: Trigger,
    rewrites: z.array(Rewrite),
    timing: Timing,
    /** At most this many firings in a rollout (default 1). */
    maxFires: z.number().int().positive().default(1),
    /** Fire at most once per action name (I1), on top of maxFires. */
    oncePerAction: z.boolean().default(false),
    /** Text for the caller's user channel when the event fires (e.g. a mission update). */
    message: z.string().optional(),
  })
  .strict();
export type WorldEvent = z.infer<typeof WorldEvent>;

/** An event schedule Λ. */
export const EventSchedule = z.array(WorldEvent);
export type EventSchedule = z.infer<typeof EventSchedule>;

/** A record that an event fired, for traces and metrics (`time` for clock-triggered ones). */
export const FiredEvent = z
  .object({
    id: z.string(),
    step: z.number().int(),
    bindings: z.record(z.string(), z.string()),
    time: z.number().optional(),
    message: z.string().optional(),
  })
  .strict();
export type FiredEvent = z.infer<typeof FiredEvent>;

/**
 * A visible node with its observable attributes (ρ of Eq. 9; appendix B, Figure 11): open,
 * assembled, pressed and is_full under their own names, any other attribute except
 * moved_aside in `attrs`.
 */
export const ViewNode = z
  .object({
    id: NodeId,
    name: z.string(),
    category: z.string(),
    type: NodeType,
    open: z.boolean().optional(),
    assembled: z.boolean().optional(),
    pressed: z.boolean().optional(),
    is_full: z.boolean().optional(),
    attrs: NodeAttrs.optional(),
  })
  .strict();
export type ViewNode = z.infer<typeof ViewNode>;

/**
 * The task-conditioned view graph O(G_t, h_t) (Eq. 9) of one robot plus its state and its last
 * action's feedback. Other robots in view are visible nodes (type `robot`, HELD edges to what
 * they hold); `robot.id` is given in scenes with several robots; two hands read left/right.
 */
export const WorldView = z
  .object({
    step: z.number().int(),
    visible_nodes: z.array(ViewNode),
    visible_edges: z.array(z.object({ from: NodeId, to: NodeId, relation: Relation }).strict()),
    held_objects: z.array(z.object({ id: NodeId, name: z.string() }).strict()),
    robot: z
      .object({
        id: NodeId.optional(),
        hands: z.union([
          z.object({ left: NodeId.nullable(), right: NodeId.nullable() }).strict(),
          z.array(NodeId.nullable()),
        ]),
        navigation_enabled: z.boolean(),
        current_room: NodeId,
        adjacent_rooms: z.array(NodeId),
      })
      .strict(),
    last_action: ActionFeedback.nullable(),
  })
  .strict();
export type WorldView = z.infer<typeof WorldView>;

/** The result of one engine step. */
export const WorldStepResult = z
  .object({
    feedback: ActionFeedback,
    fired: z.array(FiredEvent),
    terminated: z.boolean(),
  })
  .strict();
export type WorldStepResult = z.infer<typeof WorldStepResult>;
