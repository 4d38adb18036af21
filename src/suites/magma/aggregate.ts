/**
 * MAGMA-Bench's report (§5): SR with Wilson intervals and GC with 10,000-resample bootstrap
 * intervals overall, per horizon bucket (Figure 2, Table 3), per condition and per track;
 * the paired clean/variant panels with CR (Figure 3); terminal outcome labels (Figure 4);
 * single- vs multi-robot SR with the horizon-balanced difference (Table 4a); the trace audit
 * (Table 4b); mission-update retention by lag; per family. Figures 2-4 are drawn from their
 * tables (figures.ts).
 */
import type { Cell, EpisodeRecord, Headline, ReportModel, ReportTable } from "../../core/index.ts";
import { bootstrapMean, wilson } from "../../metrics/index.ts";
import { magmaFigures } from "./figures.ts";
import { auditRates, balancedMultiSingle, pairedPanel, solved } from "./metrics.ts";
import { LABELS, type Label } from "./outcome.ts";
import { BUCKETS, CONDITIONS } from "./types.ts";

const scored = (records: readonly EpisodeRecord[]) =>
  records.filter((r) => r.status === "success" || r.status === "failure");

const num = (v: number): number | null => (Number.isFinite(v) ? v : null);

/** SR with its Wilson interval and GC with its bootstrap interval, as cells. */
function srGc(records: readonly EpisodeRecord[]): Cell[] {
  const n = records.length;
  const sr = wilson(records.filter(solved).length, n);
  const gc = n ? bootstrapMean(records.map((r) => r.metrics.gc ?? 0)) : null;
  return [
    n,
    n ? sr.rate : null,
    n ? sr.low : null,
    n ? sr.high : null,
    gc?.value ?? null,
    gc?.low ?? null,
    gc?.high ?? null,
  ];
}

const SR_GC_COLUMNS = ["n", "SR", "SR 95% CI", "", "GC", "GC 95% CI", ""];
const SR_GC_FORMATS = ["int", "rate", "rate", "high", "rate", "rate", "high"] as const;

function grouped(
  title: string,
  caption: string,
  key: string,
  values: readonly string[],
  records: readonly EpisodeRecord[],
): ReportTable {
  return {
    title,
    caption,
    columns: [key, ...SR_GC_COLUMNS],
    formats: ["text", ...SR_GC_FORMATS],
    rows: values
      .map((v) => [v, ...srGc(records.filter((r) => String(r.tags[key] ?? r.family) === v))])
      .filter((row) => (row[1] as number) > 0),
  };
}

/** The report model over a run's records. */
export function aggregateRecords(all: EpisodeRecord[]): ReportModel {
  const records = scored(all);
  const [n, sr, srLow, srHigh, gc, gcLow, gcHigh] = srGc(records) as (number | null)[];
  const buckets = grouped(
    "Figure 2 / Table 3 — SR and GC by nominal horizon bucket",
    "Aggregated over conditions and realizations; SR with Wilson 95% intervals, GC with percentile bootstrap intervals (10,000 episode-level resamples).",
    "bucket",
    BUCKETS.map((b) => b.id),
    records,
  );
  const paired = figure3(records);
  const labels = figure4(records);
  const tables: ReportTable[] = [
    buckets,
    grouped(
      "SR and GC by condition",
      "CE clean, MU mission update, SE stochastic execution, IN interruption, CO combined.",
      "condition",
      CONDITIONS,
      records,
    ),
    grouped(
      "SR and GC by generalization track",
      "ID in-domain, CG compositional, HO held-out family (Packaging).",
      "track",
      ["ID", "CG", "HO"],
      records,
    ),
    paired,
    labels,
    table4a(records),
    table4b(records),
    retention(records),
    grouped(
      "SR and GC by scenario family",
      "",
      "family",
      [...new Set(records.map((r) => r.family))],
      records,
    ),
  ];
  return {
    suite: "magma",
    title: "MAGMA-Bench",
    episodes: all.length,
    headlines: [
      headline("SR", sr, srLow, srHigh),
      headline("GC", gc, gcLow, gcHigh),
      { name: "scored episodes", value: n ?? 0, format: "int" },
    ],
    tables,
    figures: magmaFigures({ buckets, paired, labels }),
    notes: [
      "SR: Eq. 7. GC: Eq. 8, every stage a subgoal (an interrupted request counts as X1 and X2 around Y). CR: Eq. 9 on clean/variant pairs (same spec and realization).",
      "Invalid (ERR) episodes are left out of every rate.",
    ],
  };
}

function headline(
  name: string,
  value?: number | null,
  low?: number | null,
  high?: number | null,
): Headline {
  const h: Headline = { name, value: value ?? null, format: "rate" };
  if (typeof low === "number") h.low = low;
  if (typeof high === "number") h.high = high;
  return h;
}

function figure3(records: readonly EpisodeRecord[]): ReportTable {
  const rows: Cell[][] = (["MU", "SE", "IN", "CO"] as const).map((p) => {
    const x = pairedPanel(records, p);
    return [p, x.pairs, x.retained, x.lost, x.gained, x.unsolved, num(x.sr), num(x.cr)];
  });
  return {
    title: "Figure 3 — paired clean and perturbed outcomes",
    caption:
      "Per perturbation, the pairs with both a clean and a variant episode: solved in both (retained), clean only (lost), variant only (gained), neither (unsolved). SR of the variant; CR = retained / (retained + lost).",
    columns: ["perturbation", "pairs", "retained", "lost", "gained", "unsolved", "SR", "CR"],
    formats: ["text", "int", "int", "int", "int", "int", "rate", "rate"],
    rows: rows.filter((r) => (r[1] as number) > 0),
  };
}

/**
 * A failed record's Figure 4 label: the environment's, or the session's ending when the session
 * decided it (three unusable replies in a row are the paper's invalid format; a spent step or
 * time budget its timeout).
 */
function labelOf(r: EpisodeRecord): string | undefined {
  if (r.category === "FORMAT") return "invalid-format";
  if (r.category === "TIME") return "no-progress";
  return r.category;
}

function figure4(records: readonly EpisodeRecord[]): ReportTable {
  const failed = records.filter((r) => !solved(r));
  const rows: Cell[][] = (Object.keys(LABELS) as Label[]).map((label) => {
    const k = failed.filter((r) => labelOf(r) === label).length;
    return [LABELS[label], k, failed.length ? k / failed.length : null];
  });
  return {
    title: "Figure 4 — terminal outcome labels among failed episodes",
    caption: `Assigned deterministically by the environment; ${failed.length} failures.`,
    columns: ["label", "episodes", "share of failures"],
    formats: ["text", "int", "rate"],
    rows,
  };
}

function table4a(records: readonly EpisodeRecord[]): ReportTable {
  const x = balancedMultiSingle(records);
  return {
    title: "Table 4a — clean single- versus multi-robot SR",
    caption: `Δ_bal weights the ${x.buckets} horizon buckets holding both equally (multi minus single, percentage points).`,
    columns: ["single SR", "multi SR", "Δ_bal (pp)"],
    formats: ["rate", "rate", "number"],
    rows: [
      [
        num(x.single),
        num(x.multi),
        Number.isFinite(x.delta) ? Number((100 * x.delta).toFixed(1)) : null,
      ],
    ],
  };
}

function table4b(records: readonly EpisodeRecord[]): ReportTable {
  const a = auditRates(records);
  return {
    title: "Table 4b — trace audit of multi-robot episodes",
    caption:
      "Assignment-state errors per evaluable call (busy robot, missing skill, unknown robot); reassign/cancel errors per evaluable interruption decision (the first decision after an interruption works on the suspended request, or on the deferred one too early); resume successes per resume obligation.",
    columns: [
      "evaluable calls",
      "assign.-state err.",
      "interruption decisions",
      "int.-reassign err.",
      "resume obligations",
      "resume success",
    ],
    formats: ["int", "rate", "int", "rate", "int", "rate"],
    rows: [
      [
        a.calls,
        num(a.assignmentErrorRate),
        a.interruptionDecisions,
        num(a.interruptionErrorRate),
        a.resumeObligations,
        num(a.resumeSuccessRate),
      ],
    ],
  };
}

function retention(records: readonly EpisodeRecord[]): ReportTable {
  const byLag = new Map<number, { reached: number; retained: number }>();
  for (const r of records) {
    const lag = r.metrics.muLag;
    if (typeof lag !== "number" || r.metrics.muReached !== 1) continue;
    const cell = byLag.get(lag) ?? { reached: 0, retained: 0 };
    cell.reached++;
    cell.retained += r.metrics.muRetained === 1 ? 1 : 0;
    byLag.set(lag, cell);
  }
  return {
    title: "Mission-update retention by lag",
    caption:
      "MU and CO episodes whose update was followed by the stage relying on it (lag in stages): was that stage completed.",
    columns: ["lag (stages)", "reached", "retained", "retention"],
    formats: ["int", "int", "int", "rate"],
    rows: [...byLag.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([lag, c]) => [lag, c.reached, c.retained, c.retained / c.reached]),
  };
}
