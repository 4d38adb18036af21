import { describe, expect, it } from "vitest";
import { EP100, hanoiDepth, LAUNCH_TIER, launchWorkload, towerWorkload } from "./catalog.ts";
import { launchScenes } from "./launch/scene.ts";

const count = (f: (e: (typeof EP100)[number]) => boolean) => EP100.filter(f).length;

describe("EP-100 catalog (Table 20)", () => {
  it("has Table 3's composition: 100 tasks, 34/21/16/12/17 by suite, 50/50 splits, 20 in EP-20", () => {
    expect(EP100).toHaveLength(100);
    expect(
      ["Launch", "Tower", "Lock", "Cube", "Home"].map((s) => count((e) => e.suite === s)),
    ).toEqual([34, 21, 16, 12, 17]);
    expect(count((e) => e.split === "Easy")).toBe(50);
    expect(
      ["Launch", "Tower", "Lock", "Cube", "Home"].map((s) => count((e) => e.suite === s && e.ep20)),
    ).toEqual([6, 4, 3, 3, 4]);
  });

  it("has Table 2's E/H counts per type", () => {
    const eh = (suite: string, type: string) => [
      count((e) => e.suite === suite && e.type === type && e.split === "Easy"),
      count((e) => e.suite === suite && e.type === type && e.split === "Hard"),
    ];
    expect(eh("Launch", "Aim")).toEqual([4, 3]);
    expect(eh("Launch", "Causal")).toEqual([6, 7]);
    expect(eh("Launch", "Glass")).toEqual([3, 2]);
    expect(eh("Launch", "Rules")).toEqual([4, 5]);
    expect(eh("Tower", "Plan")).toEqual([3, 2]);
    expect(eh("Tower", "Physics")).toEqual([4, 4]);
  });

  it("Table 18 Tower workloads, hand-checked", () => {
    expect(towerWorkload("H01", "panda")).toBe(0);
    expect(towerWorkload("H04", "panda")).toBe(6);
    expect(towerWorkload("H40", "panda")).toBe(7); // 31 moves, combined theme
    expect(towerWorkload("H31", "panda")).toBe(5); // 9 moves, path obstacles
    expect(towerWorkload("H02", "floating-sharpa")).toBe(5);
    expect(towerWorkload("H09", "fr3-sharpa")).toBe(3);
    expect([1, 2, 3, 4].map((n) => hanoiDepth(`H0${n}`))).toEqual([1, 3, 9, 31]);
  });

  it("workloads reproduce the Easy/Hard split within every implemented type (§4.2)", () => {
    const scenes = launchScenes();
    const workload = (e: (typeof EP100)[number]) => {
      if (e.suite === "Tower") return towerWorkload(e.caseId, "panda");
      const s = scenes.get(e.index)!;
      return launchWorkload(LAUNCH_TIER[e.caseId]!, s.loadedLevel, s.required.length);
    };
    const types = new Set(
      EP100.filter((e) => e.suite === "Launch" || (e.suite === "Tower" && e.type !== "Dex")).map(
        (e) => `${e.suite}/${e.type}`,
      ),
    );
    for (const type of types) {
      const tasks = EP100.filter((e) => `${e.suite}/${e.type}` === type);
      const easy = Math.max(...tasks.filter((e) => e.split === "Easy").map(workload));
      const hard = Math.min(...tasks.filter((e) => e.split === "Hard").map(workload));
      expect(easy, type).toBeLessThanOrEqual(hard);
    }
  });
});
