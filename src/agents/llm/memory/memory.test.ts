import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Turn } from "../providers/index.ts";
import { ExplicitState } from "./explicit-state.ts";
import { lastTurns, parseMemory } from "./strategy.ts";

describe("parseMemory", () => {
  it("reads every strategy and says what is wrong with a bad one", () => {
    expect(parseMemory("full")).toEqual({ kind: "full" });
    expect(parseMemory("last-k:32")).toEqual({ kind: "last-k", k: 32 });
    expect(parseMemory("oracle-state")).toEqual({ kind: "oracle-state" });
    expect(parseMemory("last-k:0")).toMatch(/K >= 1/);
    expect(parseMemory("last-k")).toMatch(
      /unknown memory strategy "last-k"; one of: full, last-k:K/,
    );
  });
});

describe("lastTurns", () => {
  const user = (i: number, results = 1): Turn => ({
    role: "user",
    toolResults: Array.from({ length: results }, (_, r) => ({ id: `c${i}.${r}`, content: "ok" })),
    texts: [`o${i}`],
  });
  const assistant = (i: number): Turn => ({ role: "assistant", message: `a${i}` });

  it("starts at a user turn without the tool results of calls cut off, and keeps at most K", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 15 }), (n, k) => {
        const turns = Array.from({ length: n }, (_, i) => [
          user(i, i === 0 ? 0 : 1),
          assistant(i),
        ]).flat();
        const window = lastTurns(turns, k);
        expect(window.length).toBeLessThanOrEqual(k);
        expect(window.length).toBeGreaterThanOrEqual(Math.min(k, 2 * n) - 1);
        if (window.length === 0) return;
        const first = window[0]!;
        expect(first.role).toBe("user");
        if (first.role === "user") expect(first.toolResults).toEqual([]);
        // Everything after the first turn is untouched, in order.
        expect(window.slice(1)).toEqual(turns.slice(turns.length - window.length + 1));
      }),
    );
  });
});

describe("ExplicitState", () => {
  it("keeps facts and goals by id and reports operations that fail", () => {
    const state = new ExplicitState();
    const call = (name: string, args: unknown, id = "x") => ({
      id,
      name,
      argumentsJson: typeof args === "string" ? args : JSON.stringify(args),
    });
    expect(
      state.apply([
        call("add_fact", { text: "the mug is in the sink" }),
        call("add_goal", { text: "wash the mug" }),
        call("add_goal", { text: "dry the mug" }),
        call("complete_goal", { id: "g1" }),
        call("remove_goal", { id: "g9" }),
        call("add_fact", { text: "  " }),
        call("add_fact", "{not json"),
        call("teleport", {}),
      ]),
    ).toEqual([
      'calls[4] remove_goal: no goal "g9"',
      'calls[5] add_fact: needs a non-empty "text"',
      expect.stringMatching(/^calls\[6\] add_fact: arguments are not JSON/),
      expect.stringMatching(
        /^calls\[7\] teleport: unknown operation; use one of: add_fact, remove_fact/,
      ),
    ]);
    expect(state.render()).toBe(
      "Facts:\n- [f1] the mug is in the sink\nRemaining goals:\n- [g2] dry the mug\nCompleted goals:\n- [g1] wash the mug",
    );
    expect(
      state.apply([call("remove_fact", { id: "f1" }), call("remove_goal", { id: "g2" })]),
    ).toEqual([]);
    expect(state.render()).toBe(
      "Facts:\n- (none)\nRemaining goals:\n- (none)\nCompleted goals:\n- [g1] wash the mug",
    );
  });
});
