/**
 * The paper's views over scored records: Table 1 (SR per phase and setting), the gain over
 * zero shot, Figure 4 (SR and gain by compositional complexity), Figure 5 (SR by the number of
 * learning samples k), Figure 6 (selection rates of optimal / suboptimal / invalid options and
 * their change against zero shot), Figure 7 (SR by extra steps, read from the step at which
 * each episode reached its goal, as the authors' summary does), SR per basic category, and the
 * authors' grader score beside SR. Each figure is also a table of its data points, from which
 * figures.ts draws it.
 */
import type { Cell, EpisodeRecord, ReportModel, ReportTable } from "../../core/index.ts";
import { wilson } from "../../metrics/index.ts";
import { continualFigures } from "./figures.ts";
import { DEFAULT_K, SETTINGS, type Setting, TEST_EXTRA } from "./payload.ts";
import { CATEGORY_IDS } from "./task.ts";

const SETTING_NAMES: Record<Setting, string> = {
  "zero-shot": "Zero-shot",
  icl: "In-context learning",
  skill: "Skill learning",
};

const pct = (v: number | null) => (v === null ? null : Number((100 * v).toFixed(1)));

/** Records that ran to a verdict (invalid episodes are counted separately, never as failures). */
const scored = (records: readonly EpisodeRecord[]) =>
  records.filter((r) => r.status === "success" || r.status === "failure");

const tag = (r: EpisodeRecord, key: string) => r.tags[key];
const isAdvancedTest = (r: EpisodeRecord) =>
  tag(r, "level") === "advanced" && tag(r, "phase") === "test";

/** The main experiment's records: k = 2 (or zero shot), 3 extra testing steps, 4 goals. */
export function isMain(r: EpisodeRecord): boolean {
  const k = tag(r, "k");
  const goals = tag(r, "goals");
  return (
    (tag(r, "phase") === "learn" || tag(r, "extra") === TEST_EXTRA) &&
    (tag(r, "setting") === "zero-shot" || k === DEFAULT_K) &&
    (tag(r, "level") === "basic" || goals === undefined || goals === 4)
  );
}

/** Success rate of records (null for none). */
export function successRate(records: readonly EpisodeRecord[]): number | null {
  return records.length > 0
    ? records.filter((r) => r.status === "success").length / records.length
    : null;
}

/**
 * Gain of a setting over zero shot in points, paired by task: the mean over advanced tasks run
 * in both of SR(setting) - SR(zero shot), with epochs averaged per task.
 */
export function gainOverZeroShot(
  records: readonly EpisodeRecord[],
  setting: Setting,
): number | null {
  const perTask = (s: Setting) => {
    const out = new Map<string, number[]>();
    for (const r of records) {
      if (tag(r, "setting") !== s || !isAdvancedTest(r)) continue;
      const task = String(tag(r, "target") ?? r.taskId.split("/").pop());
      out.set(task, [...(out.get(task) ?? []), r.status === "success" ? 1 : 0]);
    }
    return out;
  };
  const zs = perTask("zero-shot");
  const st = perTask(setting);
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const diffs = [...st]
    .filter(([t]) => zs.has(t))
    .map(([t, xs]) => avg(xs) - avg(zs.get(t) as number[]));
  return diffs.length > 0 ? diffs.reduce((a, b) => a + b, 0) / diffs.length : null;
}

/** Shares of the selections by hidden role: [optimal, suboptimal, invalid] (null for none). */
export function selectionRates(records: readonly EpisodeRecord[]): [number, number, number] | null {
  let o = 0;
  let s = 0;
  let i = 0;
  for (const r of records) {
    o += r.metrics.optimal ?? 0;
    s += r.metrics.suboptimal ?? 0;
    i += r.metrics.invalid ?? 0;
  }
  const n = o + s + i;
  return n > 0 ? [o / n, s / n, i / n] : null;
}

/** SR with a budget of shortest path + `extra` steps, from the step each episode succeeded at. */
export function successWithin(records: readonly EpisodeRecord[], extra: number): number | null {
  if (records.length === 0) return null;
  const ok = records.filter((r) => {
    const step = r.metrics.success_step;
    const length = r.metrics.path_length;
    return (
      r.status === "success" &&
      typeof step === "number" &&
      typeof length === "number" &&
      step <= length + extra
    );
  }).length;
  return ok / records.length;
}

function srRow(label: Cell[], records: readonly EpisodeRecord[]): Cell[] {
  const ok = records.filter((r) => r.status === "success").length;
  const ci = wilson(ok, records.length);
  return [...label, records.length, pct(successRate(records)), pct(ci.low), pct(ci.high)];
}

const SR_COLUMNS = ["Episodes", "SR (%)", "95% CI", "high"];
const SR_FORMATS = ["int", "number", "number", "high"] as const;

function table1(records: readonly EpisodeRecord[]): ReportTable {
  const main = records.filter(isMain);
  const rows: Cell[][] = [];
  for (const level of ["basic", "advanced"]) {
    for (const setting of SETTINGS) {
      for (const phase of ["learn", "test"]) {
        const rs = main.filter(
          (r) =>
            tag(r, "level") === level && tag(r, "setting") === setting && tag(r, "phase") === phase,
        );
        if (rs.length > 0)
          rows.push(
            srRow([level === "basic" ? "Basic" : "Advanced", SETTING_NAMES[setting], phase], rs),
          );
      }
    }
  }
  return {
    title: "Table 1: success rate by task level, setting and phase",
    caption:
      "Main experiment: k = 2 learning tasks, 3 extra steps when testing, 6 when learning, advanced tasks of 4 atomic goals. Basic learn rows are the learning episodes of the ICL and skill streams.",
    columns: ["Task", "Setting", "Phase", ...SR_COLUMNS],
    formats: ["text", "text", "text", ...SR_FORMATS],
    rows,
  };
}

function gainTable(records: readonly EpisodeRecord[]): ReportTable {
  const main = records.filter(isMain);
  return {
    title: "Gain over zero shot (advanced tasks)",
    caption: "SR(setting) - SR(zero shot) in points, paired by advanced task.",
    columns: ["Setting", "Gain (points)"],
    formats: ["text", "number"],
    rows: (["icl", "skill"] as const).map((s) => [
      SETTING_NAMES[s],
      pct(gainOverZeroShot(main, s)),
    ]),
  };
}

/** Advanced test records of one setting, with tag filters. */
function advanced(
  records: readonly EpisodeRecord[],
  setting: Setting,
  where: (r: EpisodeRecord) => boolean,
) {
  return records.filter((r) => isAdvancedTest(r) && tag(r, "setting") === setting && where(r));
}

function complexityTable(records: readonly EpisodeRecord[]): ReportTable | null {
  const levels = [...new Set(records.filter(isAdvancedTest).map((r) => tag(r, "goals")))]
    .filter((g): g is number => typeof g === "number")
    .sort();
  if (levels.length < 2) return null;
  const rows: Cell[][] = [];
  for (const goals of levels) {
    const at = (r: EpisodeRecord) =>
      tag(r, "goals") === goals &&
      tag(r, "extra") === TEST_EXTRA &&
      (tag(r, "setting") === "zero-shot" || tag(r, "k") === DEFAULT_K);
    const scope = records.filter((r) => at(r));
    rows.push([
      goals,
      ...SETTINGS.map((s) => pct(successRate(advanced(records, s, at)))),
      pct(gainOverZeroShot(scope, "icl")),
      pct(gainOverZeroShot(scope, "skill")),
    ]);
  }
  return {
    title: "Figure 4: compositional complexity",
    caption: "SR (%) by atomic goals per advanced task, and the gain over zero shot (points).",
    columns: ["Atomic goals", "Zero-shot", "ICL", "Skill", "ICL gain", "Skill gain"],
    formats: ["int", "number", "number", "number", "number", "number"],
    rows,
  };
}

function kTable(records: readonly EpisodeRecord[]): ReportTable | null {
  const ks = [...new Set(records.filter(isAdvancedTest).map((r) => tag(r, "k")))]
    .filter((k): k is number => typeof k === "number")
    .sort();
  if (ks.filter((k) => k > 0).length < 2) return null;
  const base = (r: EpisodeRecord) => tag(r, "extra") === TEST_EXTRA && (tag(r, "goals") ?? 4) === 4;
  const rows: Cell[][] = ks.map((k) =>
    k === 0
      ? [
          0,
          pct(successRate(advanced(records, "zero-shot", base))),
          pct(successRate(advanced(records, "zero-shot", base))),
        ]
      : [
          k,
          pct(successRate(advanced(records, "icl", (r) => base(r) && tag(r, "k") === k))),
          pct(successRate(advanced(records, "skill", (r) => base(r) && tag(r, "k") === k))),
        ],
  );
  return {
    title: "Figure 5: success rate by the number of learning samples",
    caption: "k = 0 is zero shot, the common start of both curves.",
    columns: ["k", "ICL SR (%)", "Skill SR (%)"],
    formats: ["int", "number", "number"],
    rows,
  };
}

function selectionTable(records: readonly EpisodeRecord[]): ReportTable {
  const main = records.filter(isMain);
  const zero = selectionRates(advanced(main, "zero-shot", () => true));
  const rows: Cell[][] = [];
  for (const setting of SETTINGS) {
    const rates = selectionRates(advanced(main, setting, () => true));
    if (!rates) continue;
    const delta = (i: number) =>
      zero && setting !== "zero-shot" ? pct((rates[i] as number) - (zero[i] as number)) : null;
    rows.push([
      SETTING_NAMES[setting],
      pct(rates[0]),
      pct(rates[1]),
      pct(rates[2]),
      delta(0),
      delta(1),
      delta(2),
    ]);
  }
  return {
    title: "Figure 6: selection rates by option role (advanced tasks)",
    caption:
      "Share of selections that were optimal (success path), suboptimal (valid detour) or invalid, and their change against zero shot in points.",
    columns: [
      "Setting",
      "Optimal (%)",
      "Suboptimal (%)",
      "Invalid (%)",
      "Δ optimal",
      "Δ suboptimal",
      "Δ invalid",
    ],
    formats: ["text", "number", "number", "number", "number", "number", "number"],
    rows,
  };
}

function extraTable(records: readonly EpisodeRecord[]): ReportTable | null {
  const tests = records.filter(
    (r) =>
      isAdvancedTest(r) &&
      (tag(r, "goals") ?? 4) === 4 &&
      (tag(r, "setting") === "zero-shot" || tag(r, "k") === DEFAULT_K),
  );
  const budgets = tests
    .map((r) => tag(r, "extra"))
    .filter((e): e is number => typeof e === "number");
  if (budgets.length === 0) return null;
  const most = Math.max(...budgets);
  const pool = tests.filter((r) => tag(r, "extra") === most);
  const rows: Cell[][] = [];
  for (let e = 0; e <= most; e++)
    rows.push([
      e,
      ...SETTINGS.map((s) =>
        pct(
          successWithin(
            pool.filter((r) => tag(r, "setting") === s),
            e,
          ),
        ),
      ),
    ]);
  return {
    title: "Figure 7: step budget sensitivity",
    caption: `SR (%) with shortest path + e steps, read from the step each episode reached its goal in the runs with ${most} extra steps (as the authors' summary does).`,
    columns: ["Extra steps", "Zero-shot", "ICL", "Skill"],
    formats: ["int", "number", "number", "number"],
    rows,
  };
}

function categoryTable(records: readonly EpisodeRecord[]): ReportTable {
  const basic = records.filter(
    (r) => tag(r, "level") === "basic" && tag(r, "setting") === "zero-shot" && isMain(r),
  );
  const categories = [...new Set(basic.map((r) => String(tag(r, "category"))))].sort(
    (a, b) => CATEGORY_IDS.indexOf(a as never) - CATEGORY_IDS.indexOf(b as never),
  );
  return {
    title: "Basic tasks by capability category (zero shot)",
    columns: ["Category", ...SR_COLUMNS],
    formats: ["text", ...SR_FORMATS],
    rows: categories.map((c) =>
      srRow(
        [c],
        basic.filter((r) => tag(r, "category") === c),
      ),
    ),
  };
}

function graderTable(records: readonly EpisodeRecord[]): ReportTable {
  const main = records.filter(isMain);
  const mean = (rs: EpisodeRecord[], m: string) => {
    const xs = rs.map((r) => r.metrics[m]).filter((v): v is number => typeof v === "number");
    return xs.length > 0 ? Number((xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(3)) : null;
  };
  const rows: Cell[][] = [];
  for (const level of ["basic", "advanced"])
    for (const setting of SETTINGS) {
      const rs = main.filter(
        (r) =>
          tag(r, "level") === level && tag(r, "setting") === setting && tag(r, "phase") === "test",
      );
      if (rs.length === 0) continue;
      rows.push([
        level,
        SETTING_NAMES[setting],
        rs.length,
        pct(successRate(rs)),
        mean(rs, "grader_overall"),
        mean(rs, "grader_efficiency"),
        mean(rs, "grader_path_quality"),
        mean(rs, "grader_progress"),
      ]);
    }
  return {
    title: "The authors' grader beside SR",
    caption:
      "overall = 0.55 success + 0.25 efficiency + 0.20 path quality - invalid penalty when the goal is reached, else 0.25 node + 0.50 predicate progress + 0.25 path quality - penalty.",
    columns: [
      "Task",
      "Setting",
      "Episodes",
      "SR (%)",
      "Overall",
      "Efficiency",
      "Path quality",
      "Progress",
    ],
    formats: ["text", "text", "int", "number", "number", "number", "number", "number"],
    rows,
  };
}

/** The report model of a set of continual records. */
export function aggregateRecords(all: EpisodeRecord[]): ReportModel {
  const records = scored(all);
  const main = records.filter(isMain);
  const headline = (name: string, rs: EpisodeRecord[]) => {
    const ok = rs.filter((r) => r.status === "success").length;
    const ci = wilson(ok, rs.length);
    return rs.length > 0
      ? { name, value: ci.rate, low: ci.low, high: ci.high, format: "rate" as const }
      : { name, value: null };
  };
  const figureTables = {
    table1: table1(records),
    selection: selectionTable(records),
    complexity: complexityTable(records),
    k: kTable(records),
    extra: extraTable(records),
  };
  const tables = [
    figureTables.table1,
    gainTable(records),
    figureTables.selection,
    figureTables.complexity,
    figureTables.k,
    figureTables.extra,
    categoryTable(records),
    graderTable(records),
  ].filter((t): t is ReportTable => t !== null && t.rows.length > 0);
  const invalid = all.length - records.length;
  return {
    suite: "continual",
    title: "EmbodiedCLBench: continual learning of embodied agents",
    episodes: all.length,
    headlines: [
      headline(
        "Basic SR, zero shot",
        main.filter((r) => tag(r, "level") === "basic" && tag(r, "setting") === "zero-shot"),
      ),
      ...SETTINGS.map((s) =>
        headline(
          `Advanced SR, ${SETTING_NAMES[s]}`,
          advanced(main, s, () => true),
        ),
      ),
    ],
    tables,
    figures: continualFigures(figureTables),
    notes:
      invalid > 0
        ? [`${invalid} episodes ended invalid (errors) and are left out of every rate.`]
        : [],
  };
}
