import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonProblem, leakedValues, privilegedKeys } from "./leaks.ts";

describe("jsonProblem", () => {
  it("accepts any JSON value and names the first non-JSON path", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(jsonProblem(v, "$")).toBeUndefined();
      }),
    );
    expect(jsonProblem({ a: [1, { b: undefined }] }, "$")).toBe("$.a[1].b is a undefined");
    expect(jsonProblem({ a: Number.NaN }, "$")).toBe("$.a is NaN");
    expect(jsonProblem({ m: new Map() }, "$")).toBe("$.m is a Map object");
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(jsonProblem(cycle, "$")).toBe("$.self is a cycle");
    const shared = { x: 1 };
    expect(jsonProblem({ a: shared, b: shared }, "$")).toBeUndefined();
  });
});

describe("leakedValues", () => {
  it("matches whole tokens only, in any string of the value", () => {
    const view = { nodes: ["cup_12", "plate"], text: "the cup_3 is gone", n: "a\nb" };
    expect(leakedValues(view, ["cup_1", "cup_3", "plate", "late", "a\nb"])).toEqual([
      "cup_3",
      "plate",
      "a\nb",
    ]);
  });
});

describe("privilegedKeys", () => {
  it("finds the protocol's privileged key names at any depth", () => {
    expect(privilegedKeys({ view: [{ latent: 1 }], privileged: true, ok: { lat: 1 } })).toEqual([
      "$.view[0].latent",
      "$.privileged",
    ]);
  });
});
