/**
 * Task-family specifications as data (RoboGraph §4 "compiler inputs"): the rooms, fixtures,
 * object groups with their placement rules, occluders and intervention hooks from which the
 * procedural generator draws source scene graphs. Built-in families and user-authored family
 * files (YAML or JSON) share this schema.
 */
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { LonghaulError, parseOrThrow } from "../../core/index.ts";

const Key = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/, "keys use lowercase letters, digits and '_', starting with a letter");

/** A count: a fixed number or an inclusive [min, max] range drawn per scene. */
export const CountRange = z.union([
  z.number().int().nonnegative(),
  z
    .tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])
    .refine(([a, b]) => a <= b, {
      message: "range must be [min, max] with min <= max",
    }),
]);
/** A count: a fixed number or an inclusive [min, max] range. */
export type CountRange = z.infer<typeof CountRange>;

/** A piece of furniture, surface or container that every scene of the family contains. */
export const FixtureSpec = z
  .object({
    key: Key,
    name: z.string().min(1),
    kind: z.enum(["surface", "container"]),
    /** Room name (indoor); defaults to the first room. */
    room: z.string().optional(),
    /**
     * Parent fixture key; the fixture stands ON a surface or INSIDE a container. A list draws
     * the parent per scene, so a container can sit nested in a closed one in a share of scenes.
     */
    on: z.union([Key, z.array(Key).min(1)]).optional(),
    openable: z.boolean().default(false),
    /** Initial state of an openable fixture. */
    open: z.boolean().default(false),
    capacity: z.number().int().positive().optional(),
    /** The goal requires this fixture CLOSED at the end. */
    mustClose: z.boolean().default(false),
    /**
     * The goal restates this fixture's placement (an initially satisfied fact). Left out in a
     * scene where the fixture starts hidden: a goal never tells where an unseen node is.
     */
    keep: z.boolean().default(false),
    /** Non-goal surface where interventions stage objects (I3, I6). */
    staging: z.boolean().default(false),
    /** Plausible but wrong container that I4 relocates objects into. */
    wrong: z.boolean().default(false),
  })
  .strict();
/** A fixture of the family. */
export type FixtureSpec = z.infer<typeof FixtureSpec>;

/** A group of task objects sharing a category and a placement rule. */
export const ObjectGroupSpec = z
  .object({
    category: z.string().min(1),
    /** Names to draw from, without repetition. */
    names: z.array(z.string().min(1)).min(1),
    count: CountRange,
    /** Placement rule: every object of the group ends ON/INSIDE this fixture. */
    goal: z
      .object({ rel: z.enum(["ON", "INSIDE"]), target: Key })
      .strict()
      .optional(),
    /** Fixtures the misplaced objects may start at (drawn uniformly per object). */
    from: z.array(Key).min(1),
    /**
     * How many objects of the group start already at their goal (initially satisfied facts);
     * only where that goal is in view in G_0, so a goal never tells where an unseen node is.
     */
    placed: CountRange.default(0),
    /** How many of the misplaced objects start at a closed container listed in `from`, when any. */
    hidden: CountRange.optional(),
    /** Each object is a base that needs a separate part attached (ASSEMBLED goal). */
    part: z
      .object({ name: z.string().min(1), category: z.string().min(1) })
      .strict()
      .optional(),
  })
  .strict();
/** A group of task objects. */
export type ObjectGroupSpec = z.infer<typeof ObjectGroupSpec>;

/** Movable blockers that hide objects standing on (or in) the same fixture. */
export const OccluderSpec = z
  .object({
    names: z.array(z.string().min(1)).min(1),
    count: CountRange,
    /**
     * Fixtures an occluder may stand on or in; a closed container nests the blockers (open
     * it, then move the occluder aside).
     */
    on: z.array(Key).min(1),
    /** How many goal objects on that fixture each occluder hides. */
    hides: CountRange.default(1),
    /**
     * Decoy blockers: how many more occluders (names drawn from the same list) stand on these
     * fixtures hiding nothing, so an agent cannot tell which blocker hides something.
     */
    decoys: CountRange.default(0),
  })
  .strict();
/** Movable blockers. */
export type OccluderSpec = z.infer<typeof OccluderSpec>;

/** How I6 extends the goal (Table 4): an inherited placement rule or a capacity-bound goal. */
export const AddedObjectSpec = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("inherit") }).strict(),
  z
    .object({
      mode: z.literal("capacity"),
      /** The designated container whose capacity condition triggers the event. */
      container: Key,
      /** Where the added object must go once the designated container is full. */
      overflow: Key,
    })
    .strict(),
]);
/** How I6 extends the goal. */
export type AddedObjectSpec = z.infer<typeof AddedObjectSpec>;

/** One task family. */
export const FamilySpec = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9-]*$/, "ids use lowercase letters, digits and '-'"),
    title: z.string().min(1),
    /** The high-level task title of the harness payload. */
    task: z.string().min(1),
    domain: z.enum(["tabletop", "indoor"]),
    scenes: z.number().int().positive().max(99),
    rooms: z.array(z.string().min(1)).min(1),
    /** Room pairs that are adjacent; defaults to a chain in listed order. */
    adjacent: z.array(z.tuple([z.string(), z.string()])).optional(),
    /** Room the robot starts in; defaults to the first. */
    start: z.string().optional(),
    fixtures: z.array(FixtureSpec).min(1),
    objects: z.array(ObjectGroupSpec).min(1),
    occluders: OccluderSpec.optional(),
    addedObject: AddedObjectSpec.default({ mode: "inherit" }),
  })
  .strict()
  .superRefine((f, ctx) => checkReferences(f, ctx));
/** One task family. */
export type FamilySpec = z.infer<typeof FamilySpec>;

function checkReferences(f: z.infer<typeof FamilySpec>, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: "custom", path, message });
  const fixtures = new Map(f.fixtures.map((x) => [x.key, x]));
  const rooms = new Set(f.rooms);
  if (f.domain === "indoor" && f.rooms.length < 2)
    issue(["rooms"], "indoor families need at least two rooms");
  if (f.domain === "tabletop" && f.rooms.length !== 1)
    issue(["rooms"], "tabletop families have exactly one room");
  if (f.start !== undefined && !rooms.has(f.start)) issue(["start"], `unknown room ${f.start}`);
  f.adjacent?.forEach((pair, i) => {
    pair.forEach((r, j) => {
      if (!rooms.has(r)) issue(["adjacent", i, j], `unknown room ${r}`);
    });
  });
  const seen = new Set<string>();
  f.fixtures.forEach((x, i) => {
    if (seen.has(x.key)) issue(["fixtures", i, "key"], `duplicate fixture key ${x.key}`);
    seen.add(x.key);
    if (x.room !== undefined && !rooms.has(x.room))
      issue(["fixtures", i, "room"], `unknown room ${x.room}`);
    const parents = x.on === undefined ? [] : typeof x.on === "string" ? [x.on] : x.on;
    parents.forEach((k) => {
      if (!seen.has(k) || k === x.key)
        issue(["fixtures", i, "on"], `${k} must name a fixture listed before this one`);
    });
    if (x.open && !x.openable)
      issue(["fixtures", i, "open"], "only openable fixtures can start open");
    if (x.mustClose && !x.openable)
      issue(["fixtures", i, "mustClose"], "only openable fixtures can be closed");
    if (x.keep && x.on === undefined)
      issue(["fixtures", i, "keep"], "keep needs a parent fixture (on)");
  });
  f.objects.forEach((g, i) => {
    if (g.goal && !fixtures.has(g.goal.target))
      issue(["objects", i, "goal", "target"], `unknown fixture ${g.goal.target}`);
    if (g.goal) {
      const kind = fixtures.get(g.goal.target)?.kind;
      if (kind && (g.goal.rel === "ON") !== (kind === "surface"))
        issue(["objects", i, "goal", "rel"], `${g.goal.rel} does not fit a ${kind}`);
    }
    g.from.forEach((k, j) => {
      if (!fixtures.has(k)) issue(["objects", i, "from", j], `unknown fixture ${k}`);
      if (k === g.goal?.target)
        issue(["objects", i, "from", j], "objects must start away from their goal");
    });
    const maxCount = Array.isArray(g.count) ? g.count[1] : g.count;
    if (maxCount > g.names.length)
      issue(["objects", i, "names"], `needs at least ${maxCount} names`);
    if (!g.goal && (Array.isArray(g.placed) ? g.placed[1] : g.placed) > 0)
      issue(["objects", i, "placed"], "objects without a goal cannot start placed");
  });
  f.occluders?.on.forEach((k, j) => {
    if (!fixtures.has(k)) issue(["occluders", "on", j], `unknown fixture ${k}`);
  });
  if (f.addedObject.mode === "capacity") {
    for (const field of ["container", "overflow"] as const) {
      const x = fixtures.get(f.addedObject[field]);
      if (!x) issue(["addedObject", field], `unknown fixture ${f.addedObject[field]}`);
      else if (x.kind !== "container") issue(["addedObject", field], "must be a container");
    }
    if (fixtures.get(f.addedObject.container)?.capacity === undefined)
      issue(["addedObject", "container"], "the designated container needs a capacity");
  }
  if (!f.fixtures.some((x) => x.staging))
    issue(["fixtures"], "one fixture must be a staging surface");
}

/** Validate a family specification; errors name the path of what is wrong. */
export function parseFamily(data: unknown, what = "task family"): FamilySpec {
  return parseOrThrow(FamilySpec, data, what);
}

/** Read a family file (.yaml, .yml or .json) and validate it. */
export function loadFamilyFile(path: string): FamilySpec {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new LonghaulError("NOT_FOUND", `cannot read family file ${path}`);
  }
  let data: unknown;
  try {
    data = path.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new LonghaulError(
      "INVALID_INPUT",
      `${path} is not valid ${path.endsWith(".json") ? "JSON" : "YAML"}: ${(error as Error).message}`,
    );
  }
  return parseFamily(data, `family file ${path}`);
}
