/**
 * RoboGraph's behaviour is pinned: the compiled suite (hash, payloads, the 588 oracle lengths
 * and plans, TSH), `stats --json`, and full oracle and explorer runs (records, traces,
 * report.md) equal the snapshots captured before the world engine became multi-robot
 * (test/fixtures/robograph-golden; capture.ts rewrites them for an intended change).
 */
import { describe, expect, it } from "vitest";
import {
  type CompileSnapshot,
  compileSnapshot,
  type RunSnapshot,
  readGolden,
  runSnapshot,
} from "./fixtures/robograph-golden/snapshot.ts";

/** Ids whose entries differ, so a failure names the episodes first. */
function differing<T>(want: Record<string, T>, got: Record<string, T>): string[] {
  const ids = new Set([...Object.keys(want), ...Object.keys(got)]);
  return [...ids].filter((id) => JSON.stringify(want[id]) !== JSON.stringify(got[id])).sort();
}

const byId = <T extends { id?: unknown; episodeId?: unknown }>(list: T[]) =>
  Object.fromEntries(list.map((x) => [String(x.id ?? x.episodeId), x]));

describe("robograph golden", () => {
  it("compiles the same 588 episodes, oracle lengths and plans, hash, statistics and prompts", async () => {
    const want = readGolden<CompileSnapshot>("compile.json.gz");
    const got = await compileSnapshot();
    expect(got.episodes).toHaveLength(588);
    expect(differing(byId(want.episodes), byId(got.episodes))).toEqual([]);
    expect(got.hash).toBe(want.hash);
    expect(got.stats).toEqual(want.stats);
    expect(got.prompts).toEqual(want.prompts);
  });

  for (const agent of ["oracle", "explorer"] as const)
    it(`runs the ${agent} to the same records, traces and report`, async () => {
      const want = readGolden<RunSnapshot>(`${agent}-run.json.gz`);
      const got = await runSnapshot(agent);
      expect(differing(want.traces, got.traces)).toEqual([]);
      expect(differing(byId(want.records), byId(got.records))).toEqual([]);
      expect(got.records).toEqual(want.records);
      expect(got.report).toBe(want.report);
    });
});
