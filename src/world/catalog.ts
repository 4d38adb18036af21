/**
 * Action catalogs as data: each action (a robot skill) is a schema of parameters,
 * preconditions over argument positions and effects as graph rewrites, interpreted by
 * actions.ts. A World is given one catalog; robots choose from it through their skill sets.
 * Fields that restate the preconditions (free hands, held object required, navigation only)
 * are derived here, never written in the data.
 */
import { z } from "zod";
import { LonghaulError, parseOrThrow } from "../core/index.ts";
import { Affordance, AttrName, Key, NodeType, PlacementRel } from "./types.ts";

/** An argument position of the action (0 = first argument). */
const Arg = z.number().int().nonnegative();

/** A precondition, over argument positions; checked for the acting robot on the latent graph. */
export const Precondition = z.discriminatedUnion("check", [
  /** The argument is visible to the robot (same room, no active blocker on its path). */
  z.object({ check: z.literal("visible"), arg: Arg }).strict(),
  /** The argument is held by this robot (or, with value false, by no robot). */
  z.object({ check: z.literal("held"), arg: Arg, value: z.boolean().default(true) }).strict(),
  /** The argument is not attached to another part (attached parts move with their base). */
  z.object({ check: z.literal("detached"), arg: Arg }).strict(),
  /** The argument has an affordance. */
  z.object({ check: z.literal("affords"), arg: Arg, affordance: Affordance }).strict(),
  /** The argument's attribute has a value (e.g. open = false before `open`). */
  z.object({ check: z.literal("attr"), arg: Arg, attr: AttrName, value: z.boolean() }).strict(),
  /** The argument is a node of this type (e.g. a room for a go-to skill). */
  z.object({ check: z.literal("type"), arg: Arg, type: NodeType }).strict(),
  /** At least `n` of the robot's hands are empty. */
  z.object({ check: z.literal("free_hands"), n: z.number().int().nonnegative() }).strict(),
  /** The argument carries nothing ON or INSIDE it ("loaded carriers reject"). */
  z.object({ check: z.literal("unloaded"), arg: Arg }).strict(),
  /** The argument is below its capacity. */
  z.object({ check: z.literal("not_full"), arg: Arg }).strict(),
  /** Placing `object` at `target` creates no self-placement and no support/containment cycle. */
  z.object({ check: z.literal("acyclic"), object: Arg, target: Arg }).strict(),
  /** `part` lists `target` as compatible (attach). */
  z.object({ check: z.literal("compatible"), part: Arg, target: Arg }).strict(),
  /** The argument is a room adjacent to the robot's room (walk). */
  z.object({ check: z.literal("adjacent_room"), arg: Arg }).strict(),
  /** No other robot is in the argument's room (one robot per place). */
  z.object({ check: z.literal("unoccupied"), arg: Arg }).strict(),
  /** A container argument is open if it is openable. */
  z.object({ check: z.literal("open_if_openable"), arg: Arg }).strict(),
  /** The scene is navigation-enabled (walk). */
  z.object({ check: z.literal("navigation") }).strict(),
]);
export type Precondition = z.infer<typeof Precondition>;

/** An effect, as a graph rewrite over argument positions, for the acting robot. */
export const Effect = z.discriminatedUnion("op", [
  z.object({ op: z.literal("set_attr"), arg: Arg, attr: AttrName, value: z.boolean() }).strict(),
  /**
   * Set the attribute on the argument and clear it on every other node that has it: a single
   * selection, such as what a robot is looking at or standing next to.
   */
  z.object({ op: z.literal("set_attr_only"), arg: Arg, attr: AttrName }).strict(),
  /** Take the argument into the robot's first free hand, dropping its location and OCCLUDES edges. */
  z.object({ op: z.literal("grab"), arg: Arg }).strict(),
  /** Release a held argument onto/into the target. */
  z.object({ op: z.literal("place"), object: Arg, rel: PlacementRel, target: Arg }).strict(),
  /** ATTACH part to target and mark both assembled. */
  z.object({ op: z.literal("attach"), part: Arg, target: Arg }).strict(),
  /** Move the robot to a room (or to the room a node argument is in), with all it carries. */
  z.object({ op: z.literal("move_robot"), arg: Arg }).strict(),
  /** End the episode. */
  z.object({ op: z.literal("terminate") }).strict(),
]);
export type Effect = z.infer<typeof Effect>;

/** One action of a catalog, as data. */
export const ActionSchema = z
  .object({
    name: Key,
    description: z.string(),
    /** Names of the ordered arguments (object, then target). */
    parameters: z.array(z.string()).max(8),
    /** What the action does to the hands, in words (Table 5 "Hand result"). */
    handResult: z.string().optional(),
    /** Failure-injection events (timing `suppress`) may fail this action. */
    failureInjectable: z.boolean().default(false),
    /** Nominal duration in simulated seconds, for simulators; the engine never advances time. */
    duration: z.number().nonnegative().optional(),
    preconditions: z.array(Precondition),
    effects: z.array(Effect),
  })
  .strict();
export type ActionSchema = z.infer<typeof ActionSchema>;

/** A catalog as data: its actions and the action invalid input is reported as. */
export const CatalogData = z
  .object({
    actions: z.array(ActionSchema).min(1),
    /** Name reported for input that is no catalog action (RoboGraph: observe). */
    idle: Key.optional(),
  })
  .strict();
export type CatalogData = z.input<typeof CatalogData>;

/** An action with the Table 5 fields derived from its preconditions. */
export interface CatalogEntry extends ActionSchema {
  /** The most free hands any precondition asks for. */
  readonly requiredFreeHands: number;
  /** A precondition requires an argument held by the robot. */
  readonly heldObjectRequired: boolean;
  /** Only available in navigation-enabled scenes. */
  readonly navigationOnly: boolean;
  /** An effect ends the episode. */
  readonly terminates: boolean;
}

/** A validated action catalog, in the order given. */
export class Catalog {
  /** The actions as given (validated, defaults filled in): data to extend a catalog with. */
  readonly actions: readonly ActionSchema[];
  /** The actions with their derived fields, in order. */
  readonly entries: readonly CatalogEntry[];
  /** The name input that is not a catalog action is reported under (else the raw name). */
  readonly idle: string | undefined;
  /** The most parameters any action takes. */
  readonly maxArity: number;
  private readonly byName: ReadonlyMap<string, CatalogEntry>;

  /** Validate catalog data; errors are INVALID_INPUT with the path of what is wrong. */
  constructor(data: CatalogData, what = "action catalog") {
    const parsed = parseOrThrow(CatalogData, data, what);
    const byName = new Map<string, CatalogEntry>();
    parsed.actions.forEach((schema, i) => {
      const at = `${what}: actions[${i}]`;
      if (byName.has(schema.name))
        throw new LonghaulError("INVALID_INPUT", `duplicate action ${schema.name}`, at);
      checkPositions(schema, at);
      byName.set(schema.name, derive(schema));
    });
    if (parsed.idle !== undefined && !byName.has(parsed.idle))
      throw new LonghaulError("INVALID_INPUT", `unknown action ${parsed.idle}`, `${what}: idle`);
    this.actions = parsed.actions;
    this.entries = [...byName.values()];
    this.byName = byName;
    this.idle = parsed.idle;
    this.maxArity = Math.max(...this.entries.map((e) => e.parameters.length));
  }

  /** The action called `name`, if any. */
  get(name: string): CatalogEntry | undefined {
    return this.byName.get(name);
  }

  /** Every attribute name the catalog tests or sets. */
  attributes(): string[] {
    const out = new Set<string>();
    for (const e of this.entries) {
      for (const p of e.preconditions) if (p.check === "attr") out.add(p.attr);
      for (const f of e.effects)
        if (f.op === "set_attr" || f.op === "set_attr_only") out.add(f.attr);
    }
    return [...out];
  }
}

function derive(schema: ActionSchema): CatalogEntry {
  let requiredFreeHands = 0;
  let heldObjectRequired = false;
  let navigationOnly = false;
  for (const p of schema.preconditions) {
    if (p.check === "free_hands") requiredFreeHands = Math.max(requiredFreeHands, p.n);
    else if (p.check === "held" && p.value) heldObjectRequired = true;
    else if (p.check === "navigation") navigationOnly = true;
  }
  const terminates = schema.effects.some((e) => e.op === "terminate");
  return { ...schema, requiredFreeHands, heldObjectRequired, navigationOnly, terminates };
}

/** Every argument position a precondition or effect names must be a parameter. */
function checkPositions(schema: ActionSchema, at: string): void {
  const arity = schema.parameters.length;
  const positions = (x: Record<string, unknown>) =>
    ["arg", "object", "target", "part"].map((k) => x[k]).filter((v) => typeof v === "number");
  const items = [...schema.preconditions, ...schema.effects] as Record<string, unknown>[];
  for (const item of items)
    for (const k of positions(item))
      if ((k as number) >= arity)
        throw new LonghaulError(
          "INVALID_INPUT",
          `${schema.name} names argument ${k} but takes ${arity}`,
          at,
        );
}
