/**
 * Launcher scenes as data: one JSON file per task in `scenes/`, validated with zod (errors name
 * the file and the path of what is wrong). A scene lists its objects (knockdown plates, free
 * blocks and balls, static walls and ramps, glass panes), the required, ordered and protected
 * targets, the ammunition, and its reference solution as aim points.
 */
import { readdirSync, readFileSync } from "node:fs";
import { z } from "zod";
import { formatZodError } from "../../../core/index.ts";

const Vec3 = z.tuple([z.number(), z.number(), z.number()]);
const Vec2 = z.tuple([z.number(), z.number()]);

/** A knockdown plate on a hinge at its base: cleared once it falls past 35 degrees. */
const Plate = z
  .object({
    kind: z.literal("plate"),
    id: z.string().min(1),
    /** Centre of the plate's base edge. */
    pos: Vec3,
    /** Half width and half height. */
    half: Vec2,
    /** Facing (radians); default: towards the launcher. */
    yaw: z.number().optional(),
    mass: z.number().positive().optional(),
    material: z.string().optional(),
  })
  .strict();

/** A box: free (falls, topples) unless static; a free box with an id can be a target. */
const Box = z
  .object({
    kind: z.literal("box"),
    id: z.string().min(1).optional(),
    pos: Vec3,
    half: Vec3,
    yaw: z.number().optional(),
    /** Tilt about the box's own y axis (ramps, leaning beams). */
    pitch: z.number().optional(),
    static: z.boolean().optional(),
    mass: z.number().positive().optional(),
    friction: z.number().positive().optional(),
  })
  .strict();

/** A free ball (rolling bodies, relay balls). */
const Ball = z
  .object({
    kind: z.literal("ball"),
    id: z.string().min(1).optional(),
    pos: Vec3,
    radius: z.number().positive(),
    mass: z.number().positive(),
  })
  .strict();

/** A fixed glass pane that fractures (and is removed) above a contact force threshold. */
const Glass = z
  .object({
    kind: z.literal("glass"),
    id: z.string().min(1),
    pos: Vec3,
    half: Vec3,
    yaw: z.number().optional(),
    /** Fracture threshold on the summed contact normal force (newtons). */
    threshold: z.number().positive(),
  })
  .strict();

export const SceneObject = z.discriminatedUnion("kind", [Plate, Box, Ball, Glass]);
export type SceneObject = z.infer<typeof SceneObject>;

/** One reference shot: the ball centre passes through `aim` at `elevation` degrees. */
const Shot = z.object({ aim: Vec3, elevation: z.number().min(3).max(63) }).strict();
export type Shot = z.infer<typeof Shot>;

export const LaunchSceneFile = z
  .object({
    index: z.string().regex(/^Launch-\d\d$/),
    case: z.string().regex(/^A\d{3}$/),
    /** Loaded-mode difficulty D1-D5 (the paper's task atlas, unpublished; ours). */
    loadedLevel: z.number().int().min(1).max(5),
    description: z.string().min(1),
    launcher: z.object({ pos: Vec2, yaw: z.number() }).strict(),
    /** Marbles in all, the preloaded one included. */
    ammo: z.number().int().min(1).max(6),
    objects: z.array(SceneObject).min(1),
    /** Plates, panes or free boxes that must be cleared (a box: toppled or moved 5 cm). */
    required: z.array(z.string()).min(1),
    /** Required targets that must be cleared in this order (a subset or all). */
    order: z.array(z.string()).optional(),
    /** Plates or panes that must stay intact. */
    protected: z.array(z.string()).optional(),
    solution: z.array(Shot).min(1),
  })
  .strict()
  .superRefine((scene, ctx) => {
    const ids = new Set(scene.objects.flatMap((o) => ("id" in o && o.id ? [o.id] : [])));
    const targets = new Set(
      scene.objects.flatMap((o) =>
        o.kind === "plate" || o.kind === "glass" || (o.kind === "box" && o.id && !o.static)
          ? [o.id!]
          : [],
      ),
    );
    for (const key of ["required", "order", "protected"] as const) {
      scene[key]?.forEach((id, i) => {
        if (!targets.has(id)) {
          ctx.addIssue({
            code: "custom",
            path: [key, i],
            message: `"${id}" is not a plate or pane`,
          });
        }
      });
    }
    if (ids.size !== scene.objects.filter((o) => "id" in o && o.id).length) {
      ctx.addIssue({ code: "custom", path: ["objects"], message: "object ids must be unique" });
    }
    if (scene.solution.length > scene.ammo) {
      ctx.addIssue({ code: "custom", path: ["solution"], message: "more shots than ammunition" });
    }
  });
export type LaunchSceneFile = z.infer<typeof LaunchSceneFile>;

/** Parse one scene file's text; errors name the file and the path. */
export function parseScene(text: string, file: string): LaunchSceneFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: not JSON (${(e as Error).message})`);
  }
  const parsed = LaunchSceneFile.safeParse(json);
  if (!parsed.success) throw new Error(`${file}: ${formatZodError(parsed.error)}`);
  return parsed.data;
}

const SCENE_DIR = new URL("./scenes/", import.meta.url);
let cache: Map<string, LaunchSceneFile> | undefined;

/** Every scene file, by EP-100 index. */
export function launchScenes(): Map<string, LaunchSceneFile> {
  if (!cache) {
    cache = new Map();
    for (const name of readdirSync(SCENE_DIR)
      .filter((f) => f.endsWith(".json"))
      .sort()) {
      const scene = parseScene(readFileSync(new URL(name, SCENE_DIR), "utf8"), name);
      cache.set(scene.index, scene);
    }
  }
  return cache;
}
