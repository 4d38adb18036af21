import { describe, expect, it } from "vitest";
import { World } from "../../world/index.ts";
import { CONTINUAL_CATALOG } from "./catalog.ts";
import { buildGraph, edgesOf, goalOf, sceneOf, stateAt, stateKey } from "./graph.ts";
import type { TaskDef } from "./task.ts";
import { movieNight, tidy } from "./test-support.ts";

/** Distances by forward breadth-first search through the public World API. */
function worldDistance(def: TaskDef, actions: { name: string; args: string[] }[]): number {
  const start = new World(sceneOf(def), goalOf(def), [], { catalog: CONTINUAL_CATALOG });
  for (const a of actions) start.step(a);
  const graph = buildGraph(def);
  const names = graph.groundings.map((g) => ({ name: g.name, args: g.ids }));
  let frontier = [start];
  const seen = new Set([start.latentState().key()]);
  for (let d = 0; d < 20; d++) {
    if (frontier.some((w) => w.goalSatisfied())) return d;
    const next: World[] = [];
    for (const w of frontier)
      for (const a of names) {
        const c = w.clone();
        const checked = c.check(a);
        if (!checked.ok) continue;
        c.apply(checked.checked);
        const key = c.latentState().key();
        if (seen.has(key)) continue;
        seen.add(key);
        next.push(c);
      }
    frontier = next;
  }
  return -1;
}

describe("state-transition graphs (paper §3.3)", () => {
  const graph = buildGraph(movieNight);

  it("finds the 6-step shortest path of Table 3, in the description's goal order", () => {
    expect(graph.dist[0]).toBe(6);
    expect(graph.pathActions.map((a) => graph.groundings[a]?.id)).toEqual([
      "look_at_ceiling_light",
      "walk_to_ceiling_light",
      "switch_off_ceiling_light",
      "look_at_media_cabinet",
      "walk_to_media_cabinet",
      "open_media_cabinet",
    ]);
    // The engine agrees: replaying the path through World satisfies the goal.
    const world = new World(sceneOf(movieNight), goalOf(movieNight), [], {
      catalog: CONTINUAL_CATALOG,
    });
    for (const a of graph.pathActions) {
      const g = graph.groundings[a];
      expect(world.step({ name: g?.name ?? "", args: g?.ids ?? [] }).feedback.status).toBe(
        "success",
      );
    }
    expect(world.goalSatisfied()).toBe(true);
  });

  it("enumerates every reachable state: 4 before walking, then 3 reaches x 3 views x light x cabinet", () => {
    // Before the first walk nothing is in reach, so nothing was toggled: the initial view and
    // one per object looked at. After it: any of 3 reaches, any of 3 views, 2 x 2 toggles.
    expect(graph.size).toBe(4 + 3 * 3 * 2 * 2);
    const keys = new Set(Array.from({ length: graph.size }, (_, s) => stateKey(stateAt(graph, s))));
    expect(keys.size).toBe(40);
  });

  it("every edge changes the state: no walking to what is in reach, no looking at what is in view", () => {
    const ids = (s: number) => edgesOf(graph, s).map(([a]) => graph.groundings[a]?.id);
    const via = (s: number, id: string) =>
      edgesOf(graph, s).find(([a]) => graph.groundings[a]?.id === id)?.[1] as number;
    expect(ids(0)).toEqual([
      "look_at_ceiling_light",
      "look_at_media_cabinet",
      "look_at_television",
    ]);
    const facing = via(0, "look_at_ceiling_light");
    expect(ids(facing).sort()).toEqual(
      ["look_at_media_cabinet", "look_at_television", "walk_to_ceiling_light"].sort(),
    );
    const near = via(facing, "walk_to_ceiling_light");
    expect(ids(near).sort()).toEqual(
      ["look_at_media_cabinet", "look_at_television", "switch_off_ceiling_light"].sort(),
    );
    for (const g of [graph, buildGraph(tidy)])
      for (let s = 0; s < g.size; s++)
        for (const [, to] of edgesOf(g, s)) expect(to, `state ${s}`).not.toBe(s);
  });

  it("distances satisfy the Bellman equation and match a search through the World API", () => {
    for (let s = 0; s < graph.size; s++) {
      const d = graph.dist[s] as number;
      const next = edgesOf(graph, s).map(([, to]) => graph.dist[to] as number);
      if (d === 0) continue;
      expect(d, `state ${s}`).toBe(1 + Math.min(...next));
    }
    expect(worldDistance(movieNight, [])).toBe(6);
    expect(worldDistance(movieNight, [{ name: "look_at", args: ["television"] }])).toBe(6);
    // Next to the cabinet first: open it (1), then the light (3).
    expect(
      worldDistance(movieNight, [
        { name: "look_at", args: ["media_cabinet"] },
        { name: "walk_to", args: ["media_cabinet"] },
      ]),
    ).toBe(4);
  });

  it("an object already in hand is used where it goes; a pick precedes its place", () => {
    const g = buildGraph(tidy);
    expect(g.dist[0]).toBe(12);
    expect(g.pathActions.map((a) => g.groundings[a]?.id)).toEqual(
      [
        "look_at_trash_can",
        "walk_to_trash_can",
        "drop_magazine_into_trash_can",
        "look_at_cup",
        "walk_to_cup",
        "pick_up",
        "look_at_bookshelf",
        "walk_to_bookshelf",
        "place_cup_on_bookshelf",
        "look_at_floor_lamp",
        "walk_to_floor_lamp",
        "switch_on_floor_lamp",
      ].map((id) => (id === "pick_up" ? "pick_up_cup" : id)),
    );
    expect(worldDistance(tidy, [])).toBe(12);
    // Operating a distractor is never an edge: it is a decoy, shown only where it cannot run.
    expect(g.groundings.some((x) => x.ids.includes("television") && x.name === "switch_on")).toBe(
      false,
    );
    expect(g.decoys.some((x) => x.id === "switch_on_television")).toBe(true);
  });
});
