import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeFileName, utf8ByteLength } from "./format.ts";

describe("safeFileName", () => {
  it("keeps safe ids readable and rewrites unsafe ones with a hash suffix", () => {
    expect(safeFileName("task-1@0")).toBe("task-1@0");
    expect(safeFileName("grid/s3/0@1")).toMatch(/^grid_s3_0@1-[0-9a-f]{8}$/);
    expect(safeFileName("a/b@0")).not.toBe(safeFileName("a_b@0"));
    expect(safeFileName("../x@0")).not.toMatch(/^\./);
  });

  it("is always a safe, bounded, distinct name", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.nat(5), (a, b, epoch) => {
        const fa = safeFileName(`${a}@${epoch}`);
        expect(fa).toMatch(/^[A-Za-z0-9_@-][A-Za-z0-9._@-]*$/);
        expect(fa.length).toBeLessThanOrEqual(129);
        if (a !== b) expect(fa).not.toBe(safeFileName(`${b}@${epoch}`));
      }),
    );
  });
});

describe("utf8ByteLength", () => {
  it("equals the encoded length of any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(utf8ByteLength(text)).toBe(Buffer.byteLength(text));
      }),
    );
    expect(utf8ByteLength("a\ud800")).toBe(4);
    expect(utf8ByteLength("🚀é")).toBe(6);
  });
});
