/**
 * Seeded random RoboGraph-size scenes (about 18 nodes, 22 edges): rooms, furniture, openable
 * and open containers, occluders and goal placements, and optionally more robots (one or two
 * hands, some with a tray, some with fewer skills). For property tests and benches; the
 * robograph suite compiles its own families.
 */
import { Rng } from "../core/index.ts";
import { ROBOGRAPH_CATALOG } from "./robograph-catalog.ts";
import type { Goal, GoalAtom, RobotSpec, SceneGraph, WorldEdge, WorldNode } from "./types.ts";

/** Size knobs for a random scene. */
export interface RandomSceneOptions {
  rooms?: number;
  objects?: number;
  containers?: number;
  goals?: number;
  /** Robots (default 1: the two-handed `robot` with every skill, in the first room). */
  robots?: number;
}

/** A random solvable-by-construction scene and goal from a seed. */
export function randomScene(
  seed: string,
  options: RandomSceneOptions = {},
): { scene: SceneGraph; goal: Goal } {
  const rng = new Rng(seed, "world/random-scene");
  const roomCount = options.rooms ?? 1;
  const objectCount = options.objects ?? 7;
  const containerCount = options.containers ?? 3;
  const goalCount = Math.min(options.goals ?? 4, objectCount);
  const nodes: WorldNode[] = [];
  const edges: WorldEdge[] = [];
  const add = (n: Omit<WorldNode, "attrs"> & { attrs?: WorldNode["attrs"] }) => {
    nodes.push({ attrs: {}, ...n });
    return n.id;
  };
  const rooms: string[] = [];
  const surfaces: string[] = [];
  for (let r = 0; r < roomCount; r++) {
    const room = add({
      id: `room_${r}`,
      type: "room",
      name: `room ${r}`,
      category: "room",
      affordances: [],
    });
    if (r > 0) edges.push({ from: rooms[r - 1] as string, to: room, rel: "ADJACENT" });
    rooms.push(room);
    const table = add({
      id: `table_${r}`,
      type: "furniture",
      name: `table ${r}`,
      category: "table",
      affordances: ["support"],
    });
    edges.push({ from: table, to: room, rel: "IN_ROOM" });
    surfaces.push(table);
  }
  const containers: string[] = [];
  for (let c = 0; c < containerCount; c++) {
    const openable = rng.chance(0.7);
    const id = add({
      id: `container_${c}`,
      type: "container",
      name: openable ? `drawer ${c}` : `basket ${c}`,
      category: openable ? "drawer" : "basket",
      affordances: openable ? ["openable", "contain"] : ["contain"],
      attrs: openable ? { open: rng.chance(0.3) } : {},
      ...(rng.chance(0.3) ? { capacity: rng.range(2, 4) } : {}),
    });
    edges.push({ from: id, to: rng.pick(rooms), rel: "IN_ROOM" });
    containers.push(id);
  }
  const objects: string[] = [];
  const load = new Map<string, number>();
  for (let o = 0; o < objectCount; o++) {
    const blocker = rng.chance(0.2);
    const id = add({
      id: `object_${o}`,
      type: "object",
      name: blocker ? `book ${o}` : `item ${o}`,
      category: blocker ? "book" : rng.pick(["pen", "cup", "toy"]),
      affordances: blocker ? ["grabbable", "movable"] : ["grabbable"],
      attrs: blocker ? { moved_aside: false } : {},
    });
    const free = containers.filter((c) => (load.get(c) ?? 0) < (capacityOf(nodes, c) ?? 99));
    if (free.length > 0 && rng.chance(0.5)) {
      const c = rng.pick(free);
      load.set(c, (load.get(c) ?? 0) + 1);
      edges.push({ from: id, to: c, rel: "INSIDE" });
    } else edges.push({ from: id, to: rng.pick(surfaces), rel: "ON" });
    if (blocker && objects.length > 0)
      edges.push({ from: id, to: rng.pick(objects), rel: "OCCLUDES" });
    objects.push(id);
  }
  const atoms: GoalAtom[] = [];
  for (const o of rng.sample(objects, goalCount)) {
    const roomy = containers.filter((c) => capacityOf(nodes, c) === undefined);
    if (roomy.length > 0 && rng.chance(0.7))
      atoms.push({ pred: "INSIDE", object: o, target: rng.pick(roomy) });
    else atoms.push({ pred: "ON", object: o, target: rng.pick(surfaces) });
  }
  for (const c of containers)
    if (nodes.find((n) => n.id === c)?.affordances.includes("openable") && rng.chance(0.5))
      atoms.push({ pred: "CLOSED", node: c });
  const robots: RobotSpec[] = [{ id: "robot", room: rooms[0] as string, hands: [null, null] }];
  // Extra robots draw last, so single-robot scenes stay as they were.
  const skills = ROBOGRAPH_CATALOG.entries.map((e) => e.name);
  for (let k = 1; k < (options.robots ?? 1); k++) {
    const id = `robot_${k}`;
    const robot: RobotSpec = {
      id,
      room: rng.pick(rooms),
      hands: rng.chance(0.5) ? [null] : [null, null],
    };
    if (rng.chance(0.5)) robot.skills = rng.sample(skills, rng.range(3, skills.length));
    robots.push(robot);
    if (rng.chance(0.5)) {
      add({
        id: `tray_${k}`,
        type: "container",
        name: `tray ${k}`,
        category: "tray",
        affordances: ["contain"],
        capacity: 2,
      });
      edges.push({ from: `tray_${k}`, to: id, rel: "ON" });
    }
  }
  return {
    scene: { nodes, edges, robots, navigation: roomCount > 1 },
    goal: { all: atoms },
  };
}

function capacityOf(nodes: WorldNode[], id: string): number | undefined {
  return nodes.find((n) => n.id === id)?.capacity;
}
