import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, hashValue } from "./hash.ts";

describe("canonicalJson", () => {
  it("ignores key order at every depth", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: 3 } })).toBe(
      '{"a":{"c":3,"d":[1,{"x":1,"y":2}]},"b":1}',
    );
  });

  it("keeps a __proto__ key as data", () => {
    expect(canonicalJson(JSON.parse('{"__proto__": false, "a": 1}'))).toBe(
      '{"__proto__":false,"a":1}',
    );
  });

  it("round-trips JSON values and hashes equal values equally", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(JSON.parse(canonicalJson(v))).toEqual(JSON.parse(JSON.stringify(v)));
        expect(hashValue(v)).toBe(hashValue(JSON.parse(JSON.stringify(v))));
      }),
    );
  });
});
