import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Rng } from "./rng.ts";

describe("Rng", () => {
  it("gives the same stream for the same root and name, different ones otherwise", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (root, name) => {
        const a = new Rng(root, name);
        const b = new Rng(root, name);
        const c = new Rng(root, `${name}x`);
        const xs = Array.from({ length: 8 }, () => a.nextUint32());
        expect(Array.from({ length: 8 }, () => b.nextUint32())).toEqual(xs);
        expect(Array.from({ length: 8 }, () => c.nextUint32())).not.toEqual(xs);
      }),
    );
  });

  it("keeps int() in range and shuffle() a permutation", () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 1000 }), (root, n) => {
        const rng = new Rng(root);
        for (let i = 0; i < 20; i++) {
          const x = rng.int(n);
          expect(x).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThan(n);
        }
        const items = Array.from({ length: Math.min(n, 50) }, (_, i) => i);
        expect(rng.shuffle(items).sort((p, q) => p - q)).toEqual(items);
      }),
    );
  });

  it("is pinned: the first values of a known stream never change", () => {
    const rng = new Rng("longhaul", "pin");
    expect([rng.nextUint32(), rng.nextUint32(), rng.nextUint32()]).toEqual([
      3299526812, 2716153964, 3168858619,
    ]);
    // Non-ASCII roots hash their UTF-8 bytes (pinned before hashing moved to @noble/hashes).
    const unicode = new Rng("wörld 🚀", "s/1");
    expect([unicode.nextUint32(), unicode.nextUint32(), unicode.next()]).toEqual([
      3084653049, 2765267503, 0.4278822927053768,
    ]);
    // Derived streams are independent of the parent's position.
    const parent = new Rng("s");
    const d1 = parent.derive("child").nextUint32();
    parent.nextUint32();
    expect(parent.derive("child").nextUint32()).toBe(d1);
  });

  it("has a roughly uniform next()", () => {
    const rng = new Rng("uniform");
    const bins = new Array(10).fill(0);
    for (let i = 0; i < 10000; i++) bins[Math.floor(rng.next() * 10)]++;
    for (const b of bins) expect(Math.abs(b - 1000)).toBeLessThan(150);
  });
});
