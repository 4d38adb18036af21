import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { aimAt, drawFor, LAUNCHER, muzzlePoint, muzzleSpeed } from "./launcher.ts";

describe("the launcher's public model", () => {
  it("aimAt sends the ball centre through the aim point (drag-free ballistics)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.6, max: 2.4, noNaN: true }),
        fc.double({ min: -0.8, max: 0.8, noNaN: true }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        fc.double({ min: 0.1, max: 0.9, noNaN: true }),
        fc.record({
          x: fc.double({ min: -0.05, max: 0.05, noNaN: true }),
          y: fc.double({ min: -0.05, max: 0.05, noNaN: true }),
          yaw: fc.double({ min: -0.3, max: 0.3, noNaN: true }),
        }),
        (x, y, z, el, base) => {
          const shot = aimAt(base, [x, y, z], el);
          fc.pre(shot !== undefined);
          const m = muzzlePoint(base, shot!.az, el);
          const heading = base.yaw + shot!.az;
          const range = Math.hypot(x - m[0], y - m[1]);
          // The aim point lies on the heading line from the muzzle...
          expect(
            Math.abs((x - m[0]) * Math.sin(heading) - (y - m[1]) * Math.cos(heading)),
          ).toBeLessThan(1e-9);
          // ...and the parabola reaches its height there.
          const t = range / (shot!.speed * Math.cos(el));
          const zAt = m[2] + shot!.speed * Math.sin(el) * t - 0.5 * 9.81 * t * t;
          expect(zAt).toBeCloseTo(z, 9);
        },
      ),
    );
  });

  it("drawFor inverts the muzzle speed model and is monotone", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(22, 24, 26, 28),
        fc.double({ min: 0.05, max: 1.0, noNaN: true }),
        fc.double({ min: 0.06, max: LAUNCHER.maxDraw, noNaN: true }),
        (k, el, d) => {
          const v = muzzleSpeed(k, d, el);
          fc.pre(v > 0.5);
          expect(drawFor(k, v, el)).toBeCloseTo(d, 8);
          expect(muzzleSpeed(k, d * 0.9, el)).toBeLessThan(v);
        },
      ),
    );
  });

  it("a stiffer spring needs less draw for the same speed (the four conditions)", () => {
    const draws = [22, 24, 26, 28].map((k) => drawFor(k, 3.5, 0.4)!);
    for (let i = 1; i < 4; i++) expect(draws[i]!).toBeLessThan(draws[i - 1]!);
    // Energy scaling: d ~ 1/sqrt(k) up to the marble's weight term.
    expect(draws[0]! / draws[3]!).toBeCloseTo(Math.sqrt(28 / 22), 1);
  });
});
