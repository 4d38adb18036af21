import { describe, expect, it } from "vitest";
import {
  formatDuration,
  type Progress,
  type ProgressClock,
  progressBar,
  progressLines,
  renderProgress,
} from "./progress.ts";

const p: Progress = {
  done: 6,
  total: 24,
  success: 3,
  failure: 2,
  invalid: 1,
  tokens: 12_345,
  costUsd: 0.4249,
  unpricedCalls: 0,
  elapsedMs: 60_000,
  etaMs: 185_000,
};

describe("progress", () => {
  it("renders done/total, ETA, success rate over scored episodes, tokens and cost", () => {
    expect(renderProgress(p, 8)).toBe(
      "[##------] 6/24 ETA 3m05s | success 60% (1 invalid) | 12.3k tok | $0.42",
    );
    expect(
      renderProgress({ ...p, done: 0, success: 0, failure: 0, invalid: 0, etaMs: null }, 4),
    ).toBe("[----] 0/24 ETA ? | success - | 12.3k tok | $0.42");
  });

  it("formats durations", () => {
    expect([formatDuration(4_400), formatDuration(61_000), formatDuration(3_723_000)]).toEqual([
      "4s",
      "1m01s",
      "1h02m",
    ]);
  });

  it("draws on a TTY only, ending the line when done", () => {
    const written: string[] = [];
    const stream = (isTTY: boolean) =>
      ({
        isTTY,
        columns: 200,
        write: (s: string) => written.push(s),
      }) as unknown as NodeJS.WriteStream;
    progressBar(stream(false))(p);
    expect(written).toEqual([]);
    const draw = progressBar(stream(true));
    draw(p);
    draw({ ...p, done: 24 });
    expect(written[0]?.startsWith("\r[######------------------] 6/24 ETA 3m05s")).toBe(true);
    expect(written[0]?.endsWith("\u001b[K")).toBe(true);
    expect(written[1]).toMatch(/24\/24 .*\n$/);
  });

  it("shows cost as unknown when model calls had no price", () => {
    expect(renderProgress({ ...p, unpricedCalls: 3 }, 4)).toMatch(/\| cost \?$/);
  });

  it("prints a progress line every interval off a terminal, also while nothing finishes", () => {
    let now = 0;
    let tick: (() => void) | undefined;
    let stopped = false;
    const clock: ProgressClock = {
      now: () => now,
      every: (ms, fn) => {
        expect(ms).toBe(30_000);
        tick = fn;
        return () => {
          stopped = true;
        };
      },
    };
    const lines: string[] = [];
    const progress = progressLines((line) => lines.push(line), 30_000, clock);
    tick?.();
    expect(lines).toEqual([]); // nothing reported yet
    progress.update(p);
    now = 30_000;
    tick?.();
    // A hung provider: no episode finishes, yet the next line shows the time passing.
    now = 60_000;
    tick?.();
    expect(lines).toEqual([
      "progress 6/24 episodes | success 60% of 5 scored | 1 invalid | elapsed 1m30s | ETA 3m05s | 12.3k tok | $0.42\n",
      "progress 6/24 episodes | success 60% of 5 scored | 1 invalid | elapsed 2m00s | ETA 3m05s | 12.3k tok | $0.42\n",
    ]);
    progress.stop();
    expect(stopped).toBe(true);
  });
});
