/**
 * `longhaul stats playground`: the implemented EP-100 tasks (Table 20) per suite and type with
 * their Easy/Hard split, EP-20 membership and mean Table 18 workload; episodes per condition
 * (§5.2) and access level; and each task's workload.
 */
import type { Cell, StatsModel, TaskSpec } from "../../core/index.ts";
import type { PlaygroundPayload } from "./payload.ts";

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const r2 = (x: number) => Number(x.toFixed(2));

/** The statistics of a compiled selection (one task = its condition-1 spec, or its first). */
export function playgroundStats(specs: readonly TaskSpec<PlaygroundPayload>[]): StatsModel {
  const tasks = new Map<string, PlaygroundPayload>();
  for (const s of specs)
    if (!tasks.has(s.payload.entry.index)) tasks.set(s.payload.entry.index, s.payload);
  const payloads = [...tasks.values()];
  const groups = new Map<string, PlaygroundPayload[]>();
  for (const p of payloads) {
    const key = `${p.entry.suite}|${p.entry.type}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  const perType: Cell[][] = [...groups].map(([key, ps]) => {
    const [suite, type] = key.split("|");
    return [
      suite ?? "",
      type ?? "",
      ps.length,
      ps.filter((p) => p.entry.split === "Easy").length,
      ps.filter((p) => p.entry.split === "Hard").length,
      ps.filter((p) => p.entry.ep20).length,
      r2(mean(ps.map((p) => p.workload))),
    ];
  });
  const byCondition = new Map<string, number>();
  for (const s of specs) {
    const key = `c${s.payload.condition + 1}|${s.payload.level}`;
    byCondition.set(key, (byCondition.get(key) ?? 0) + 1);
  }
  const workloads = payloads.map((p) => p.workload);
  return {
    suite: "playground",
    summary: {
      tasks: payloads.length,
      episodes: specs.length,
      launch: payloads.filter((p) => p.entry.suite === "Launch").length,
      tower: payloads.filter((p) => p.entry.suite === "Tower").length,
      easy: payloads.filter((p) => p.entry.split === "Easy").length,
      hard: payloads.filter((p) => p.entry.split === "Hard").length,
      ep20: payloads.filter((p) => p.entry.ep20).length,
      mean_workload: r2(mean(workloads)),
    },
    tables: [
      {
        title: "Tasks per suite and type (Table 20)",
        columns: ["Suite", "Type", "Tasks", "Easy", "Hard", "EP-20", "Mean workload"],
        rows: perType,
      },
      {
        title: "Episodes per condition (§5.2) and access level",
        columns: ["Condition", "Level", "Episodes"],
        rows: [...byCondition].sort().map(([key, n]) => [...key.split("|"), n]),
      },
      {
        title: "Workload per task (Table 18)",
        columns: ["Task", "Suite", "Type", "Split", "EP-20", "Workload"],
        rows: payloads.map((p) => [
          p.entry.index,
          p.entry.suite,
          p.entry.type,
          p.entry.split,
          p.entry.ep20 ? "yes" : "no",
          p.workload,
        ]),
      },
    ],
  };
}
