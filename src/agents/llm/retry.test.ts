import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Rng } from "../../core/index.ts";
import { backoffMs, kindOfStatus, retryAfterMs, sleep } from "./retry.ts";

const headers = (values: Record<string, string>) => ({
  get: (name: string) => values[name] ?? null,
});

describe("retry policy", () => {
  it("classifies statuses: 429 rate limit; 408, 409, 5xx retryable; other 4xx fatal", () => {
    expect(kindOfStatus(429)).toBe("rate-limit");
    expect([408, 409, 500, 502, 529].map(kindOfStatus)).toEqual(Array(5).fill("retryable"));
    expect([400, 401, 403, 404, 422].map(kindOfStatus)).toEqual(Array(5).fill("fatal"));
  });

  it("reads retry-after-ms, Retry-After seconds and HTTP dates", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(retryAfterMs(headers({ "retry-after-ms": "250", "retry-after": "9" }), now)).toBe(250);
    expect(retryAfterMs(headers({ "retry-after": "3" }), now)).toBe(3000);
    expect(retryAfterMs(headers({ "retry-after": "Wed, 01 Jan 2025 00:00:07 GMT" }), now)).toBe(
      7000,
    );
    expect(retryAfterMs(headers({ "retry-after": "Tue, 31 Dec 2024 23:00:00 GMT" }), now)).toBe(0);
    expect(retryAfterMs(headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });

  it("uses the server's wait when given, else seeded exponential backoff with jitter", () => {
    const rng = new Rng("seed", "backoff");
    expect(backoffMs({ kind: "rate-limit", message: "", retryAfterMs: 1234 }, 5, 500, rng)).toBe(
      1234,
    );
    fc.assert(
      fc.property(fc.nat(12), fc.string(), (retry, seed) => {
        const failure = { kind: "retryable" as const, message: "" };
        const a = backoffMs(failure, retry, 500, new Rng(seed, "b"));
        const ceiling = Math.min(30_000, 500 * 2 ** retry);
        expect(a).toBeGreaterThanOrEqual(ceiling / 2);
        expect(a).toBeLessThan(ceiling);
        expect(backoffMs(failure, retry, 500, new Rng(seed, "b"))).toBe(a);
      }),
    );
  });

  it("sleeps until aborted", async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
  });
});
