import { describe, expect, it } from "vitest";
import { DEFAULT_ACCESS, type GraphFrame, type TaskSpec, type Trace } from "../../core/index.ts";
import { ContinualEnvironment, type ContinualLatent } from "./environment.ts";
import { inspectContinual } from "./inspect.ts";
import type { ContinualPayload } from "./payload.ts";
import { movieNightSpec, select } from "./test-support.ts";

const spec = movieNightSpec;

/** A trace of: the success option, an invalid one, then the success option to the goal. */
function playedTrace(): Trace {
  const env = new ContinualEnvironment(spec, DEFAULT_ACCESS);
  const steps: Trace["steps"] = [];
  let observation = env.reset();
  const pick = (role: string) => {
    const choices = (env.latent() as unknown as ContinualLatent).choices;
    return choices.find((c) => c.role === role)?.label as string;
  };
  for (const role of ["success_path", "invalid", ...Array(5).fill("success_path")]) {
    const action = select(pick(role));
    steps.push({ step: steps.length, observation, action });
    observation = env.step(action).observation;
  }
  return { card: env.describe(), steps, final: observation } as unknown as Trace;
}

const node = (frame: GraphFrame | undefined, id: string) => frame?.nodes.find((n) => n.id === id);
const sides = (frame: GraphFrame | undefined) => frame?.edges.map((e) => `${e.label} ${e.to}`);

describe("the continual episode view (Suite.inspect)", () => {
  it("replays the selections: one frame per observation, the room as a tree, the goal marked", () => {
    const graphs = inspectContinual(spec, playedTrace()).graphs ?? [];
    expect(graphs).toHaveLength(8);
    const start = graphs[0];
    // At the entrance: the agent faces nothing; the goal objects are marked with their state.
    expect(sides(start)).toEqual([]);
    expect(node(start, "agent")).toMatchObject({ parent: "living_room", relation: "IN_ROOM" });
    expect(node(start, "ceiling_light")).toMatchObject({ marked: true, state: "on" });
    expect(node(start, "media_cabinet")).toMatchObject({ marked: true, state: "closed" });
    expect(node(start, "television")?.marked).toBeUndefined();
    // Table 3's path: look at the light, (an invalid choice changes nothing), walk to it,
    // switch it off, then the cabinet.
    expect(sides(graphs[1])).toEqual(["FACING ceiling_light"]);
    expect(graphs[2]).toEqual(graphs[1]);
    expect(sides(graphs[3])).toEqual(["FACING ceiling_light", "WITHIN_REACH ceiling_light"]);
    expect(node(graphs[4], "ceiling_light")?.state).toBe("off");
    expect(sides(graphs[5])).toEqual(["FACING media_cabinet", "WITHIN_REACH ceiling_light"]);
    expect(node(graphs[7], "media_cabinet")?.state).toBe("open");
    expect(sides(graphs[7])).toEqual(["FACING media_cabinet", "WITHIN_REACH media_cabinet"]);
    // Visible is what the scene description shows: the faced object and the agent, always.
    for (const frame of graphs.slice(1)) {
      const faced = frame.edges.find((e) => e.label === "FACING")?.to as string;
      expect(node(frame, faced)?.visible).toBe(true);
      expect(node(frame, "agent")?.visible).toBe(true);
    }
  });

  it("imported tasks get a note instead of a graph", () => {
    const imported = {
      ...spec,
      payload: { ...spec.payload, task: { source: "imported" } },
    } as unknown as TaskSpec<ContinualPayload>;
    expect(inspectContinual(imported, playedTrace())).toEqual({
      notes: ["Imported tasks describe states by predicates, not a scene: no graph."],
    });
  });
});
