/** Test helpers for the world engine: structural invariants checked on latent scenes. */
import type { SceneGraph } from "./types.ts";

/**
 * Problems with a latent scene's structure, any number of robots: every non-room node has
 * exactly one location (an edge or one hand of one robot), no placement cycle, no robot id
 * reused as a node, and (unless `capacity: false`: capacity is a catalog precondition that
 * events may override) no node over its capacity.
 */
export function invariantProblems(scene: SceneGraph, options = { capacity: true }): string[] {
  const problems: string[] = [];
  const held = scene.robots.flatMap((r) => r.hands).filter((h): h is string => h !== null);
  if (new Set(held).size !== held.length) problems.push("one object in two hands");
  const robots = new Set(scene.robots.map((r) => r.id));
  const parent = new Map<string, string>();
  for (const n of scene.nodes) {
    if (n.type === "room") continue;
    if (robots.has(n.id)) problems.push(`${n.id} is both a robot and a node`);
    const locs = scene.edges.filter(
      (e) => e.from === n.id && ["ON", "INSIDE", "ATTACHED", "IN_ROOM"].includes(e.rel),
    );
    const count = locs.length + held.filter((h) => h === n.id).length;
    if (count !== 1) problems.push(`${n.id} has ${count} locations`);
    if (locs[0]) parent.set(n.id, locs[0].to);
  }
  for (const start of parent.keys()) {
    let cur: string | undefined = parent.get(start);
    for (let k = 0; cur !== undefined; k++) {
      if (cur === start || k > scene.nodes.length) {
        problems.push(`cycle through ${start}`);
        break;
      }
      cur = parent.get(cur);
    }
  }
  for (const n of scene.nodes)
    if (options.capacity && n.capacity !== undefined) {
      const load = scene.edges.filter(
        (e) => e.to === n.id && (e.rel === "ON" || e.rel === "INSIDE"),
      ).length;
      if (load > n.capacity) problems.push(`${n.id} holds ${load} > ${n.capacity}`);
    }
  return problems;
}
