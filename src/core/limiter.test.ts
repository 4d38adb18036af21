import { describe, expect, it } from "vitest";
import { AdaptiveLimiter } from "./limiter.ts";

describe("AdaptiveLimiter", () => {
  it("never lets more than the limit run at once", async () => {
    const gate = new AdaptiveLimiter(3);
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        const release = await gate.acquire("p");
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 2));
        running--;
        release();
      }),
    );
    expect(peak).toBe(3);
  });

  it("halves on a rate limit and climbs back by one per window of successes", () => {
    const gate = new AdaptiveLimiter(8);
    gate.rateLimited("p");
    expect(gate.limitOf("p")).toBe(4);
    gate.rateLimited("p");
    expect(gate.limitOf("p")).toBe(2);
    gate.succeeded("p");
    expect(gate.limitOf("p")).toBe(2);
    gate.succeeded("p");
    expect(gate.limitOf("p")).toBe(3);
    for (let i = 0; i < 100; i++) gate.succeeded("p");
    expect(gate.limitOf("p")).toBe(8);
    expect(gate.limitOf("other")).toBe(8);
  });
});
