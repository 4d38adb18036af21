import { describe, expect, it } from "vitest";
import { type Action, DEFAULT_ACCESS, type TaskSpec } from "../../core/index.ts";
import { compileFamilies, DEFAULT_SEED, type RoboGraphPayload } from "./compiler.ts";
import { RoboGraphEnvironment } from "./environment.ts";
import { builtinFamilies } from "./families.ts";

const buffet = builtinFamilies().find((f) => f.id === "buffet");
const spec = compileFamilies([{ ...buffet!, scenes: 1 }], DEFAULT_SEED)[0]!;

/** Open `container` (an id or a name) in a fresh episode of `task`: the step's result. */
function openIn(task: TaskSpec<RoboGraphPayload>, container: string) {
  const env = new RoboGraphEnvironment(task, DEFAULT_ACCESS);
  const action: Action = { kind: "tool", calls: [{ tool: "open", args: { container } }] };
  return env.step(action);
}

describe("RoboGraph's argument tokens", () => {
  it("resolve a visible node's unique name to its id, and leave an ambiguous one unresolved", () => {
    const drawer = spec.payload.graph.nodes.find((n) => n.id === "warming_drawer");
    expect(drawer?.name).toBe("warming drawer");
    const byId = openIn(spec, "warming_drawer");
    expect(byId.info.status).toBe("success");
    expect(openIn(spec, "warming drawer")).toEqual(byId);
    const unknown = openIn(spec, "no such thing");
    expect(unknown.info).toEqual({ status: "failure", failure_type: "not_visible" });
    // Another visible node renamed "warming drawer": the name no longer says which node.
    const twin = structuredClone(spec);
    const other = twin.payload.graph.nodes.find((n) => n.id === "bread_basket");
    expect(other?.name).toBe("bread basket");
    (other as { name: string }).name = "warming drawer";
    expect(openIn(twin, "warming drawer").info).toEqual(unknown.info);
    expect(openIn(twin, "warming_drawer").info).toEqual(byId.info);
  });
});

describe("RoboGraph's cards", () => {
  it("share one frozen tool list between episodes", () => {
    const a = new RoboGraphEnvironment(spec, DEFAULT_ACCESS).describe();
    const b = new RoboGraphEnvironment(spec, DEFAULT_ACCESS).describe();
    expect(a.tools).toBe(b.tools);
    expect(Object.isFrozen(a.tools)).toBe(true);
    expect(Object.isFrozen(a.tools[0]?.parameters)).toBe(true);
    expect(() => {
      (a.tools[0] as { description: string }).description = "changed";
    }).toThrow(TypeError);
  });
});
