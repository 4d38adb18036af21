import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gridSuite } from "../../test/fixtures/grid-suite.ts";
import { canonicalJson, hashValue, sha256 } from "./hash.ts";
import { copyJson, freezeJson } from "./json.ts";
import type { Json } from "./protocol.ts";
import { suiteHash } from "./suite.ts";

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

describe("sha256 and hashValue golden values", () => {
  // Digests computed with node:crypto before hashing moved to @noble/hashes; they must not move.
  it("matches the known digests, including non-ASCII text", () => {
    expect(sha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256("héllo ✓ 🚀\u0000")).toBe(
      "c7bb0ab7399c1f786f7339707121ada18cded0d9bc29a0aabad20899aeb805d6",
    );
    expect(hashValue({ b: [1, "ü", null, { z: 1.5 }], a: true })).toBe(
      "73df63612c5101b35c4ee03664069c4f6271ec9fb5c388808a43141705f05080",
    );
  });

  it("keeps the grid fixture suite's content hash", () => {
    const grid = gridSuite();
    expect(suiteHash(grid, grid.compile())).toBe("1a5453427018ca3a");
  });
});

describe("copyJson", () => {
  it("copies any JSON value deeply: equal, and sharing nothing", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const copy = copyJson(v as Json);
        expect(canonicalJson(copy)).toBe(canonicalJson(v));
        expect(JSON.stringify(copy)).toBe(JSON.stringify(v));
      }),
    );
    const original = { a: [{ b: 1 }], c: { d: "x" } };
    const copy = copyJson(original);
    copy.a[0]!.b = 2;
    copy.c.d = "y";
    expect(original).toEqual({ a: [{ b: 1 }], c: { d: "x" } });
    const proto = copyJson(JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(canonicalJson(proto)).toBe('{"__proto__":{"polluted":true}}');
  });
});

describe("freezeJson", () => {
  it("freezes any JSON value deeply, in place, and leaves it equal", () => {
    const frozenAll = (v: unknown): boolean =>
      v === null ||
      typeof v !== "object" ||
      (Object.isFrozen(v) && Object.values(v).every(frozenAll));
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v);
        const frozen = freezeJson(v);
        expect(frozen).toBe(v);
        expect(frozenAll(frozen)).toBe(true);
        expect(JSON.stringify(frozen)).toBe(text);
      }),
    );
  });
});
