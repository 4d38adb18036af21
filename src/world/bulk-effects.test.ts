import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Catalog, type SceneGraph, World, type WorldNode } from "./index.ts";
import { invariantProblems } from "./test-support.ts";

const node = (id: string, type: WorldNode["type"], affordances: string[] = [], extra = {}) =>
  ({ id, type, name: id, category: id, affordances, attrs: {}, ...extra }) as WorldNode;

/** A wash-and-serve cell: a machine, a tray, a shelf, one arm without hands-on transfer. */
function cell(): SceneGraph {
  return {
    nodes: [
      node("cell", "room"),
      node("shelf", "furniture", ["support"]),
      node("machine", "container", ["contain"]),
      node("tray", "container", ["contain"], { capacity: 2 }),
      node("window", "container", ["contain"]),
      node("shirt", "object", ["grabbable"], { attrs: { washed: false } }),
      node("socks", "object", ["grabbable"], { attrs: { washed: false } }),
    ],
    edges: [
      { from: "shelf", to: "cell", rel: "IN_ROOM" },
      { from: "machine", to: "cell", rel: "IN_ROOM" },
      { from: "tray", to: "cell", rel: "IN_ROOM" },
      { from: "window", to: "cell", rel: "IN_ROOM" },
      { from: "shirt", to: "shelf", rel: "ON" },
      { from: "socks", to: "shelf", rel: "ON" },
    ],
    robots: [{ id: "arm", room: "cell", hands: [] }],
    navigation: false,
  };
}

const CATALOG = new Catalog({
  actions: [
    {
      name: "load",
      description: "Move an object into a container without a hand.",
      parameters: ["object", "target"],
      preconditions: [
        { check: "visible", arg: 0 },
        { check: "not_full", arg: 1 },
      ],
      effects: [{ op: "transfer", object: 0, rel: "INSIDE", target: 1 }],
    },
    {
      name: "wash",
      description: "Wash whatever is in the machine.",
      parameters: ["machine"],
      preconditions: [{ check: "loaded", arg: 0 }],
      effects: [{ op: "set_attr_contents", arg: 0, attr: "washed", value: true }],
    },
    {
      name: "empty",
      description: "Move everything from one container to another.",
      parameters: ["from", "to"],
      preconditions: [],
      effects: [{ op: "move_contents", from: 0, rel: "INSIDE", to: 1 }],
    },
  ],
});

describe("bulk and handless effects (transfer, set_attr_contents, move_contents, loaded)", () => {
  it("transfers without a hand, washes the load, then empties it", () => {
    const w = new World(cell(), { all: [] }, [], { catalog: CATALOG });
    const wash = w.check({ name: "wash", args: ["machine"], robot: "arm" });
    expect(wash.ok ? "" : wash.feedback.message).toBe("machine is empty");
    for (const item of ["shirt", "socks"])
      expect(w.step({ name: "load", args: [item, "machine"], robot: "arm" }).feedback.status).toBe(
        "success",
      );
    expect(w.step({ name: "wash", args: ["machine"], robot: "arm" }).feedback.status).toBe(
      "success",
    );
    const washed = w
      .latent()
      .nodes.filter((n) => n.attrs.washed)
      .map((n) => n.id);
    expect(washed).toEqual(["shirt", "socks"]);
    expect(w.step({ name: "empty", args: ["machine", "tray"], robot: "arm" }).feedback.status).toBe(
      "success",
    );
    const scene = w.latent();
    expect(scene.edges.filter((e) => e.to === "tray").map((e) => e.from)).toEqual([
      "shirt",
      "socks",
    ]);
    expect(invariantProblems(scene)).toEqual([]);
  });

  it("refuses a transfer into a room, of a room, or into the object itself", () => {
    const w = new World(cell(), { all: [] }, [], { catalog: CATALOG });
    const fail = (args: string[]) => {
      const c = w.check({ name: "load", args, robot: "arm" });
      return c.ok ? "ok" : c.feedback.failure_type;
    };
    expect(fail(["shirt", "cell"])).toBe("missing_affordance");
    expect(fail(["cell", "tray"])).toBe("missing_affordance");
    expect(fail(["tray", "tray"])).toBe("placement_cycle");
  });

  it("keeps the structure intact under any sequence of these actions", () => {
    const names = ["shirt", "socks", "tray", "machine", "window", "shelf"];
    const action = fc.record({
      name: fc.constantFrom("load", "wash", "empty"),
      a: fc.constantFrom(...names),
      b: fc.constantFrom(...names),
    });
    fc.assert(
      fc.property(fc.array(action, { maxLength: 12 }), (actions) => {
        const w = new World(cell(), { all: [] }, [], { catalog: CATALOG });
        for (const { name, a, b } of actions) {
          const args = name === "wash" ? [a] : [a, b];
          w.step({ name, args, robot: "arm" });
        }
        return invariantProblems(w.latent(), { capacity: false }).length === 0;
      }),
    );
  });
});

describe("external changes (a simulator's entry transitions)", () => {
  it("applies rewrites atomically now, or not at all", () => {
    const w = new World(cell(), { all: [] }, [], { catalog: CATALOG });
    expect(
      w.external([
        { op: "relocate", node: "shirt", rel: "INSIDE", target: "machine" },
        { op: "set_attr", node: "shirt", attr: "washed", value: true },
      ]),
    ).toBe(true);
    const before = w.latent();
    expect(before.edges).toContainEqual({ from: "shirt", to: "machine", rel: "INSIDE" });
    expect(
      w.external([
        { op: "set_attr", node: "socks", attr: "washed", value: true },
        { op: "relocate", node: "ghost", rel: "ON", target: "shelf" },
      ]),
    ).toBe(false);
    expect(w.latent()).toEqual(before);
  });
});
