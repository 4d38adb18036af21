import { describe, expect, it } from "vitest";
import { successorState, WorldState } from "../../world/index.ts";
import { DEFAULT_SEED } from "./compile.ts";
import { GeneratedGraph, generatedGraph } from "./episode-graph.ts";
import { generateTasks } from "./generator.ts";
import { buildGraph, stateAt } from "./graph.ts";
import type { Choice } from "./options.ts";
import { MAX_WORDS, MIN_WORDS, nameOf, wordCount } from "./phrasing.ts";

const gen = generateTasks(DEFAULT_SEED);
/** Every task's released option bank: the path states and one step off the path. */
const banks = [...gen.basic, ...gen.advanced].map((def) => {
  const graph = generatedGraph(def, DEFAULT_SEED);
  const states = graph.bank.released();
  return { def, graph, states, choices: new Map(states.map((s) => [s, graph.choices(s)])) };
});
const allStates = banks.flatMap((b) =>
  b.states.map((s) => ({ ...b, s, options: b.choices.get(s) as Choice[] })),
);
const allOptions = allStates.flatMap((x) => x.options.map((o) => ({ ...x, o })));

/** The phase of an option's action: observe, approach or operate. */
const phaseOf = (action: string) =>
  action.startsWith("look_at_") ? "look" : action.startsWith("walk_to_") ? "walk" : "operate";

describe("option roles (paper §3.4)", () => {
  it("shows four options per state: one on the success path, up to two detours, the rest invalid", () => {
    expect(allStates.length).toBeGreaterThan(5000);
    for (const { options, def, s } of allStates) {
      expect(
        options.map((o) => o.label),
        `${def.id} ${s}`,
      ).toEqual(["A", "B", "C", "D"]);
      expect(new Set(options.map((o) => o.text)).size).toBe(4);
      expect(options.filter((o) => o.role === "success_path")).toHaveLength(1);
      expect(options.filter((o) => o.role === "valid_detour").length).toBeLessThanOrEqual(3);
    }
    const detours = allStates.map((x) => x.options.filter((o) => o.role === "valid_detour").length);
    for (const n of [0, 1, 2]) expect(detours.filter((d) => d === n).length).toBeGreaterThan(500);
  });

  it("every role is true of the engine: success shortens the way, detours do not, invalid ones cannot run", () => {
    for (const { graph, s, options, def } of allStates.filter((_, i) => i % 3 === 0)) {
      const d = graph.graph.dist[s] as number;
      const state = stateAt(graph.graph, s);
      for (const o of options) {
        const where = `${def.id} ${s} ${o.action}`;
        if (o.role === "success_path") expect(graph.graph.dist[o.to as number], where).toBe(d - 1);
        else if (o.role === "valid_detour")
          expect(graph.graph.dist[o.to as number] as number, where).toBeGreaterThanOrEqual(d);
        else {
          expect(o.to, where).toBeNull();
          const g = [...graph.graph.groundings, ...graph.graph.decoys].find(
            (x) => x.id === o.action,
          );
          if (!g) throw new Error(`unknown action ${o.action}`);
          expect(successorState(state, g.schema, g.args) instanceof WorldState, where).toBe(false);
        }
      }
    }
  });
});

describe("anti-leak rules (appendix B, Stages 2 and 3)", () => {
  it("every option is one sentence of 10-25 words naming its object", () => {
    for (const { o } of allOptions) {
      const n = wordCount(o.text);
      expect(n, o.text).toBeGreaterThanOrEqual(MIN_WORDS);
      expect(n, o.text).toBeLessThanOrEqual(MAX_WORDS);
      expect(o.text.endsWith("."), o.text).toBe(true);
      expect(o.text.slice(0, -1).includes(". "), o.text).toBe(false);
      const object = o.action.replace(
        /^(look_at|walk_to|pick_up|switch_on|switch_off|plug_in|hand_over|stand_up_from|[a-z]+)_/,
        "",
      );
      expect(o.text.toLowerCase(), o.text).toContain(
        nameOf(object.split(/_(?:on|in|into|to|with)_/)[0] as string),
      );
    }
  });

  it("no option carries a word that marks it wrong, or an implementation term", () => {
    const banned =
      /\b(wrong|invalid|incorrect|not needed|unnecessary|mistake|cannot|can't|impossible|useless|pointless|detour|optimal|graph|state|precondition|phase)\b/i;
    for (const { o } of allOptions) expect(o.text, o.text).not.toMatch(banned);
  });

  it("lengths are uniform: the success option is neither systematically longer nor shorter", () => {
    const words = (role: boolean) =>
      allOptions
        .filter(({ o }) => (o.role === "success_path") === role)
        .map(({ o }) => wordCount(o.text));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(Math.abs(mean(words(true)) - mean(words(false))) / mean(words(false))).toBeLessThan(
      0.05,
    );
    let longest = 0;
    let shortest = 0;
    let spread = 0;
    for (const { options } of allStates) {
      const n = options.map((o) => wordCount(o.text));
      const success = n[options.findIndex((o) => o.role === "success_path")] as number;
      if (n.filter((x) => x >= success).length === 1) longest++;
      if (n.filter((x) => x <= success).length === 1) shortest++;
      if (Math.max(...n) - Math.min(...n) <= 6) spread++;
    }
    // Uniquely longest or shortest in at most a fifth of the states (chance is about a quarter).
    expect(longest / allStates.length).toBeLessThan(0.2);
    expect(shortest / allStates.length).toBeLessThan(0.2);
    expect(spread / allStates.length).toBeGreaterThan(0.9);
  });

  it("no opening word gives the success option away", () => {
    // Within an action, the opening verb does not depend on the role (the action itself may:
    // closing a window is more often the answer than opening it, which is content, not wording).
    const byAction = new Map<
      string,
      { n: number; success: number; verbs: Map<string, { n: number; success: number }> }
    >();
    for (const { o } of allOptions) {
      const action = o.action.replace(/_.*$/, "");
      const a = byAction.get(action) ?? { n: 0, success: 0, verbs: new Map() };
      const v = a.verbs.get(o.verb) ?? { n: 0, success: 0 };
      a.n++;
      v.n++;
      if (o.role === "success_path") {
        a.success++;
        v.success++;
      }
      a.verbs.set(o.verb, v);
      byAction.set(action, a);
    }
    let checked = 0;
    for (const [action, a] of byAction)
      for (const [verb, v] of a.verbs)
        if (v.n >= 40) {
          checked++;
          expect(Math.abs(v.success / v.n - a.success / a.n), `${action} ${verb}`).toBeLessThan(
            0.2,
          );
        }
    expect(checked).toBeGreaterThan(20);
    // And across actions no frequent opening word is mostly the answer.
    const byWord = new Map<string, { n: number; success: number }>();
    for (const { o } of allOptions) {
      const w = (o.text.split(" ")[0] as string).toLowerCase();
      const x = byWord.get(w) ?? { n: 0, success: 0 };
      x.n++;
      if (o.role === "success_path") x.success++;
      byWord.set(w, x);
    }
    for (const [w, x] of byWord) if (x.n >= 100) expect(x.success / x.n, w).toBeLessThan(0.5);
  });

  it("phases are hidden: each step's success options mix opening styles", () => {
    const styles = new Map<string, Map<string, number>>();
    for (const { o } of allOptions.filter(({ o }) => o.role === "success_path")) {
      const phase = phaseOf(o.action);
      const m = styles.get(phase) ?? new Map<string, number>();
      m.set(o.style, (m.get(o.style) ?? 0) + 1);
      styles.set(phase, m);
    }
    for (const phase of ["look", "walk"]) {
      const m = styles.get(phase) as Map<string, number>;
      const total = [...m.values()].reduce((a, b) => a + b, 0);
      expect(m.size, phase).toBeGreaterThanOrEqual(3);
      expect(Math.max(...m.values()) / total, phase).toBeLessThan(0.8);
    }
    // Observe-phase wording is not reserved for the observe step: other options use it too.
    const statement = allOptions.filter(({ o }) => o.style === "statement");
    expect(new Set(statement.map(({ o }) => phaseOf(o.action))).size).toBe(3);
    expect(
      statement.filter(({ o }) => o.role !== "success_path").length / statement.length,
    ).toBeGreaterThan(0.6);
  });

  it("verbs vary: within a state, and between consecutive success options on the path", () => {
    for (const { options } of allStates) expect(new Set(options.map((o) => o.verb)).size).toBe(4);
    for (const { graph, def } of banks) {
      const verbs = graph.graph.path
        .slice(0, -1)
        .map((s) => graph.choices(s).find((o) => o.role === "success_path")?.verb);
      for (let i = 1; i < verbs.length; i++)
        expect(verbs[i], `${def.id} step ${i}`).not.toBe(verbs[i - 1]);
    }
    const perAction = new Map<string, Set<string>>();
    for (const { o } of allOptions) {
      const name = phaseOf(o.action);
      perAction.set(name, (perAction.get(name) ?? new Set()).add(o.verb));
    }
    for (const [name, verbs] of perAction) expect(verbs.size, name).toBeGreaterThanOrEqual(6);
  });

  it("the success option is not the only one naming the task's objects", () => {
    let alone = 0;
    for (const { options, def } of allStates) {
      const names = def.goals
        .flatMap((g) => [g.object, g.target ?? g.object])
        .map((id) => nameOf(id));
      const mentions = options.filter((o) => names.some((n) => o.text.toLowerCase().includes(n)));
      if (mentions.length === 1 && mentions[0]?.role === "success_path") alone++;
    }
    expect(alone / allStates.length).toBeLessThan(0.05);
  });

  it("options are a pure function of task and state (a fresh build gives the same bank)", () => {
    const { def, choices, states } = banks[7] as (typeof banks)[number];
    const fresh = new GeneratedGraph(buildGraph(def), DEFAULT_SEED);
    for (const s of [...states].reverse()) expect(fresh.choices(s)).toEqual(choices.get(s));
  });
});
