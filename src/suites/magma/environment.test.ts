/**
 * The environment on compiled Packaging episodes (the held-out family; it compiles in a few
 * seconds): the expert solves every condition, SE faults fire and are recovered from, and
 * every terminal label the environment assigns (Figure 4) comes from the decision that earns it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { leakedValues } from "../../check/index.ts";
import { type Action, DEFAULT_ACCESS, type TaskSpec } from "../../core/index.ts";
import { compileSuite } from "./compiler.ts";
import { MagmaEnvironment, type MagmaLatent } from "./environment.ts";
import { Expert } from "./expert.ts";
import { cleanTable } from "./families/clean-table.ts";
import { packaging } from "./families/packaging.ts";
import { hiddenStrings } from "./hidden.ts";
import type { MagmaOutcome } from "./outcome.ts";
import { Renamer } from "./realize.ts";
import { runExpert } from "./run-expert.ts";
import type { MagmaPayload, Stage } from "./types.ts";

let specs: TaskSpec<MagmaPayload>[] = [];
beforeAll(() => {
  specs = compileSuite({ families: "packaging" });
}, 120_000);

const byId = (id: string) => {
  const s = specs.find((x) => x.id === id);
  if (!s) throw new Error(`no ${id}`);
  return s;
};

/** An environment and its expert, played by the expert until `until` holds. */
function playUntil(spec: TaskSpec<MagmaPayload>, until: (stage: Stage) => boolean) {
  const env = new MagmaEnvironment(spec, packaging, DEFAULT_ACCESS);
  env.reset();
  const expert = new Expert(packaging, spec.payload, new Renamer(spec.payload.names));
  const latent = () => env.latent() as unknown as MagmaLatent;
  for (let i = 0; i < 500; i++) {
    const stage = spec.payload.stages[latent().stage] as Stage;
    if (until(stage)) break;
    if (env.stepSync(expert.decide(latent())).terminated) throw new Error("ended early");
  }
  const outcome = () => env.outcome().data as unknown as MagmaOutcome;
  const step = (a: Action) => env.stepSync(a);
  return { env, latent, outcome, step };
}

describe("the MAGMA environment (Packaging)", () => {
  it("compiles the held-out family: 10 HO specs, five conditions, three realizations", () => {
    expect(specs).toHaveLength(150);
    expect(new Set(specs.map((s) => s.tags.track))).toEqual(new Set(["HO"]));
    expect(new Set(specs.map((s) => s.payload.condition))).toEqual(
      new Set(["CE", "MU", "SE", "IN", "CO"]),
    );
  });

  it("the expert solves every episode, clean and perturbed; faults fire and are recovered", () => {
    let faults = 0;
    for (const spec of specs) {
      const run = runExpert(packaging, spec);
      expect(run.outcome.success, spec.id).toBe(true);
      faults += run.outcome.faultsFired;
    }
    expect(faults).toBeGreaterThan(10);
  });

  it("text where an action is due: Text-for-action mismatch", () => {
    const { step, outcome } = playUntil(byId("packaging-01/CE/r0"), (s) => s.type === "act");
    expect(step({ kind: "say", text: "All done." }).terminated).toBe(true);
    expect(outcome()).toMatchObject({ success: false, label: "text-for-action" });
  });

  it("an action where text is due: Action-for-text mismatch", () => {
    const spec = byId("packaging-01/CE/r0");
    const { step, outcome } = playUntil(spec, (s) => s.type === "acknowledge");
    const robot = spec.payload.scene.robots[0]?.id as string;
    const r = step({ kind: "tool", calls: [{ tool: "detect", args: {}, robot }] });
    expect(r.terminated).toBe(true);
    expect(outcome()).toMatchObject({ success: false, label: "action-for-text" });
  });

  it("an empty message: Invalid format", () => {
    const { step, outcome } = playUntil(byId("packaging-01/CE/r0"), () => true);
    step({ kind: "say", text: "  " });
    expect(outcome()).toMatchObject({ success: false, label: "invalid-format" });
  });

  it("waiting while nothing runs: No-progress/Timeout", () => {
    const { step, outcome } = playUntil(byId("packaging-01/CE/r0"), (s) => s.type === "act");
    step({ kind: "wait" });
    expect(outcome()).toMatchObject({ success: false, label: "no-progress" });
  });

  it("a wrong answer to an embodied question: Answer rejected; the right one passes", () => {
    const spec = specs.find((s) => s.payload.stages.some((st) => st.type === "answer"));
    if (!spec) throw new Error("no question in Packaging");
    const wrong = playUntil(spec, (s) => s.type === "answer");
    const stage = spec.payload.stages[wrong.latent().stage] as Stage;
    expect(stage.rule?.kind).toBe("count");
    const n = stage.rule?.kind === "count" ? stage.rule.n : 0;
    wrong.step({ kind: "say", text: `There are ${n + 3} of them.` });
    expect(wrong.outcome()).toMatchObject({ success: false, label: "answer-rejected" });
    const right = playUntil(spec, (s) => s.type === "answer");
    right.step({ kind: "say", text: `There are ${n} of them.` });
    expect(right.outcome().stagesDone).toBeGreaterThan(wrong.outcome().stagesDone);
    expect(right.outcome().label).toBeUndefined();
  });

  it("GC's interruption split: giving up at X2 keeps X1 and Y as completed subgoals", () => {
    const spec = specs.find(
      (s) => s.payload.condition === "IN" && s.payload.stages.some((st) => st.interrupts),
    ) as TaskSpec<MagmaPayload>;
    const stages = spec.payload.stages;
    const x2 = stages.findIndex((st) => st.split === "after");
    const y = stages.findIndex((st) => st.interrupts);
    // The "stop" variant has Y before X2; the "after" variant X2 before Y.
    const giveUpAt = Math.max(x2, y);
    const { step, outcome, latent } = playUntil(
      spec,
      (s) => s.id === (stages[giveUpAt] as Stage).id,
    );
    expect(latent().stage).toBe(giveUpAt);
    step({ kind: "say", text: "I have finished." });
    const o = outcome();
    expect(o.success).toBe(false);
    expect(o.stagesDone).toBe(giveUpAt);
    expect(o.stages).toBe(stages.length);
  });

  it("a bad call comes back as a failure event and is counted, never a crash", () => {
    const spec = byId("packaging-01/CE/r0");
    const { step, outcome } = playUntil(spec, (s) => s.type === "act");
    const robot = spec.payload.scene.robots[0]?.id as string;
    const r = step({ kind: "tool", calls: [{ tool: "fly", args: {}, robot }] });
    expect(r.terminated).toBe(false);
    expect(r.observation.events.some((e) => /fly/.test(e.text ?? ""))).toBe(true);
    expect(outcome().badCalls).toBe(1);
  });

  it("hides undetected food and future instructions, and no observation shows them", () => {
    const spec = byId("packaging-07/MU/r1");
    const { env, step } = playUntil(spec, () => true);
    const first = env.reset();
    const latent = env.latent();
    const hidden = hiddenStrings(latent, spec, packaging);
    // The pantry's food and the later requests are hidden at the start.
    expect(hidden.length).toBeGreaterThan(20);
    const last = spec.payload.stages.filter((st) => st.instruction).at(-1);
    expect(hidden).toContain(last?.instruction);
    expect(leakedValues(first, hidden)).toEqual([]);
    const detect = step({ kind: "say", text: "Understood." });
    expect(leakedValues(detect.observation, hiddenStrings(env.latent(), spec, packaging))).toEqual(
      [],
    );
    // The rule is not vacuous: a view naming a hidden item is caught.
    expect(leakedValues({ view: [hidden[0]] }, hidden)).toEqual([hidden[0]]);
  });

  it("never hides what the card states for the whole family (Clean Table's sponge)", () => {
    const spec = compileSuite({ families: "clean-table" }).find(
      (s) => s.id === "clean-table-07/SE/r1",
    ) as TaskSpec<MagmaPayload>;
    const env = new MagmaEnvironment(spec, cleanTable, DEFAULT_ACCESS);
    const card = env.describe();
    env.reset();
    const hidden = hiddenStrings(env.latent(), spec, cleanTable);
    // The card names the sponge and its shelf; the undetected dishes of this episode stay hidden.
    expect(JSON.stringify(card)).toContain("sponge");
    expect(hidden).not.toContain("sponge");
    expect(hidden).toEqual(expect.arrayContaining(["dish_1", "mug_1"]));
    const { access: _access, ...told } = card;
    expect(leakedValues(told, hidden)).toEqual([]);
  });
});
