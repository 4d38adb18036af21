/** The worker's yielding agents: a decision never starts before pending timers have run. */
import { describe, expect, it } from "vitest";
import { greedyAgent } from "../../../test/fixtures/grid-agents.ts";
import { gridSuite } from "../../../test/fixtures/grid-suite.ts";
import { playEpisode } from "../../run/index.ts";
import { yielding } from "./worker.ts";

describe("yielding agents", () => {
  it("let the event loop run before every decision, and decide as the agent does", async () => {
    const suite = gridSuite(1);
    const spec = suite.compile()[0]!;
    // A synchronous agent in a synchronous environment: only microtasks between decisions,
    // so without yielding no timer (BullMQ's lock renewal) would run during the episode.
    const ticksAtDecision: number[] = [];
    let ticks = 0;
    const inner = greedyAgent();
    const counted = {
      ...inner,
      start: async (...args: Parameters<typeof inner.start>) => {
        const session = await inner.start(...args);
        return {
          ...session,
          act: (observation: Parameters<typeof session.act>[0]) => {
            ticksAtDecision.push(ticks);
            return session.act(observation);
          },
        };
      },
    };
    let running = true;
    const tick = () => {
      ticks++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const played = await playEpisode(suite, spec, yielding(counted));
    running = false;
    const plain = await playEpisode(suite, spec, inner);
    expect(played.record.steps).toBeGreaterThan(2);
    expect(ticksAtDecision).toHaveLength(played.record.steps);
    // Every decision saw at least one more turn of the event loop than the one before it.
    for (let i = 1; i < ticksAtDecision.length; i++) {
      expect(ticksAtDecision[i]!).toBeGreaterThan(ticksAtDecision[i - 1]!);
    }
    const { wallMs: _a, agent: _b, ...got } = played.record;
    const { wallMs: _c, agent: _d, ...want } = plain.record;
    expect(got).toEqual(want);
  });
});
