/**
 * The action-schema interpreter: preconditions are checked for the acting robot on the full
 * latent state, effects are graph rewrites. Failures are typed and phrased with the ids the
 * agent supplied only.
 */
import type { ActionSchema, Precondition } from "./catalog.ts";
import { Loc, type WorldState } from "./state.ts";
import type { FailureType, WorldAction } from "./types.ts";

/** A typed failure with an agent-visible message. */
export interface Failure {
  type: FailureType;
  message: string;
}

/**
 * Resolve an action's ids for its catalog schema (none: not a catalog action); unknown ids
 * become -1 so checks report them as not visible.
 */
export function resolveArgs(
  state: WorldState,
  schema: ActionSchema | undefined,
  action: WorldAction,
): { schema: ActionSchema; args: number[] } | Failure {
  if (!schema) return { type: "invalid_action", message: "not a valid catalog action" };
  if (action.args.length !== schema.parameters.length) {
    const params = schema.parameters.length ? `: ${schema.parameters.join(", ")}` : "";
    return {
      type: "invalid_action",
      message: `${action.name} takes ${schema.parameters.length} argument(s)${params}`,
    };
  }
  return { schema, args: action.args.map((id) => state.index.get(id) ?? -1) };
}

/** The first unmet precondition for robot `r` as a failure, or null when it is executable. */
export function checkPreconditions(
  state: WorldState,
  schema: ActionSchema,
  args: readonly number[],
  names: readonly string[],
  r: number,
): Failure | null {
  for (const pre of schema.preconditions) {
    const failure = checkOne(state, pre, args, names, r);
    if (failure) return failure;
  }
  return null;
}

const AFFORD_WORD: Record<string, string> = {
  openable: "cannot be opened or closed",
  pressable: "cannot be pressed",
  grabbable: "cannot be grabbed",
  movable: "cannot be moved aside",
  support: "is not a surface",
  contain: "is not a container",
  attachable: "is not an attachable part",
};

function argAt(args: readonly number[], k: number): number {
  return args[k] ?? -1;
}

function nameAt(names: readonly string[], k: number): string {
  return names[k] ?? "?";
}

function checkOne(
  state: WorldState,
  pre: Precondition,
  args: readonly number[],
  names: readonly string[],
  r: number,
): Failure | null {
  return holds(state, pre, args, r) ? null : failureOf(state, pre, args, names, r);
}

/** Does one precondition hold (no message is built: the search fast path). */
function holds(state: WorldState, pre: Precondition, args: readonly number[], r: number): boolean {
  switch (pre.check) {
    case "visible":
      return argAt(args, pre.arg) >= 0 && state.isVisible(argAt(args, pre.arg), r);
    case "held": {
      // Held by this robot (value true) or by no robot at all (value false).
      const i = argAt(args, pre.arg);
      const held = i >= 0 && (pre.value ? state.holder(i) === r : state.rel[i] === Loc.Held);
      return held === pre.value;
    }
    case "detached":
      return state.rel[argAt(args, pre.arg)] !== Loc.Attached;
    case "affords":
      return state.affords(argAt(args, pre.arg), pre.affordance);
    case "attr":
      return state.attr(argAt(args, pre.arg), pre.attr) === pre.value;
    case "type":
      return state.info[argAt(args, pre.arg)]?.node.type === pre.type;
    case "free_hands":
      return state.freeHands(r) >= pre.n;
    case "unloaded":
      return state.load(argAt(args, pre.arg)) === 0;
    case "not_full":
      return !state.isFull(argAt(args, pre.arg));
    case "acyclic":
      return !state.isAncestor(argAt(args, pre.object), argAt(args, pre.target));
    case "compatible":
      return (
        state.info[argAt(args, pre.part)]?.compatible.has(stateName(state, args, pre.target)) ??
        false
      );
    case "adjacent_room":
      return (
        argAt(args, pre.arg) >= 0 && state.areAdjacent(state.robotRoom(r), argAt(args, pre.arg))
      );
    case "unoccupied":
      return otherRobotIn(state, argAt(args, pre.arg), r) < 0;
    case "open_if_openable":
      return !state.isClosed(argAt(args, pre.arg));
    case "navigation":
      return state.navigation;
  }
}

/** The id of argument `k` (compatible lists name their targets by id). */
function stateName(state: WorldState, args: readonly number[], k: number): string {
  return state.ids[argAt(args, k)] ?? "";
}

/** Another robot in the room of node `i`, or -1. */
function otherRobotIn(state: WorldState, i: number, r: number): number {
  const room = state.roomOf(i);
  return state.robots.findIndex((_, q) => q !== r && state.robotRoom(q) === room);
}

/** The typed, agent-visible failure of a precondition that does not hold. */
function failureOf(
  state: WorldState,
  pre: Precondition,
  args: readonly number[],
  names: readonly string[],
  r: number,
): Failure {
  switch (pre.check) {
    case "visible":
      return { type: "not_visible", message: `${nameAt(names, pre.arg)} is not visible` };
    case "held":
      return pre.value
        ? { type: "not_held", message: `${nameAt(names, pre.arg)} is not held` }
        : { type: "already_in_state", message: `${nameAt(names, pre.arg)} is already held` };
    case "detached":
      return {
        type: "already_in_state",
        message: `${nameAt(names, pre.arg)} is attached to another part`,
      };
    case "affords":
      return {
        type: "missing_affordance",
        message: `${nameAt(names, pre.arg)} ${AFFORD_WORD[pre.affordance] ?? `does not afford ${pre.affordance}`}`,
      };
    case "attr":
      return {
        type: "already_in_state",
        message: `${nameAt(names, pre.arg)} is already ${pre.value ? "not " : ""}${pre.attr.replace(/_/g, " ")}`,
      };
    case "type":
      return {
        type: "missing_affordance",
        message: `${nameAt(names, pre.arg)} is not a ${pre.type}`,
      };
    case "free_hands":
      return {
        type: "hands_not_free",
        message: `needs ${pre.n} free hand(s), ${state.freeHands(r)} free`,
      };
    case "unloaded":
      return {
        type: "carrier_loaded",
        message: `${nameAt(names, pre.arg)} is carrying other objects`,
      };
    case "not_full":
      return { type: "target_full", message: `${nameAt(names, pre.arg)} is full` };
    case "acyclic":
      return {
        type: "placement_cycle",
        message: `${nameAt(names, pre.object)} cannot be placed on or in ${nameAt(names, pre.target)}`,
      };
    case "compatible":
      return {
        type: "incompatible",
        message: `${nameAt(names, pre.part)} does not attach to ${nameAt(names, pre.target)}`,
      };
    case "adjacent_room":
      return { type: "not_adjacent", message: `${nameAt(names, pre.arg)} is not an adjacent room` };
    case "unoccupied": {
      const other = otherRobotIn(state, argAt(args, pre.arg), r);
      return {
        type: "occupied",
        message: `${nameAt(names, pre.arg)} is occupied by ${state.ids[state.robotNode(other)]}`,
      };
    }
    case "open_if_openable":
      return { type: "target_closed", message: `${nameAt(names, pre.arg)} is closed` };
    case "navigation":
      return { type: "not_available", message: "walk is not available in this scene" };
  }
}

/**
 * What every effect needs whatever the catalog's preconditions say, so a catalog that forgets
 * a check cannot break the world's structure: arguments are live nodes, a grab takes a
 * placeable node no robot holds into a free hand, a placement releases a node this robot
 * holds without a cycle and not onto a room or robot, a robot moves to a room. Table 5's
 * preconditions imply all of it (so RoboGraph never reaches these failures).
 */
export function checkEffects(
  state: WorldState,
  schema: ActionSchema,
  args: readonly number[],
  names: readonly string[],
  r: number,
): Failure | null {
  for (let k = 0; k < args.length; k++) {
    const i = args[k] as number;
    if (i < 0 || !state.alive[i])
      return { type: "not_visible", message: `${nameAt(names, k)} is not visible` };
  }
  for (const eff of schema.effects) {
    switch (eff.op) {
      case "grab": {
        const i = argAt(args, eff.arg);
        if (isFixed(state, i))
          return {
            type: "missing_affordance",
            message: `${nameAt(names, eff.arg)} cannot be grabbed`,
          };
        if (state.rel[i] === Loc.Held)
          return { type: "already_in_state", message: `${nameAt(names, eff.arg)} is already held` };
        if (state.freeHands(r) < 1)
          return { type: "hands_not_free", message: "needs 1 free hand(s), 0 free" };
        break;
      }
      case "place":
      case "attach": {
        const [x, t] = eff.op === "place" ? [eff.object, eff.target] : [eff.part, eff.target];
        const i = argAt(args, x);
        if (eff.op === "place" && state.holder(i) !== r)
          return { type: "not_held", message: `${nameAt(names, x)} is not held` };
        if (isFixed(state, i) || isFixed(state, argAt(args, t)))
          return {
            type: "missing_affordance",
            message: `${nameAt(names, x)} cannot be put on or in ${nameAt(names, t)}`,
          };
        if (state.isAncestor(i, argAt(args, t)))
          return {
            type: "placement_cycle",
            message: `${nameAt(names, x)} cannot be placed on or in ${nameAt(names, t)}`,
          };
        break;
      }
      case "move_robot":
        if (state.roomOf(argAt(args, eff.arg)) < 0)
          return { type: "not_adjacent", message: `${nameAt(names, eff.arg)} is not a place` };
        break;
      default:
        break;
    }
  }
  return null;
}

/** Rooms and robots are never taken, placed or placed upon. */
function isFixed(state: WorldState, i: number): boolean {
  const type = state.info[i]?.node.type;
  return type === "room" || type === "robot";
}

/**
 * The search primitive (breadth-first graphs, planners): robot `r` executes `schema` on node
 * numbers `args` in a copy of `state`. Returns the copy, or the first unmet precondition or
 * effect guard (`state` is never changed).
 */
export function successorState(
  state: WorldState,
  schema: ActionSchema,
  args: readonly number[],
  r = 0,
): WorldState | Failure {
  for (const pre of schema.preconditions)
    if (!holds(state, pre, args, r)) return failureOf(state, pre, args, idsOf(state, args), r);
  const failure = checkEffects(state, schema, args, idsOf(state, args), r);
  if (failure) return failure;
  const next = state.clone();
  applyEffects(next, schema, args, r);
  return next;
}

/**
 * `successorState` without allocating: writes the successor into `target` (a state of the
 * same world, e.g. a reused scratch copy) and returns true, or returns false when the action
 * cannot run (`target` is then unspecified). Search loops keep a copy only of new states.
 */
export function successorInto(
  target: WorldState,
  state: WorldState,
  schema: ActionSchema,
  args: readonly number[],
  r = 0,
): boolean {
  for (const pre of schema.preconditions) if (!holds(state, pre, args, r)) return false;
  if (checkEffects(state, schema, args, idsOf(state, args), r)) return false;
  target.assign(state);
  applyEffects(target, schema, args, r);
  return true;
}

function idsOf(state: WorldState, args: readonly number[]): string[] {
  return args.map((i) => state.ids[i] ?? "?");
}

/** Apply a schema's effects for robot `r` (its preconditions and `checkEffects` hold). */
export function applyEffects(
  state: WorldState,
  schema: ActionSchema,
  args: readonly number[],
  r: number,
): void {
  for (const eff of schema.effects) {
    switch (eff.op) {
      case "set_attr":
        state.setAttr(args[eff.arg] as number, eff.attr, eff.value);
        break;
      case "set_attr_only":
        state.setAttrOnly(args[eff.arg] as number, eff.attr);
        break;
      case "grab": {
        const i = args[eff.arg] as number;
        state.unplace(i);
        // The object leaves its place, so occlusions it took part in end.
        state.occludes = state.occludes.filter(([b, t]) => b !== i && t !== i);
        state.hold(i, r, state.hands[r]?.indexOf(-1) ?? -1);
        break;
      }
      case "place":
        state.place(
          args[eff.object] as number,
          eff.rel === "ON" ? Loc.On : Loc.Inside,
          args[eff.target] as number,
        );
        break;
      case "attach": {
        const part = args[eff.part] as number;
        const target = args[eff.target] as number;
        state.place(part, Loc.Attached, target);
        state.setAttr(part, "assembled", true);
        state.setAttr(target, "assembled", true);
        break;
      }
      case "move_robot":
        state.place(state.robotNode(r), Loc.InRoom, state.roomOf(args[eff.arg] as number));
        break;
      case "terminate":
        break;
    }
  }
}
