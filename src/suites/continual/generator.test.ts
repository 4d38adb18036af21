import { describe, expect, it } from "vitest";
import { ACTION_NAMES } from "./catalog.ts";
import { DEFAULT_SEED } from "./compile.ts";
import { ADVANCED_GOALS, complexityVariant, generateTasks, MAX_RELATED } from "./generator.ts";
import { goalAtom, reachOf, type TaskDef } from "./task.ts";

const gen = generateTasks(DEFAULT_SEED);
const count = <T>(xs: T[], key: (x: T) => string) => {
  const out: Record<string, number> = {};
  for (const x of xs) out[key(x)] = (out[key(x)] ?? 0) + 1;
  return out;
};

describe("the generated benchmark (paper §4.1, Figure 3)", () => {
  it("has 268 tasks: 168 basic (28 per category) and 100 advanced, each at both heights", () => {
    expect(gen.basic).toHaveLength(168);
    expect(gen.advanced).toHaveLength(100);
    expect(count(gen.basic, (t) => t.categories.join("+"))).toEqual({
      appliance: 28,
      container: 28,
      power: 28,
      placement: 28,
      handling: 28,
      preparation: 28,
    });
    expect(count(gen.basic, (t) => t.height)).toEqual({ child: 84, adult: 84 });
    expect(count(gen.advanced, (t) => t.height)).toEqual({ child: 50, adult: 50 });
    expect(count(gen.advanced, (t) => String(t.categories.length))).toEqual({
      2: 40,
      3: 40,
      4: 20,
    });
    expect(new Set([...gen.basic, ...gen.advanced].map((t) => t.id)).size).toBe(268);
  });

  it("every operating template of the catalog is an atomic goal of some task, in both levels", () => {
    const used = (ts: TaskDef[]) => new Set(ts.flatMap((t) => t.goals.map((g) => g.action)));
    // look_at and walk_to are the first two steps of every goal; nobody sits, so stand_up is
    // only ever an invalid option (docs/continual.md, deviations).
    const operating = ACTION_NAMES.filter((a) => !["look_at", "walk_to", "stand_up"].includes(a));
    expect([...used(gen.basic)].sort()).toEqual([...operating].sort());
    expect([...used(gen.advanced)].sort()).toEqual([...operating].sort());
  });

  it("basic tasks compose two atomic goals of one category, advanced four from two to four", () => {
    for (const t of gen.basic) {
      expect(t.goals, t.id).toHaveLength(2);
      expect(new Set(t.goals.map((g) => g.category)).size, t.id).toBe(1);
    }
    for (const t of gen.advanced) {
      expect(t.goals, t.id).toHaveLength(ADVANCED_GOALS);
      expect(t.categories.length).toBeGreaterThanOrEqual(2);
      expect(t.categories.length).toBeLessThanOrEqual(4);
    }
  });

  it("each goal walks to its own object, picks precede their use, and toggles start opposite", () => {
    for (const t of [...gen.basic, ...gen.advanced]) {
      const reaches = t.goals.map(reachOf);
      expect(new Set(reaches).size, t.id).toBe(reaches.length);
      t.goals.forEach((g, i) => {
        if (g.action === "pick_up") expect(t.goals[i + 1]?.target, t.id).toBeDefined();
        const atom = goalAtom(g);
        if (atom?.pred === "ATTR" && g.action !== "pour" && g.action !== "cut")
          expect(t.initial[g.object]?.[atom.attr], `${t.id} ${g.action}`).toBe(!atom.value);
      });
      expect(t.objects).toEqual(expect.arrayContaining(t.distractors));
    }
  });

  it("ranks six distinct related basic tasks of the same height for every advanced task", () => {
    const basicById = new Map(gen.basic.map((t) => [t.id, t]));
    for (const t of gen.advanced) {
      expect(new Set(t.related).size, t.id).toBe(MAX_RELATED);
      for (const id of t.related) expect(basicById.get(id)?.height).toBe(t.height);
      // The first learning task shares an action with the advanced task (relevance first).
      const actions = new Set(t.goals.map((g) => g.action));
      const first = basicById.get(t.related[0] as string) as TaskDef;
      expect(
        first.goals.some((g) => actions.has(g.action)),
        t.id,
      ).toBe(true);
    }
  });

  it("is a pure function of the seed", () => {
    const again = generateTasks(DEFAULT_SEED);
    expect(again.basic).toEqual(gen.basic);
    expect(again.advanced).toEqual(gen.advanced);
    expect(generateTasks("another seed").advanced).not.toEqual(gen.advanced);
  });

  it("derives 3-, 5- and 6-goal variants in the parent's room with the parent's learning tasks", () => {
    for (const parent of gen.advanced.slice(0, 20)) {
      const units = gen.units.get(parent.id) ?? [];
      const inv = gen.inventories.get(parent.id);
      if (!inv) throw new Error("no inventory");
      for (const goals of [3, 5, 6]) {
        const v = complexityVariant(parent, units, inv, goals, DEFAULT_SEED);
        expect(v.goals, `${parent.id} -> ${goals}`).toHaveLength(goals);
        expect(v.room).toBe(parent.room);
        expect(v.related).toEqual(parent.related);
        expect(v.id).toBe(parent.id.replace("L4", `L${goals}`));
        if (goals > 4) expect(v.goals.slice(0, 4)).toEqual(parent.goals);
      }
      expect(complexityVariant(parent, units, inv, 4, DEFAULT_SEED)).toBe(parent);
    }
  });
});
