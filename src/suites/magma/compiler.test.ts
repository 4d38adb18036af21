/**
 * The compiled suite against Table 2 and Figure 2: 99 nominal specs with Table 2's counts per
 * family x bucket and per track, exactly 1,254 episodes with Figure 2a's per-bucket counts,
 * conditions by the documented rule, horizons inside their buckets, paired episodes sharing
 * their initial state, and the frozen mini subset (215 episodes, 31/44/47/37/56, margins).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { TaskSpec } from "../../core/index.ts";
import { compileSuite, conditionsOf, specDefs } from "./compiler.ts";
import { suiteStats } from "./stats.ts";
import { EPISODES_PER_BUCKET, MINI_PER_BUCKET, TABLE2 } from "./table2.ts";
import { BUCKETS, CONDITIONS, type MagmaPayload } from "./types.ts";

let all: TaskSpec<MagmaPayload>[] = [];
beforeAll(() => {
  all = compileSuite();
}, 300_000);

const specIds = (xs: readonly TaskSpec<MagmaPayload>[]) => new Set(xs.map((s) => s.payload.spec));

describe("MAGMA-Bench as compiled", () => {
  it("has 99 nominal specs with Table 2's counts per family, bucket and track", () => {
    expect(specIds(all).size).toBe(99);
    for (const row of TABLE2) {
      const ce = all.filter(
        (s) =>
          s.family === row.family && s.payload.condition === "CE" && s.payload.realization === 0,
      );
      expect(
        BUCKETS.map((b) => ce.filter((s) => s.payload.bucket === b.id).length),
        row.family,
      ).toEqual([...row.buckets]);
      expect(ce.filter((s) => s.payload.track === "ID").length, row.family).toBe(row.id);
      expect(ce.filter((s) => s.payload.track === "CG").length, row.family).toBe(row.cg);
      expect(ce.filter((s) => s.payload.track === "HO").length, row.family).toBe(row.ho);
      expect(ce[0]?.payload.robots, row.family).toBe(row.robots);
    }
    const ce0 = all.filter((s) => s.payload.condition === "CE" && s.payload.realization === 0);
    expect(["ID", "CG", "HO"].map((t) => ce0.filter((s) => s.payload.track === t).length)).toEqual([
      74, 15, 10,
    ]);
  });

  it("has exactly 1,254 episodes with Figure 2a's counts per bucket", () => {
    expect(all).toHaveLength(1254);
    expect(BUCKETS.map((b) => all.filter((s) => s.payload.bucket === b.id).length)).toEqual([
      ...EPISODES_PER_BUCKET,
    ]);
    expect(new Set(all.map((s) => s.id)).size).toBe(1254);
  });

  it("gives each spec the conditions of the documented rule, CE always, three realizations", () => {
    for (const def of specDefs()) {
      const eps = all.filter((s) => s.payload.spec === def.id);
      const conds = [...new Set(eps.map((s) => s.payload.condition))].sort();
      expect(conds, def.id).toEqual([...conditionsOf(def)].sort());
      expect(conds).toContain("CE");
      expect(eps).toHaveLength(3 * conds.length);
      // Only the families' own perturbations (Table 2's last column), CO when two apply.
      for (const c of conds)
        if (c !== "CE" && c !== "CO") expect(def.row.perturbations).toContain(c);
    }
  });

  it("keeps each nominal horizon inside its bucket", () => {
    for (const s of all) {
      const b = BUCKETS.find((x) => x.id === s.payload.bucket);
      expect(s.payload.horizon, s.id).toBeGreaterThanOrEqual(b?.min ?? 0);
      expect(s.payload.horizon, s.id).toBeLessThanOrEqual(b?.max ?? 0);
    }
  });

  it("pairs clean and variant episodes on one initial state and mapping", () => {
    for (const s of all) {
      const clean = all.find((x) => x.id === s.payload.control);
      expect(clean, s.id).toBeDefined();
      expect(clean?.payload.scene).toEqual(s.payload.scene);
      expect(clean?.payload.names).toEqual(s.payload.names);
      if (s.payload.condition === "SE")
        expect(s.payload.stages.map((st) => st.instruction)).toEqual(
          clean?.payload.stages.map((st) => st.instruction),
        );
    }
    // SE episodes carry frozen faults; CE, MU and IN none.
    const faults = (s: TaskSpec<MagmaPayload>) =>
      s.payload.stages.reduce((n, st) => n + (st.faults?.length ?? 0), 0);
    for (const s of all) {
      if (["CE", "MU", "IN"].includes(s.payload.condition)) expect(faults(s), s.id).toBe(0);
      if (s.payload.condition === "SE") expect(faults(s), s.id).toBeGreaterThan(0);
    }
  });

  it("freezes the mini subset: 215 episodes of one realization, 31/44/47/37/56, close margins", () => {
    const mini = all.filter((s) => s.tags.mini === 1);
    expect(mini).toHaveLength(215);
    expect(new Set(mini.map((s) => s.payload.realization))).toEqual(new Set([0]));
    expect(BUCKETS.map((b) => mini.filter((s) => s.payload.bucket === b.id).length)).toEqual([
      ...MINI_PER_BUCKET,
    ]);
    const share = (
      xs: readonly TaskSpec<MagmaPayload>[],
      f: (s: TaskSpec<MagmaPayload>) => boolean,
    ) => (100 * xs.filter(f).length) / xs.length;
    const gap = (f: (s: TaskSpec<MagmaPayload>) => boolean) =>
      Math.abs(share(all, f) - share(mini, f));
    for (const c of CONDITIONS)
      expect(
        gap((s) => s.payload.condition === c),
        c,
      ).toBeLessThanOrEqual(0.3);
    for (const b of BUCKETS)
      expect(
        gap((s) => s.payload.bucket === b.id),
        b.id,
      ).toBeLessThanOrEqual(2.6);
    for (const t of ["ID", "CG", "HO"])
      expect(
        gap((s) => s.payload.track === t),
        t,
      ).toBeLessThanOrEqual(2.2);
  });

  it("reports the same counts through `stats`", () => {
    const stats = suiteStats(all);
    expect(stats.summary).toMatchObject({ specs: 99, episodes: 1254, mini: 215 });
    const table2 = stats.tables[0];
    // 12 families and the total row.
    expect(table2?.rows).toHaveLength(13);
    expect(table2?.rows[12]?.slice(2, 10)).toEqual([13, 18, 24, 16, 28, 74, 15, 10]);
    const packaging = table2?.rows.find((r) => r[0] === "packaging");
    expect(packaging?.slice(1, 10)).toEqual([1, 1, 1, 3, 1, 4, 0, 0, 10]);
  });
});
