/**
 * The paper's aggregate views over scored episode records: Table 1 (per domain), Table 2
 * (per intervention, with delta-SR against the paired baseline), the termination
 * distribution of Figure 4, Table 7 (per family) and SR per condition.
 */
import type { Cell, EpisodeRecord, ReportModel, ReportTable } from "../../core/index.ts";
import { groupBy } from "../../metrics/index.ts";
import { figure4 } from "./figures.ts";
import { f1 } from "./metrics.ts";
import { CONDITIONS, DOMAINS } from "./outcome.ts";

const round = (v: number | null, digits = 1): number | null =>
  v === null ? null : Number(v.toFixed(digits));

/** Mean of a metric over the records that define it (null when none does). */
export function meanMetric(records: readonly EpisodeRecord[], name: string): number | null {
  let sum = 0;
  let n = 0;
  for (const r of records) {
    const v = r.metrics[name];
    if (typeof v === "number") {
      sum += v;
      n++;
    }
  }
  return n > 0 ? sum / n : null;
}

function sumMetric(records: readonly EpisodeRecord[], name: string): number {
  return records.reduce((acc, r) => acc + (r.metrics[name] ?? 0), 0);
}

/** F1@RD and Acc@RG pooled over the records' recovery counts. */
export function pooledRecovery(records: readonly EpisodeRecord[]): {
  f1: number | null;
  acc: number | null;
} {
  const tp = sumMetric(records, "rd_tp");
  const fp = sumMetric(records, "rd_fp");
  const fn = sumMetric(records, "rd_fn");
  const total = sumMetric(records, "rg_total");
  return {
    f1: f1({ tp, fp, fn }),
    acc: total > 0 ? (100 * sumMetric(records, "rg_correct")) / total : null,
  };
}

/**
 * Delta-SR of a condition against its paired baseline in percentage points: the mean over
 * (agent, scene, epoch) pairs that have both episodes of SR(condition) - SR(baseline).
 */
export function deltaSr(records: readonly EpisodeRecord[], condition: string): number | null {
  const key = (r: EpisodeRecord) => `${r.agent}|${r.tags.scene}|${r.epoch}`;
  const base = new Map<string, number>();
  for (const r of records)
    if (r.tags.condition === "base" && typeof r.metrics.sr === "number")
      base.set(key(r), r.metrics.sr);
  let sum = 0;
  let n = 0;
  for (const r of records) {
    const b = base.get(key(r));
    if (r.tags.condition !== condition || b === undefined || typeof r.metrics.sr !== "number")
      continue;
    sum += r.metrics.sr - b;
    n++;
  }
  return n > 0 ? sum / n : null;
}

const agentsOf = (records: readonly EpisodeRecord[]) =>
  [...new Set(records.map((r) => r.agent))].sort();
const domainsOf = (records: readonly EpisodeRecord[]) =>
  DOMAINS.filter((d) => records.some((r) => r.tags.domain === d));

function table1(records: readonly EpisodeRecord[]): ReportTable {
  const rows: Cell[][] = [];
  for (const agent of agentsOf(records)) {
    for (const domain of domainsOf(records)) {
      const rs = records.filter((r) => r.agent === agent && r.tags.domain === domain);
      const base = rs.filter((r) => r.tags.condition === "base");
      const rec = pooledRecovery(rs);
      rows.push([
        agent,
        domain,
        rs.length,
        round(meanMetric(rs, "ns")),
        round(meanMetric(rs, "sr")),
        round(meanMetric(base, "ssal"), 3),
        round(meanMetric(rs, "aer")),
        round(meanMetric(rs, "rar")),
        round(meanMetric(rs, "seg")),
        round(meanMetric(rs, "adr")),
        round(meanMetric(rs, "irr")),
        round(meanMetric(rs, "ngp")),
        round(rec.f1),
        round(rec.acc),
      ]);
    }
  }
  return {
    title: "Table 1: performance by domain",
    caption:
      "SR and state-management metrics average over all seven conditions; SSAL over the baseline only; IRR over triggered rollouts; F1@RD and Acc@RG pool the recovery fields.",
    columns: [
      "Agent",
      "Domain",
      "Episodes",
      "N̄s",
      "SR",
      "SSAL",
      "AER",
      "RAR",
      "SEG",
      "ADR",
      "IRR",
      "NGP",
      "F1@RD",
      "Acc@RG",
    ],
    rows,
  };
}

function table2(records: readonly EpisodeRecord[]): ReportTable {
  const rows: Cell[][] = [];
  for (const agent of agentsOf(records)) {
    for (const condition of CONDITIONS.slice(1)) {
      for (const domain of domainsOf(records)) {
        const rs = records.filter(
          (r) => r.agent === agent && r.tags.domain === domain && r.tags.condition === condition,
        );
        if (rs.length === 0) continue;
        const paired = records.filter(
          (r) =>
            r.agent === agent &&
            r.tags.domain === domain &&
            (r.tags.condition === condition || r.tags.condition === "base"),
        );
        const triggered = rs.filter((r) => r.metrics.triggered === 1).length;
        rows.push([
          agent,
          condition.toUpperCase(),
          domain,
          `${triggered}/${rs.length}`,
          round(deltaSr(paired, condition)),
          round(meanMetric(rs, "irr")),
          round(meanMetric(rs, "latency")),
        ]);
      }
    }
  }
  return {
    title: "Table 2: recovery by intervention",
    caption:
      "Delta-SR compares each intervention with its paired baseline; IRR counts triggered rollouts only; latency (steps from the first applied intervention to the correct stop) averages over recovered rollouts.",
    columns: ["Agent", "Intervention", "Domain", "Triggered", "ΔSR (pp)", "IRR", "Latency"],
    rows,
  };
}

function termination(records: readonly EpisodeRecord[]): ReportTable {
  const rows: Cell[][] = [];
  for (const agent of agentsOf(records))
    for (const domain of domainsOf(records)) {
      const rs = records.filter((r) => r.agent === agent && r.tags.domain === domain);
      rows.push([
        agent,
        domain,
        round(meanMetric(rs, "term_correct")),
        round(meanMetric(rs, "term_premature")),
        round(meanMetric(rs, "term_neither")),
        round(rs.reduce((a, r) => a + r.steps, 0) / rs.length),
      ]);
    }
  return {
    title: "Termination distribution (Figure 4)",
    columns: ["Agent", "Domain", "Correct %", "Premature %", "Neither %", "Avg steps"],
    rows,
  };
}

function byFamily(records: readonly EpisodeRecord[]): ReportTable {
  const rows: Cell[][] = [];
  for (const agent of agentsOf(records)) {
    const groups = groupBy(
      records.filter((r) => r.agent === agent),
      (r) => `${r.tags.domain}|${r.family}`,
    );
    for (const [key, rs] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
      const [domain, family] = key.split("|");
      rows.push([
        agent,
        domain ?? "",
        family ?? "",
        new Set(rs.map((r) => r.tags.scene)).size,
        round(meanMetric(rs, "sr")),
        round(meanMetric(rs, "ngp")),
        round(meanMetric(rs, "rar")),
        round(
          meanMetric(
            rs.filter((r) => r.tags.condition === "base"),
            "ssal",
          ),
          3,
        ),
      ]);
    }
  }
  return {
    title: "Table 7: results by task family",
    columns: ["Agent", "Domain", "Family", "Scenes", "SR", "NGP", "RAR", "SSAL"],
    rows,
  };
}

function byCondition(records: readonly EpisodeRecord[]): ReportTable {
  const rows: Cell[][] = [];
  for (const agent of agentsOf(records))
    for (const condition of CONDITIONS) {
      const rs = records.filter((r) => r.agent === agent && r.tags.condition === condition);
      if (rs.length === 0) continue;
      rows.push([
        agent,
        condition,
        rs.length,
        round(meanMetric(rs, "sr")),
        round(meanMetric(rs, "ngp")),
      ]);
    }
  return {
    title: "SR by condition",
    columns: ["Agent", "Condition", "Episodes", "SR", "NGP"],
    rows,
  };
}

/** The suite's ReportModel over scored records; invalid and missing episodes are left out. */
export function aggregateRecords(records: readonly EpisodeRecord[]): ReportModel {
  const scored = records.filter((r) => r.status === "success" || r.status === "failure");
  const left = records.length - scored.length;
  const base = scored.filter((r) => r.tags.condition === "base");
  const domains = table1(scored);
  const ends = termination(scored);
  return {
    suite: "robograph",
    title: "RoboGraphBench",
    episodes: scored.length,
    headlines: [
      { name: "SR", value: round(meanMetric(scored, "sr")) },
      { name: "SSAL (baseline)", value: round(meanMetric(base, "ssal"), 3) },
      { name: "IRR", value: round(meanMetric(scored, "irr")) },
      { name: "NGP", value: round(meanMetric(scored, "ngp")) },
    ],
    tables: [domains, table2(scored), ends, byFamily(scored), byCondition(scored)],
    figures: figure4(domains, ends),
    ...(left > 0
      ? { notes: [`${left} invalid or missing episodes are left out of every table.`] }
      : {}),
  };
}
