/**
 * The world engine's data model as zod schemas: scene graph G = (V, E, X), goal predicates,
 * action schemas, event schedules Λ = {⟨ψ, δ, κ⟩} (RoboGraph Eq. 1, 10, 12) and the agent view.
 */
import { z } from "zod";

/** Node kinds of a RoboGraph scene graph. */
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

/**
 * What a node affords: `openable` (open/close), `pressable`, `grabbable`, `movable` (a blocker
 * move_aside can shift), `support` (puton target), `contain` (putin target), `attachable` (part).
 */
export const Affordance = z.enum([
  "openable",
  "pressable",
  "grabbable",
  "movable",
  "support",
  "contain",
  "attachable",
]);
export type Affordance = z.infer<typeof Affordance>;

/** Mutable boolean node attributes; `is_full` is derived from `capacity`, never stored. */
export const AttrName = z.enum(["open", "pressed", "assembled", "moved_aside"]);
export type AttrName = z.infer<typeof AttrName>;

/** Mutable state of one node; absent means "not applicable" (e.g. `open` on a plate). */
export const NodeAttrs = z
  .object({
    open: z.boolean().optional(),
    pressed: z.boolean().optional(),
    assembled: z.boolean().optional(),
    moved_aside: z.boolean().optional(),
  })
  .strict();
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
 * active while the blocker is not moved aside. HELD (robot -> object) appears in views only;
 * the latent state keeps held objects in the robot's hands.
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

/** The robot: its room and two hands (left, right), each empty (null) or holding a node id. */
export const RobotState = z
  .object({
    room: NodeId,
    hands: z.tuple([NodeId.nullable(), NodeId.nullable()]),
  })
  .strict();
export type RobotState = z.infer<typeof RobotState>;

/** A latent scene graph plus the robot. `navigation` enables `walk` (indoor scenes). */
export const SceneGraph = z
  .object({
    nodes: z.array(WorldNode).min(1),
    edges: z.array(WorldEdge),
    robot: RobotState,
    navigation: z.boolean().default(false),
  })
  .strict();
export type SceneGraph = z.infer<typeof SceneGraph>;

/** Placement relations a goal can ask for. */
export const PlacementRel = z.enum(["ON", "INSIDE"]);
export type PlacementRel = z.infer<typeof PlacementRel>;

/**
 * One goal fact: a placement (ON/INSIDE object target), a node state (OPEN/CLOSED/PRESSED), an
 * assembly (ASSEMBLED part target: an ATTACHED edge between the two, either direction), or a
 * counted placement ("exactly three markers in box": COUNT over a category).
 */
export const GoalAtom = z.discriminatedUnion("pred", [
  z.object({ pred: z.literal("ON"), object: NodeId, target: NodeId }).strict(),
  z.object({ pred: z.literal("INSIDE"), object: NodeId, target: NodeId }).strict(),
  z.object({ pred: z.literal("OPEN"), node: NodeId }).strict(),
  z.object({ pred: z.literal("CLOSED"), node: NodeId }).strict(),
  z.object({ pred: z.literal("PRESSED"), node: NodeId }).strict(),
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

/** One grounded action: a catalog name and its ordered node ids (object, then target). */
export const WorldAction = z
  .object({ name: ActionName, args: z.array(z.string()).max(2).default([]) })
  .strict();
export type WorldAction = z.infer<typeof WorldAction>;

/** A precondition of an action schema, over argument positions; checked on the latent graph. */
export const Precondition = z.discriminatedUnion("check", [
  /** The argument is visible to the agent (same room, no active blocker on its path). */
  z.object({ check: z.literal("visible"), arg: z.number().int() }).strict(),
  /** The argument is held in a hand (or, with value false, is not held). */
  z
    .object({ check: z.literal("held"), arg: z.number().int(), value: z.boolean().default(true) })
    .strict(),
  /** The argument is not attached to another part (attached parts move with their base). */
  z.object({ check: z.literal("detached"), arg: z.number().int() }).strict(),
  /** The argument has an affordance. */
  z.object({ check: z.literal("affords"), arg: z.number().int(), affordance: Affordance }).strict(),
  /** The argument's attribute has a value (e.g. open = false before `open`). */
  z
    .object({ check: z.literal("attr"), arg: z.number().int(), attr: AttrName, value: z.boolean() })
    .strict(),
  /** At least `n` hands are empty. */
  z.object({ check: z.literal("free_hands"), n: z.number().int() }).strict(),
  /** The argument carries nothing ON or INSIDE it ("loaded carriers may reject"). */
  z.object({ check: z.literal("unloaded"), arg: z.number().int() }).strict(),
  /** The target (arg 1) is below capacity. */
  z.object({ check: z.literal("not_full"), arg: z.number().int() }).strict(),
  /** Placing arg 0 at arg 1 creates no self-placement and no support/containment cycle. */
  z
    .object({ check: z.literal("acyclic"), object: z.number().int(), target: z.number().int() })
    .strict(),
  /** Arg 0 lists arg 1 as compatible (attach). */
  z
    .object({ check: z.literal("compatible"), part: z.number().int(), target: z.number().int() })
    .strict(),
  /** The argument is a room adjacent to the robot's room (walk). */
  z.object({ check: z.literal("adjacent_room"), arg: z.number().int() }).strict(),
  /** A container argument is open if it is openable. */
  z.object({ check: z.literal("open_if_openable"), arg: z.number().int() }).strict(),
  /** The scene is navigation-enabled (walk). */
  z.object({ check: z.literal("navigation") }).strict(),
]);
export type Precondition = z.infer<typeof Precondition>;

/** An effect of an action schema, as a graph rewrite over argument positions. */
export const Effect = z.discriminatedUnion("op", [
  z
    .object({
      op: z.literal("set_attr"),
      arg: z.number().int(),
      attr: AttrName,
      value: z.boolean(),
    })
    .strict(),
  /** Take the argument into a free hand, dropping its location edge and OCCLUDES edges. */
  z.object({ op: z.literal("grab"), arg: z.number().int() }).strict(),
  /** Release a held argument onto/into the target. */
  z
    .object({
      op: z.literal("place"),
      object: z.number().int(),
      rel: PlacementRel,
      target: z.number().int(),
    })
    .strict(),
  /** ATTACH part to target and mark both assembled. */
  z.object({ op: z.literal("attach"), part: z.number().int(), target: z.number().int() }).strict(),
  /** Move the robot to a room. */
  z.object({ op: z.literal("move_robot"), arg: z.number().int() }).strict(),
  /** End the episode. */
  z.object({ op: z.literal("terminate") }).strict(),
]);
export type Effect = z.infer<typeof Effect>;

/** What an action does to the hands (Table 5 "Hand result"). */
export const HandResult = z.enum([
  "hands unchanged",
  "occupies one hand",
  "frees one hand",
  "two-hand coordination",
]);
export type HandResult = z.infer<typeof HandResult>;

/** An action schema as data (Table 5 row plus machine-readable Pre/Eff). */
export const ActionSchema = z
  .object({
    name: ActionName,
    description: z.string(),
    parameters: z.array(z.string()),
    requiredFreeHands: z.number().int().min(0).max(2),
    heldObjectRequired: z.boolean(),
    handResult: HandResult,
    failureInjectable: z.boolean(),
    navigationOnly: z.boolean(),
    preconditions: z.array(Precondition),
    effects: z.array(Effect),
  })
  .strict();
export type ActionSchema = z.infer<typeof ActionSchema>;

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

/**
 * Event triggers ψ over semantic progress (never step counts alone). `minStep` guards a trigger
 * until that many agent steps have passed; `action`/`node` narrow what matches.
 */
export const Trigger = z.discriminatedUnion("on", [
  /** An action that would succeed (checked before its effect; with timing `suppress` it fails). */
  z
    .object({
      on: z.literal("action_success"),
      action: ActionName.optional(),
      node: NodeId.optional(),
      minStep: z.number().int().nonnegative().optional(),
    })
    .strict(),
  /** A goal atom of the active goal becomes satisfied (any ON/INSIDE placement if `fact` omitted). */
  z
    .object({
      on: z.literal("goal_fact"),
      fact: GoalAtom.optional(),
      pred: z.enum(["ON", "INSIDE", "OPEN", "CLOSED", "PRESSED", "ASSEMBLED", "COUNT"]).optional(),
      minStep: z.number().int().nonnegative().optional(),
    })
    .strict(),
  /** A node attribute reaches a value through an agent action (e.g. open = true). */
  z
    .object({
      on: z.literal("attr_reached"),
      attr: AttrName,
      value: z.boolean(),
      node: NodeId.optional(),
      minStep: z.number().int().nonnegative().optional(),
    })
    .strict(),
  /** A support/container reaches its capacity (is_full becomes true). */
  z
    .object({
      on: z.literal("full"),
      node: NodeId.optional(),
      minStep: z.number().int().nonnegative().optional(),
    })
    .strict(),
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
 * failure (I1); `after_action` applies right after the triggering step, before the observation.
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
  })
  .strict();
export type WorldEvent = z.infer<typeof WorldEvent>;

/** An event schedule Λ. */
export const EventSchedule = z.array(WorldEvent);
export type EventSchedule = z.infer<typeof EventSchedule>;

/** A record that an event fired, for traces and metrics. */
export const FiredEvent = z
  .object({
    id: z.string(),
    step: z.number().int(),
    bindings: z.record(z.string(), z.string()),
  })
  .strict();
export type FiredEvent = z.infer<typeof FiredEvent>;

/** A visible node with its observable attributes (ρ of Eq. 9; appendix B, Figure 11). */
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
  })
  .strict();
export type ViewNode = z.infer<typeof ViewNode>;

/** The task-conditioned view graph O(G_t, h_t) (Eq. 9) plus robot state and feedback. */
export const WorldView = z
  .object({
    step: z.number().int(),
    visible_nodes: z.array(ViewNode),
    visible_edges: z.array(z.object({ from: NodeId, to: NodeId, relation: Relation }).strict()),
    held_objects: z.array(z.object({ id: NodeId, name: z.string() }).strict()),
    robot: z
      .object({
        hands: z.object({ left: NodeId.nullable(), right: NodeId.nullable() }).strict(),
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
