import { describe, expect, it } from "vitest";
import { type EpisodeRecord, emptyUsage } from "../../core/index.ts";
import { aggregatePlayground, suiteBalancedPass } from "./aggregate.ts";

function rec(
  index: string,
  condition: number,
  epoch: number,
  status: EpisodeRecord["status"],
): EpisodeRecord {
  const suite = index.split("-")[0]!;
  return {
    episodeId: `${index}/c${condition}@${epoch}`,
    taskId: `${index}/c${condition}`,
    suite: "playground",
    family: suite,
    tags: { suite, index, type: "Aim", split: "Easy", ep20: "no", condition, level: "L3" },
    epoch,
    agent: "a",
    status,
    endedBy: "finished",
    steps: 1,
    invalidActions: 0,
    formatErrors: 0,
    wallMs: 1000,
    usage: emptyUsage(),
    metrics: {},
  };
}

describe("EP scores (§5.5, §6.1)", () => {
  it("suite-balanced Pass@1/Pass@2, hand-checked", () => {
    // Launch: task A 4/4 at the first attempt; task B 1/4 (and a second-attempt success on c2).
    // Tower: one task, 2/4 first attempts; c3 succeeds on its second valid attempt after an invalid one.
    const records = [
      ...[1, 2, 3, 4].map((c) => rec("Launch-01", c, 0, "success")),
      rec("Launch-02", 1, 0, "success"),
      ...[2, 3, 4].map((c) => rec("Launch-02", c, 0, "failure")),
      rec("Launch-02", 2, 1, "success"),
      rec("Launch-02", 3, 1, "failure"),
      rec("Launch-02", 4, 1, "failure"),
      rec("Tower-01", 1, 0, "success"),
      rec("Tower-01", 2, 0, "success"),
      rec("Tower-01", 3, 0, "failure"),
      rec("Tower-01", 3, 1, "invalid"),
      rec("Tower-01", 3, 2, "success"),
      rec("Tower-01", 4, 0, "failure"),
      rec("Tower-01", 4, 1, "failure"),
    ];
    // Pass@1: Launch (1 + 0.25)/2 = 0.625, Tower 0.5 -> 0.5625.
    expect(suiteBalancedPass(records, 1)).toBeCloseTo(0.5625, 12);
    // Pass@2: Launch (1 + 0.5)/2 = 0.75, Tower 0.75 -> 0.75.
    expect(suiteBalancedPass(records, 2)).toBeCloseTo(0.75, 12);
    const model = aggregatePlayground(records);
    expect(model.headlines.map((h) => h.value).slice(0, 2)).toEqual([0.5625, 0.75]);
    // The per-suite Pass@k figure is drawn from the Table 6 rows: Launch 0.625 / 0.75, Tower 0.5 / 0.75.
    const figure = model.figures?.find((f) => f.id === "pass-at-k-by-suite");
    const bars = (subset: string) =>
      figure?.data.filter((d) => d.subset === subset).map((d) => [d.suite, d.k, d.rate]);
    expect(bars("EP-100")).toEqual([
      ["Launch", "Pass@1", 0.625],
      ["Launch", "Pass@2", 0.75],
      ["Tower", "Pass@1", 0.5],
      ["Tower", "Pass@2", 0.75],
    ]);
    // No record is in EP-20 (ep20 "no"): its bars are empty, not zero.
    expect(bars("EP-20")?.every(([, , rate]) => rate === null)).toBe(true);
  });

  it("an attempt voided by a rejected action (ERR) is no opportunity, like a runner fault", () => {
    const voided = { ...rec("Tower-01", 1, 0, "failure"), category: "ERR" };
    expect(suiteBalancedPass([voided], 1)).toBeNull();
    expect(suiteBalancedPass([voided, rec("Tower-01", 1, 1, "success")], 1)).toBe(1);
  });

  it("Pass@2 is unscored while a failed condition has only one valid attempt", () => {
    expect(suiteBalancedPass([rec("Tower-01", 1, 0, "failure")], 2)).toBeNull();
    expect(suiteBalancedPass([rec("Tower-01", 1, 0, "failure")], 1)).toBe(0);
  });

  it("Time@S and Tok@S average successful attempts only; subsets keep their own tasks", () => {
    const timed = (r: EpisodeRecord, wallMs: number, outputTokens: number): EpisodeRecord => ({
      ...r,
      wallMs,
      usage: { ...r.usage, inputTokens: 100, outputTokens },
    });
    const hard = (r: EpisodeRecord): EpisodeRecord => ({
      ...r,
      tags: { ...r.tags, split: "Hard" },
    });
    const records = [
      timed(rec("Launch-01", 1, 0, "success"), 1000, 20),
      timed(hard(rec("Tower-01", 1, 0, "success")), 3000, 60),
      timed(hard(rec("Tower-02", 1, 0, "failure")), 9000, 900),
    ];
    const model = aggregatePlayground(records);
    const headline = (name: string) => model.headlines.find((h) => h.name === name)?.value;
    expect(headline("Time@S")).toBe(2000); // (1000 + 3000) / 2
    expect(headline("Tok@S")).toBe(140); // (120 + 160) / 2, input and output tokens
    const subsets = model.tables.find((t) => t.title === "EP subsets (Table 5)")!.rows;
    // subset, tasks, conditions, Pass@1, Pass@2 (unscored: no second attempt after the failure)
    expect(subsets).toEqual([
      ["EP-100", 3, 3, 0.75, null], // Launch 1, Tower (1 + 0) / 2
      ["EP-Easy", 1, 1, 1, 1],
      ["EP-Hard", 2, 2, 0.5, null],
      ["EP-20", 0, 0, null, null],
    ]);
  });
});
