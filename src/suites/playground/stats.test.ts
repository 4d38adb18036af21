import { describe, expect, it } from "vitest";
import { playgroundSuite } from "./index.ts";
import { playgroundStats } from "./stats.ts";

describe("longhaul stats playground", () => {
  const specs = playgroundSuite.compile({});

  it("counts tasks per suite, type and split, episodes per condition, and each task's workload", () => {
    const stats = playgroundStats(specs);
    // 34 Launch tasks with scene files and Tower's Plan (5) and Physics (8); four conditions each.
    expect(stats.summary).toMatchObject({ tasks: 47, episodes: 188, launch: 34, tower: 13 });
    const [types, conditions, workloads] = stats.tables;
    // Table 20: Launch-26..34 are Rules; 26, 27, 28 and 32 Easy; 31 and 34 in EP-20.
    expect(types?.rows.find((r) => r[0] === "Launch" && r[1] === "Rules")?.slice(2, 6)).toEqual([
      9, 4, 5, 2,
    ]);
    expect(types?.rows.map((r) => r[2]).reduce((a, b) => Number(a) + Number(b), 0)).toBe(47);
    expect(conditions?.rows).toEqual([
      ["c1", "L3", 47],
      ["c2", "L3", 47],
      ["c3", "L3", 47],
      ["c4", "L3", 47],
    ]);
    // Table 18: Launch-02 (A007: 10 x tier 1 + loaded level 1 + one target = 12) and Tower-01.
    expect(workloads?.rows.find((r) => r[0] === "Launch-02")).toEqual([
      "Launch-02",
      "Launch",
      "Aim",
      "Easy",
      "yes",
      12,
    ]);
    expect(workloads?.rows.find((r) => r[0] === "Tower-01")?.[5]).toBe(0);
  });

  it("describes a selection: the tower subset at L0", () => {
    const tower = playgroundSuite
      .compile({ level: "L0" })
      .filter((s) => playgroundSuite.subsets?.tower?.(s));
    const stats = playgroundStats(tower);
    expect(stats.summary).toMatchObject({ tasks: 13, episodes: 52, launch: 0, ep20: 2 });
    expect(stats.tables[1]?.rows).toContainEqual(["c2", "L0", 13]);
  });
});
