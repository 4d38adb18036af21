/**
 * `longhaul stats robograph`: per-scene and mean statistics of the compiled scenes (appendix
 * A, Table 3; Tables 6-8's L_o and N_g) with the ordered action distance and the task-state
 * horizon of each scene's baseline oracle rollout (compiled into the payload), plus
 * per-family summaries.
 */
import type { Cell, StatsModel, TaskSpec } from "../../core/index.ts";
import type { RoboGraphPayload } from "./compiler.ts";

interface SceneRow {
  scene: string;
  family: string;
  domain: string;
  values: Record<(typeof COLUMNS)[number], number>;
}

const COLUMNS = [
  "nodes",
  "edges",
  "occluded",
  "goal",
  "goal_hidden",
  "goal_revealing",
  "decoys",
  "L_o",
  "C_dist",
  "H_maintain",
  "H_explore",
  "H_update",
] as const;

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const sd = (xs: number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));
const r1 = (x: number) => Number(x.toFixed(1));

/** Statistics over the baseline episodes of the given specs. */
export function suiteStats(specs: readonly TaskSpec<RoboGraphPayload>[]): StatsModel {
  const rows: SceneRow[] = specs
    .filter((s) => s.payload.condition === "base")
    .map((s) => {
      const p = s.payload;
      const h = p.horizon;
      return {
        scene: p.scene,
        family: s.family,
        domain: p.domain,
        values: {
          nodes: p.stats.nodes,
          edges: p.stats.edges,
          occluded: p.stats.occluded,
          goal: p.stats.goalPredicates,
          goal_hidden: p.stats.hiddenGoalFacts,
          goal_revealing: p.stats.revealingGoalFacts,
          decoys: p.stats.decoys,
          L_o: p.oracle.length,
          C_dist: p.oracle.distance,
          H_maintain: h.maintain,
          H_explore: h.explore,
          H_update: h.update,
        },
      };
    });
  const perScene: Cell[][] = rows.map((r) => [
    r.scene,
    r.family,
    r.domain,
    ...COLUMNS.map((c) => r.values[c]),
  ]);
  const groups = new Map<string, SceneRow[]>();
  for (const r of rows) {
    const key = `${r.family}|${r.domain}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const perFamily: Cell[][] = [...groups].map(([key, rs]) => {
    const [family, domain] = key.split("|");
    return [
      family ?? "",
      domain ?? "",
      rs.length,
      ...COLUMNS.map((c) => r1(mean(rs.map((r) => r.values[c])))),
    ];
  });
  const summary: Record<string, number> = { scenes: rows.length, episodes: specs.length };
  for (const c of COLUMNS) {
    const xs = rows.map((r) => r.values[c]);
    summary[`mean_${c}`] = r1(mean(xs));
    summary[`sd_${c}`] = r1(sd(xs));
  }
  // Events only disturb facts under interventions, so H_update is summarised over those too.
  const disturbed = specs.filter((s) => s.payload.condition !== "base");
  summary.mean_H_update_interventions = r1(mean(disturbed.map((s) => s.payload.horizon.update)));
  return {
    suite: "robograph",
    tables: [
      { title: "Scenes", columns: ["Scene", "Family", "Domain", ...COLUMNS], rows: perScene },
      {
        title: "Families (means)",
        columns: ["Family", "Domain", "Scenes", ...COLUMNS],
        rows: perFamily,
      },
    ],
    summary,
  };
}
