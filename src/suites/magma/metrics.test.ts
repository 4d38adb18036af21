/**
 * Hand-worked goldens for every metric of MAGMA-Bench's report: SR (Eq. 7) with Wilson
 * intervals, GC (Eq. 8, interruption split), CR and the paired panels (Eq. 9, Figure 3),
 * SR/GC by bucket and track (Figure 2), terminal labels (Figure 4), Table 4a's Δ_bal, Table
 * 4b's audit rates, and mission-update retention by lag.
 */
import { describe, expect, it } from "vitest";
import { type EpisodeRecord, emptyUsage, type ReportTable } from "../../core/index.ts";
import { aggregateRecords } from "./aggregate.ts";
import { auditRates, balancedMultiSingle, goalCompletion, pairedPanel } from "./metrics.ts";

let seq = 0;
/** A scored record with the tags and metrics the aggregates read. */
function rec(o: {
  ok: boolean;
  spec?: string;
  condition?: string;
  bucket?: string;
  track?: string;
  multi?: "single" | "multi";
  realization?: number;
  gc?: number;
  label?: string;
  metrics?: Record<string, number | null>;
}): EpisodeRecord {
  seq++;
  const r: EpisodeRecord = {
    episodeId: `e${seq}`,
    taskId: `t${seq}`,
    suite: "magma",
    family: "fam",
    tags: {
      spec: o.spec ?? `s${seq}`,
      condition: o.condition ?? "CE",
      bucket: o.bucket ?? "short",
      track: o.track ?? "ID",
      multi: o.multi ?? "single",
      realization: o.realization ?? 0,
    },
    epoch: 0,
    agent: "test",
    status: o.ok ? "success" : "failure",
    endedBy: "terminated",
    steps: 1,
    invalidActions: 0,
    formatErrors: 0,
    wallMs: 0,
    usage: emptyUsage(),
    metrics: { gc: o.gc ?? (o.ok ? 1 : 0), ...(o.metrics ?? {}) },
  };
  if (o.label) r.category = o.label;
  return r;
}

const table = (tables: readonly ReportTable[], prefix: string) => {
  const t = tables.find((x) => x.title.startsWith(prefix));
  if (!t) throw new Error(`no table ${prefix}`);
  return t;
};

describe("GC (Eq. 8)", () => {
  it("counts completed subgoals over required ones; 1 on success", () => {
    // ack, X1, Y, X2 (an interruption split): X1 and Y done, X2 not -> 3 of 4 subgoals.
    expect(goalCompletion(3, 4, false)).toBe(0.75);
    expect(goalCompletion(0, 5, false)).toBe(0);
    expect(goalCompletion(2, 4, true)).toBe(1);
    expect(goalCompletion(0, 0, false)).toBe(0);
  });
});

describe("CR and the paired panels (Eq. 9, Figure 3)", () => {
  it("pairs CE with the variant of the same spec and realization", () => {
    const rs = [
      // spec a: retained; b: lost; c: gained; d: unsolved; e: no clean counterpart.
      rec({ ok: true, spec: "a", condition: "CE" }),
      rec({ ok: true, spec: "a", condition: "SE" }),
      rec({ ok: true, spec: "b", condition: "CE" }),
      rec({ ok: false, spec: "b", condition: "SE" }),
      rec({ ok: false, spec: "c", condition: "CE" }),
      rec({ ok: true, spec: "c", condition: "SE" }),
      rec({ ok: false, spec: "d", condition: "CE" }),
      rec({ ok: false, spec: "d", condition: "SE" }),
      rec({ ok: true, spec: "e", condition: "SE" }),
      // a different realization of spec a is a different pair: lost.
      rec({ ok: true, spec: "a", condition: "CE", realization: 1 }),
      rec({ ok: false, spec: "a", condition: "SE", realization: 1 }),
    ];
    const p = pairedPanel(rs, "SE");
    expect(p).toMatchObject({ pairs: 5, retained: 1, lost: 2, gained: 1, unsolved: 1 });
    // SR of the variant over pairs: (retained + gained) / pairs = 2/5; CR = 1 / (1 + 2).
    expect(p.sr).toBeCloseTo(0.4, 12);
    expect(p.cr).toBeCloseTo(1 / 3, 12);
    const fig3 = aggregateRecords(rs).figures?.find((f) => f.id === "fig3-paired-outcomes");
    expect(fig3?.data.map((d) => [d.perturbation, d.outcome, d.share])).toEqual([
      ["SE", "retained", 1 / 5],
      ["SE", "lost", 2 / 5],
      ["SE", "gained", 1 / 5],
      ["SE", "unsolved", 1 / 5],
    ]);
    expect(pairedPanel(rs, "IN").pairs).toBe(0);
    expect(Number.isNaN(pairedPanel(rs, "IN").cr)).toBe(true);
  });
});

describe("Table 4a: single vs multi-robot SR, horizon-balanced", () => {
  it("weights buckets equally and ignores variants", () => {
    const rs = [
      // short: single 1/2, multi 1/1 -> +0.5
      rec({ ok: true, bucket: "short", multi: "single" }),
      rec({ ok: false, bucket: "short", multi: "single" }),
      rec({ ok: true, bucket: "short", multi: "multi" }),
      // long: single 2/2, multi 0/2 -> -1
      rec({ ok: true, bucket: "long", multi: "single" }),
      rec({ ok: true, bucket: "long", multi: "single" }),
      rec({ ok: false, bucket: "long", multi: "multi" }),
      rec({ ok: false, bucket: "long", multi: "multi" }),
      // extreme: single only, left out of Δ_bal
      rec({ ok: false, bucket: "extreme", multi: "single" }),
      // a variant never counts
      rec({ ok: true, bucket: "long", multi: "multi", condition: "SE" }),
    ];
    const x = balancedMultiSingle(rs);
    expect(x.single).toBeCloseTo(3 / 5, 12);
    expect(x.multi).toBeCloseTo(1 / 3, 12);
    expect(x.delta).toBeCloseTo((0.5 - 1) / 2, 12);
    expect(x.buckets).toBe(2);
  });
});

describe("Table 4b: the trace audit", () => {
  it("pools counts over multi-robot episodes only", () => {
    const audit = (
      calls: number,
      assign: number,
      dec: number,
      err: number,
      ob: number,
      ok: number,
    ) => ({
      auditCalls: calls,
      auditAssignmentErrors: assign,
      auditInterruptionDecisions: dec,
      auditInterruptionErrors: err,
      auditResumeObligations: ob,
      auditResumeSuccesses: ok,
    });
    const rs = [
      rec({ ok: true, multi: "multi", metrics: audit(40, 1, 2, 1, 1, 1) }),
      rec({ ok: false, multi: "multi", condition: "IN", metrics: audit(60, 3, 2, 2, 3, 0) }),
      rec({ ok: false, multi: "single", metrics: audit(500, 100, 9, 9, 9, 0) }),
    ];
    const a = auditRates(rs);
    expect(a.calls).toBe(100);
    expect(a.assignmentErrorRate).toBeCloseTo(4 / 100, 12);
    expect(a.interruptionDecisions).toBe(4);
    expect(a.interruptionErrorRate).toBeCloseTo(3 / 4, 12);
    expect(a.resumeObligations).toBe(4);
    expect(a.resumeSuccessRate).toBeCloseTo(1 / 4, 12);
  });
});

describe("the report model", () => {
  const rs = [
    rec({ ok: true, bucket: "short", track: "ID" }),
    rec({ ok: true, bucket: "short", track: "ID" }),
    rec({ ok: true, bucket: "short", track: "HO" }),
    rec({ ok: false, bucket: "short", track: "HO", gc: 0.5, label: "text-for-action" }),
    rec({ ok: false, bucket: "long", gc: 0.25, label: "no-progress" }),
    rec({ ok: false, bucket: "long", gc: 0, label: "text-for-action" }),
    rec({
      ok: true,
      condition: "MU",
      bucket: "long",
      metrics: { muLag: 2, muReached: 1, muRetained: 1 },
    }),
    rec({
      ok: false,
      condition: "MU",
      bucket: "long",
      gc: 0.5,
      label: "constraint-violation",
      metrics: { muLag: 2, muReached: 1, muRetained: 0 },
    }),
    rec({ ok: false, bucket: "extreme", label: "FORMAT" }),
    rec({
      ok: false,
      condition: "CO",
      bucket: "long",
      gc: 0.5,
      label: "answer-rejected",
      metrics: { muLag: 1, muReached: 0, muRetained: null },
    }),
  ];
  const model = aggregateRecords(rs);

  it("SR with its Wilson interval (Eq. 7)", () => {
    // 3 of 4 short episodes: Wilson 95% = (0.3006, 0.9544) by hand (z = 1.96):
    // centre (0.75 + 0.4802) / 1.9604 = 0.6275, half 1.96 * sqrt(0.046875 + 0.060025) / 1.9604 = 0.3269.
    const short = table(model.tables, "Figure 2").rows.find((r) => r[0] === "short") ?? [];
    expect(short[1]).toBe(4);
    expect(short[2]).toBeCloseTo(0.75, 12);
    expect(short[3] as number).toBeCloseTo(0.3006, 3);
    expect(short[4] as number).toBeCloseTo(0.9544, 3);
    // GC of the short bucket: (1 + 1 + 1 + 0.5) / 4.
    expect(short[5]).toBeCloseTo(0.875, 12);
  });

  it("GC with its 95% percentile bootstrap interval, against the exact bootstrap distribution", () => {
    const long = table(model.tables, "Figure 2").rows.find((r) => r[0] === "long") ?? [];
    // long: gc 0.25, 0, 1, 0.5, 0.5 -> 2.25 / 5
    expect(long[5]).toBeCloseTo(0.45, 12);
    // By hand, enumerating the 5^5 equally likely resamples: the resampled mean's CDF is 0.9677 at
    // 0.70 and 0.9805 at 0.75, so the 97.5 % point is 0.75 (10,000 resamples put it 4 standard
    // errors from either side); the CDF is 0.0243 at 0.15 and 0.0595 at 0.20, so the 2.5 % point
    // lies on the 0.15 / 0.20 boundary and depends on the draws.
    expect(long[7]).toBeCloseTo(0.75, 12);
    expect(long[6] as number).toBeGreaterThanOrEqual(0.15 - 1e-12);
    expect(long[6] as number).toBeLessThanOrEqual(0.2 + 1e-12);
    // Overall headline: 4 of 10 solved.
    expect(model.headlines[0]?.value).toBeCloseTo(4 / 10, 12);
  });

  it("SR by track (ID / CG / HO)", () => {
    const t = table(model.tables, "SR and GC by generalization track");
    const ho = t.rows.find((r) => r[0] === "HO") ?? [];
    expect(ho[1]).toBe(2);
    expect(ho[2]).toBeCloseTo(0.5, 12);
    expect(t.rows.find((r) => r[0] === "CG")).toBeUndefined();
  });

  it("terminal labels among failures (Figure 4)", () => {
    const t = table(model.tables, "Figure 4");
    const row = (name: string) => t.rows.find((r) => r[0] === name) ?? [];
    // Six failures; the session's FORMAT ending (three unusable replies) is an invalid format.
    expect(row("Text-for-action mismatch").slice(1)).toEqual([2, 2 / 6]);
    expect(row("No-progress/Timeout").slice(1)).toEqual([1, 1 / 6]);
    expect(row("Constraint violation").slice(1)).toEqual([1, 1 / 6]);
    expect(row("Answer rejected").slice(1)).toEqual([1, 1 / 6]);
    expect(row("Invalid format").slice(1)).toEqual([1, 1 / 6]);
    expect(row("Action-for-text mismatch").slice(1)).toEqual([0, 0]);
  });

  it("mission-update retention by lag counts reached updates only", () => {
    const t = table(model.tables, "Mission-update retention");
    expect(t.rows).toEqual([[2, 2, 1, 0.5]]);
  });

  it("draws Figures 2-4 from the tables that hold their numbers", () => {
    const figures = model.figures ?? [];
    expect(figures.map((f) => f.id)).toEqual([
      "fig2-sr-gc-by-horizon",
      "fig3-paired-outcomes",
      "fig4-terminal-outcomes",
    ]);
    const fig2 = figures[0]?.data ?? [];
    const srShort = fig2.find((d) => d.metric === "SR" && d.bucket === "short");
    expect(srShort?.value).toBeCloseTo(0.75, 12);
    expect(srShort?.low as number).toBeCloseTo(0.3006, 3);
    expect(fig2.find((d) => d.metric === "GC" && d.bucket === "long")?.value).toBeCloseTo(0.45, 12);
    const fig4 = figures[2]?.data ?? [];
    expect(fig4.find((d) => d.label === "Text-for-action mismatch")?.share).toBeCloseTo(2 / 6, 12);
  });
});
