/**
 * `longhaul stats magma`: Table 2 as compiled (specs per family x bucket x track), episodes per
 * bucket (Figure 2a), per condition and per track, the nominal horizon distribution and the
 * frozen faults per episode; the same for the mini subset.
 */
import type { Cell, StatsModel, TaskSpec } from "../../core/index.ts";
import { BUCKETS, CONDITIONS, type MagmaPayload } from "./types.ts";

const count = <T>(xs: readonly T[], f: (x: T) => boolean) => xs.filter(f).length;

/** The statistics of a compiled selection. */
export function suiteStats(specs: readonly TaskSpec<MagmaPayload>[]): StatsModel {
  const ce0 = specs.filter((s) => s.payload.condition === "CE" && s.payload.realization === 0);
  const families = [...new Set(specs.map((s) => s.family))];
  const table2: Cell[][] = families.map((f) => {
    const rows = ce0.filter((s) => s.family === f);
    return [
      f,
      rows[0]?.payload.robots ?? null,
      ...BUCKETS.map((b) => count(rows, (s) => s.payload.bucket === b.id)),
      count(rows, (s) => s.payload.track === "ID"),
      count(rows, (s) => s.payload.track === "CG"),
      count(rows, (s) => s.payload.track === "HO"),
      [...new Set(specs.filter((s) => s.family === f).map((s) => s.payload.condition))].join(", "),
    ];
  });
  const mini = specs.filter((s) => s.tags.mini === 1);
  const share = (
    xs: readonly TaskSpec<MagmaPayload>[],
    f: (s: TaskSpec<MagmaPayload>) => boolean,
  ) => (xs.length ? count(xs, f) / xs.length : null);
  const margins = (key: "bucket" | "condition" | "track", values: readonly string[]): Cell[][] =>
    values.map((v) => {
      const f = (s: TaskSpec<MagmaPayload>) => String(s.payload[key]) === v;
      const full = share(specs, f);
      const m = share(mini, f);
      return [
        v,
        count(specs, f),
        full,
        count(mini, f),
        m,
        full !== null && m !== null ? Number((100 * (m - full)).toFixed(2)) : null,
      ];
    });
  const horizons = ce0.map((s) => s.payload.horizon);
  const faults = specs.map((s) =>
    s.payload.stages.reduce((a, st) => a + (st.faults?.length ?? 0), 0),
  );
  const faulted = specs.filter((_, i) => (faults[i] as number) > 0);
  return {
    suite: "magma",
    tables: [
      {
        title: "Table 2 as compiled — nominal task specifications",
        columns: [
          "family",
          "robots",
          ...BUCKETS.map((b) => `${b.id} ${b.min}-${b.max}`),
          "ID",
          "CG",
          "HO",
          "conditions",
        ],
        rows: [
          ...table2,
          [
            "total",
            null,
            ...BUCKETS.map((b) => count(ce0, (s) => s.payload.bucket === b.id)),
            count(ce0, (s) => s.payload.track === "ID"),
            count(ce0, (s) => s.payload.track === "CG"),
            count(ce0, (s) => s.payload.track === "HO"),
            "",
          ],
        ],
      },
      {
        title: "Episodes per horizon bucket (Figure 2a / 2b), full set and mini subset",
        columns: ["bucket", "episodes", "share", "mini", "mini share", "margin (pp)"],
        formats: ["text", "int", "rate", "int", "rate", "number"],
        rows: margins(
          "bucket",
          BUCKETS.map((b) => b.id),
        ),
      },
      {
        title: "Episodes per condition",
        columns: ["condition", "episodes", "share", "mini", "mini share", "margin (pp)"],
        formats: ["text", "int", "rate", "int", "rate", "number"],
        rows: margins("condition", CONDITIONS),
      },
      {
        title: "Episodes per generalization track",
        columns: ["track", "episodes", "share", "mini", "mini share", "margin (pp)"],
        formats: ["text", "int", "rate", "int", "rate", "number"],
        rows: margins("track", ["ID", "CG", "HO"]),
      },
      {
        title: "Nominal horizon distribution (clean expert's successful skills, per spec)",
        columns: ["bucket", "specs", "min", "mean", "max"],
        formats: ["text", "int", "int", "number", "int"],
        rows: BUCKETS.map((b) => {
          const hs = ce0.filter((s) => s.payload.bucket === b.id).map((s) => s.payload.horizon);
          return [
            b.id,
            hs.length,
            hs.length ? Math.min(...hs) : null,
            hs.length ? Number((hs.reduce((a, x) => a + x, 0) / hs.length).toFixed(1)) : null,
            hs.length ? Math.max(...hs) : null,
          ];
        }),
      },
      {
        title: "Frozen faults per episode (SE and CO)",
        columns: ["faults", "episodes"],
        formats: ["int", "int"],
        rows: [0, 1, 2, 3].map((k) => [k, count(faults, (f) => f === k)]),
      },
    ],
    summary: {
      specs: ce0.length,
      episodes: specs.length,
      mini: mini.length,
      meanHorizon: horizons.length ? horizons.reduce((a, b) => a + b, 0) / horizons.length : 0,
      faultedEpisodes: faulted.length,
    },
  };
}
