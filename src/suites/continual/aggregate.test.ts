import { describe, expect, it } from "vitest";
import { type EpisodeRecord, emptyUsage, type ReportTable } from "../../core/index.ts";
import { figureSvg } from "../../report/index.ts";
import {
  aggregateRecords,
  gainOverZeroShot,
  selectionRates,
  successRate,
  successWithin,
} from "./aggregate.ts";

let n = 0;
/** A scored record; `ok` with `step` (the step of success) and decisions by role. */
function rec(
  tags: Record<string, string | number>,
  ok: boolean,
  roles: [number, number, number] = [6, 0, 0],
  step: number | null = ok ? 6 : null,
): EpisodeRecord {
  n++;
  const full: Record<string, string | number> = {
    phase: "test",
    k: tags.setting === "zero-shot" ? 0 : 2,
    extra: 3,
    goals: tags.level === "basic" ? 2 : 4,
    ...tags,
  };
  return {
    episodeId: `e${n}@0`,
    taskId: `${full.setting}/${full.target ?? `t${n}`}`,
    suite: "continual",
    family: "f",
    tags: full,
    epoch: 0,
    agent: "a",
    status: ok ? "success" : "failure",
    endedBy: ok ? "terminated" : "maxSteps",
    steps: roles[0] + roles[1] + roles[2],
    invalidActions: roles[2],
    formatErrors: 0,
    wallMs: 1,
    usage: emptyUsage(),
    metrics: {
      sr: ok ? 1 : 0,
      optimal: roles[0],
      suboptimal: roles[1],
      invalid: roles[2],
      success_step: step,
      path_length: full.level === "basic" ? 6 : 12,
      grader_overall: ok ? 1 : 0.2,
    },
  };
}

const adv = (
  setting: string,
  target: string,
  ok: boolean,
  roles?: [number, number, number],
  extra: Record<string, number> = {},
  step?: number | null,
) =>
  rec(
    { setting, level: "advanced", target, ...extra },
    ok,
    roles,
    step === undefined ? (ok ? 12 : null) : step,
  );

/** Zero shot solves T1 only; ICL T1-T3; skill T2-T3 (paired by target task). */
const records: EpisodeRecord[] = [
  rec({ setting: "zero-shot", level: "basic", category: "appliance" }, true),
  rec({ setting: "zero-shot", level: "basic", category: "appliance" }, true),
  rec({ setting: "zero-shot", level: "basic", category: "power" }, true),
  rec({ setting: "zero-shot", level: "basic", category: "power" }, false),
  adv("zero-shot", "T1", true, [12, 0, 0]),
  adv("zero-shot", "T2", false, [5, 2, 8]),
  adv("zero-shot", "T3", false, [5, 2, 8]),
  adv("zero-shot", "T4", false, [4, 3, 8]),
  adv("icl", "T1", true, [12, 0, 0]),
  adv("icl", "T2", true, [12, 2, 0], {}, 14),
  adv("icl", "T3", true, [12, 3, 0], {}, 15),
  adv("icl", "T4", false, [8, 4, 3]),
  adv("skill", "T1", false, [6, 4, 5]),
  adv("skill", "T2", true, [12, 0, 1], {}, 13),
  adv("skill", "T3", true, [12, 1, 0], {}, 13),
  adv("skill", "T4", false, [6, 5, 4]),
  rec({ setting: "icl", level: "basic", phase: "learn", target: "T1" }, true),
  rec({ setting: "icl", level: "basic", phase: "learn", target: "T1" }, false),
];

const table = (title: string) =>
  aggregateRecords(records).tables.find((t) => t.title.startsWith(title)) as ReportTable;

describe("continual aggregates (hand-worked)", () => {
  it("Table 1: SR per level, setting and phase, with Wilson intervals", () => {
    const t = table("Table 1");
    const sr = (level: string, setting: string, phase: string) =>
      t.rows.find((r) => r[0] === level && r[1] === setting && r[2] === phase)?.[4];
    expect(sr("Basic", "Zero-shot", "test")).toBe(75);
    expect(sr("Basic", "In-context learning", "learn")).toBe(50);
    expect(sr("Advanced", "Zero-shot", "test")).toBe(25);
    expect(sr("Advanced", "In-context learning", "test")).toBe(75);
    expect(sr("Advanced", "Skill learning", "test")).toBe(50);
    // 3 of 4: Wilson 95% interval [30.1, 95.4].
    const row = t.rows.find((r) => r[0] === "Basic" && r[2] === "test");
    expect(row?.slice(5)).toEqual([30.1, 95.4]);
  });

  it("gain over zero shot is paired by task", () => {
    // ICL - ZS per task: 0, 1, 1, 0 -> 0.5; skill - ZS: -1, 1, 1, 0 -> 0.25.
    expect(gainOverZeroShot(records, "icl")).toBe(0.5);
    expect(gainOverZeroShot(records, "skill")).toBe(0.25);
    expect(table("Gain over zero shot").rows).toEqual([
      ["In-context learning", 50],
      ["Skill learning", 25],
    ]);
  });

  it("Figure 6: selection rates by role and their change against zero shot", () => {
    const zs = records.filter((r) => r.tags.setting === "zero-shot" && r.tags.level === "advanced");
    // Zero shot: 26 optimal, 7 suboptimal, 24 invalid of 57.
    expect(selectionRates(zs)).toEqual([26 / 57, 7 / 57, 24 / 57]);
    const t = table("Figure 6");
    const icl = t.rows.find((r) => r[0] === "In-context learning") as number[];
    // ICL: 44 optimal, 9 suboptimal, 3 invalid of 56.
    expect(icl.slice(1, 4)).toEqual([78.6, 16.1, 5.4]);
    expect(icl[4]).toBeCloseTo(100 * (44 / 56 - 26 / 57), 0);
    expect(icl[6]).toBe(Number((100 * (3 / 56 - 24 / 57)).toFixed(1)));
  });

  it("Figure 7: SR within shortest path + e steps, from the step of success", () => {
    const icl = records.filter((r) => r.tags.setting === "icl" && r.tags.level === "advanced");
    // Successes at 12, 14, 15 (L = 12): e=0 -> 1/4, e=2 -> 2/4, e=3 -> 3/4.
    expect([0, 1, 2, 3].map((e) => successWithin(icl, e))).toEqual([0.25, 0.25, 0.5, 0.75]);
    const t = table("Figure 7");
    expect(t.rows.map((r) => r[2])).toEqual([25, 25, 50, 75]);
    expect(t.rows.map((r) => r[1])).toEqual([25, 25, 25, 25]);
  });

  it("Figures 4 and 5 appear when a run holds several complexities or k values", () => {
    const study = [
      ...records,
      adv("zero-shot", "T1", false, [3, 0, 9], { goals: 6 }),
      adv("icl", "T1", true, [18, 0, 0], { goals: 6 }, 18),
      adv("icl", "T1", true, [12, 0, 0], { k: 4 }),
      adv("skill", "T1", false, [3, 3, 3], { k: 4 }),
    ];
    const model = aggregateRecords(study);
    const fig4 = model.tables.find((t) => t.title.startsWith("Figure 4")) as ReportTable;
    expect(fig4.rows).toEqual([
      [4, 25, 75, 50, 50, 25],
      [6, 0, 100, null, 100, null],
    ]);
    const fig5 = model.tables.find((t) => t.title.startsWith("Figure 5")) as ReportTable;
    expect(fig5.rows).toEqual([
      [0, 25, 25],
      [2, 75, 50],
      [4, 100, 0],
    ]);
  });

  it("headlines, the grader table and categories; invalid episodes are left out", () => {
    const broken = {
      ...rec({ setting: "zero-shot", level: "basic" }, false),
      status: "invalid" as const,
    };
    const model = aggregateRecords([...records, broken]);
    expect(model.episodes).toBe(records.length + 1);
    expect(model.headlines.map((h) => [h.name, h.value])).toEqual([
      ["Basic SR, zero shot", 0.75],
      ["Advanced SR, Zero-shot", 0.25],
      ["Advanced SR, In-context learning", 0.75],
      ["Advanced SR, Skill learning", 0.5],
    ]);
    expect(model.notes?.some((note) => note.includes("1 episodes ended invalid"))).toBe(true);
    const cats = model.tables.find((t) => t.title.startsWith("Basic tasks by")) as ReportTable;
    expect(cats.rows.map((r) => [r[0], r[2]])).toEqual([
      ["appliance", 100],
      ["power", 50],
    ]);
    const grader = model.tables.find((t) =>
      t.title.startsWith("The authors' grader"),
    ) as ReportTable;
    expect(grader.rows.find((r) => r[0] === "advanced" && r[1] === "Skill learning")?.[4]).toBe(
      0.6,
    );
    expect(successRate([])).toBeNull();
  });
});

describe("continual figures (hand-worked, from the same records)", () => {
  const figure = (model: ReturnType<typeof aggregateRecords>, id: string) =>
    model.figures?.find((f) => f.id === id);

  it("Table 1 as bars: testing-phase SR per level and setting with Wilson whiskers", () => {
    const f = figure(aggregateRecords(records), "table1-success-rate");
    // 3/4 -> [30.1, 95.4]; 1/4 -> [4.6, 69.9]; 2/4 -> [15.0, 85.0]. Learning rows are left out.
    expect(f?.data).toEqual([
      { task: "Basic", setting: "Zero-shot", SR: 75, low: 30.1, high: 95.4 },
      { task: "Advanced", setting: "Zero-shot", SR: 25, low: 4.6, high: 69.9 },
      { task: "Advanced", setting: "ICL", SR: 75, low: 30.1, high: 95.4 },
      { task: "Advanced", setting: "Skill", SR: 50, low: 15, high: 85 },
    ]);
    expect(f?.interval).toEqual({ low: "low", high: "high" });
  });

  it("Figure 6: change of each selection rate against zero shot, per setting", () => {
    // Zero shot 26/7/24 of 57; ICL 44/9/3 of 56; skill 36/10/10 of 56.
    expect(figure(aggregateRecords(records), "fig6-selection-change")?.data).toEqual([
      { action: "optimal", setting: "ICL", change: 33 },
      { action: "suboptimal", setting: "ICL", change: 3.8 },
      { action: "invalid", setting: "ICL", change: -36.7 },
      { action: "optimal", setting: "Skill", change: 18.7 },
      { action: "suboptimal", setting: "Skill", change: 5.6 },
      { action: "invalid", setting: "Skill", change: -24.2 },
    ]);
  });

  it("Figure 7: one line per setting over the extra steps", () => {
    const f = figure(aggregateRecords(records), "fig7-step-budget");
    const series = (setting: string) =>
      f?.data.filter((r) => r.setting === setting).map((r) => [r["Extra steps"], r.SR]);
    // Skill succeeded at step 13 twice (L = 12): nothing within 0 extra steps, 2 of 4 from 1 on.
    expect(series("Skill")).toEqual([
      [0, 0],
      [1, 50],
      [2, 50],
      [3, 50],
    ]);
    expect(series("ICL")).toEqual([
      [0, 25],
      [1, 25],
      [2, 50],
      [3, 75],
    ]);
  });

  it("Figures 4a, 4b and 5 exist only for runs holding the study", async () => {
    expect(aggregateRecords(records).figures?.map((f) => f.id)).toEqual([
      "table1-success-rate",
      "fig6-selection-change",
      "fig7-step-budget",
    ]);
    const model = aggregateRecords([
      ...records,
      adv("zero-shot", "T1", false, [3, 0, 9], { goals: 6 }),
      adv("icl", "T1", true, [18, 0, 0], { goals: 6 }, 18),
      adv("icl", "T1", true, [12, 0, 0], { k: 4 }),
      adv("skill", "T1", false, [3, 3, 3], { k: 4 }),
    ]);
    expect(figure(model, "fig4a-sr-by-complexity")?.data).toEqual([
      { "Atomic goals": 4, setting: "Zero-shot", SR: 25 },
      { "Atomic goals": 4, setting: "ICL", SR: 75 },
      { "Atomic goals": 4, setting: "Skill", SR: 50 },
      { "Atomic goals": 6, setting: "Zero-shot", SR: 0 },
      { "Atomic goals": 6, setting: "ICL", SR: 100 },
      { "Atomic goals": 6, setting: "Skill", SR: null },
    ]);
    expect(figure(model, "fig4b-gain-by-complexity")?.data).toEqual([
      { "Atomic goals": 4, setting: "ICL", gain: 50 },
      { "Atomic goals": 4, setting: "Skill", gain: 25 },
      { "Atomic goals": 6, setting: "ICL", gain: 100 },
      { "Atomic goals": 6, setting: "Skill", gain: null },
    ]);
    expect(figure(model, "fig5-sr-by-learning-samples")?.data).toEqual([
      { k: 0, setting: "ICL", SR: 25 },
      { k: 0, setting: "Skill", SR: 25 },
      { k: 2, setting: "ICL", SR: 75 },
      { k: 2, setting: "Skill", SR: 50 },
      { k: 4, setting: "ICL", SR: 100 },
      { k: 4, setting: "Skill", SR: 0 },
    ]);
    // Every figure is a valid chart: vega draws it (negative bars and whiskers included).
    for (const f of model.figures ?? []) expect(await figureSvg(f)).toContain("<svg");
  });
});
