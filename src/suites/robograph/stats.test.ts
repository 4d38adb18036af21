import { describe, expect, it } from "vitest";
import { compileSuite } from "./compiler.ts";
import { suiteStats } from "./stats.ts";

describe("longhaul stats robograph", () => {
  it("reports hidden-goal facts, revealing facts and decoys per scene and per family", () => {
    const stats = suiteStats(compileSuite());
    const [scenes, families] = stats.tables;
    for (const table of [scenes, families])
      for (const column of ["goal_hidden", "goal_revealing", "decoys", "H_maintain"])
        expect(table?.columns).toContain(column);
    const col = (name: string) => scenes?.columns.indexOf(name) ?? -1;
    const t01 = scenes?.rows.find((r) => r[0] === "cosmetics-t01");
    // Hand-checked: 12 goal facts name hidden nodes: 9 placements (nude lipstick, cleanser, face
    // serum, foundation, highlighter and concealer in the closed middle drawer or makeup box;
    // sunscreen, eye cream and coral lipstick behind the tissue box and hand mirror), both
    // ASSEMBLED facts (their lipsticks are hidden) and CLOSED(makeup box), which sits in the
    // middle drawer. None says where one is; the top and bottom drawers are decoys.
    expect(t01?.[col("goal_hidden")]).toBe(12);
    expect(t01?.[col("goal_revealing")]).toBe(0);
    expect(t01?.[col("decoys")]).toBe(2);
    expect(families?.rows).toHaveLength(9);
    expect(stats.summary).toMatchObject({ mean_goal_revealing: 0 });
    expect(stats.summary.mean_decoys).toBeGreaterThan(1);
  });
});
