/**
 * The trace audit of Table 4b as the environment counts it, on Hall Sorting (two robots, with
 * interruptions): evaluable calls and assignment-state errors (a busy robot), interruption
 * decisions and reassign errors (touching the suspended request's items right after "stop"),
 * resume obligations and successes; the expert makes no error and meets every obligation.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ACCESS, type TaskSpec } from "../../core/index.ts";
import { compileSuite } from "./compiler.ts";
import { MagmaEnvironment, type MagmaLatent } from "./environment.ts";
import { Expert } from "./expert.ts";
import { hallSorting } from "./families/hall-sorting.ts";
import type { MagmaOutcome } from "./outcome.ts";
import { Renamer } from "./realize.ts";
import { runExpert } from "./run-expert.ts";
import type { MagmaPayload, Stage } from "./types.ts";

let specs: TaskSpec<MagmaPayload>[] = [];
beforeAll(() => {
  specs = compileSuite({ families: "hall-sorting" }).filter((s) => s.payload.realization === 0);
}, 120_000);

function play(spec: TaskSpec<MagmaPayload>, until: (stage: Stage, latent: MagmaLatent) => boolean) {
  const env = new MagmaEnvironment(spec, hallSorting, DEFAULT_ACCESS);
  env.reset();
  const expert = new Expert(hallSorting, spec.payload, new Renamer(spec.payload.names));
  const latent = () => env.latent() as unknown as MagmaLatent;
  for (let i = 0; i < 1000; i++) {
    const l = latent();
    if (until(spec.payload.stages[l.stage] as Stage, l)) break;
    if (env.stepSync(expert.decide(l)).terminated) throw new Error("ended early");
  }
  const audit = () => ({ ...(env.outcome().data as unknown as MagmaOutcome).audit });
  return { env, latent, audit };
}

describe("the trace audit (Table 4b)", () => {
  it("the expert: no assignment or reassign error, every resume obligation met", () => {
    const totals = { calls: 0, assign: 0, decisions: 0, errors: 0, obligations: 0, resumed: 0 };
    for (const spec of specs.filter((s) => s.payload.condition === "IN")) {
      const { outcome } = runExpert(hallSorting, spec);
      expect(outcome.success, spec.id).toBe(true);
      totals.calls += outcome.audit.calls;
      totals.assign += outcome.audit.assignmentErrors;
      totals.decisions += outcome.audit.interruptionDecisions;
      totals.errors += outcome.audit.interruptionErrors;
      totals.obligations += outcome.audit.resumeObligations;
      totals.resumed += outcome.audit.resumeSuccesses;
    }
    expect(totals.calls).toBeGreaterThan(100);
    expect(totals.assign).toBe(0);
    expect(totals.decisions).toBeGreaterThan(0);
    expect(totals.errors).toBe(0);
    expect(totals.obligations).toBeGreaterThan(0);
    expect(totals.resumed).toBe(totals.obligations);
  });

  it("counts a call to a busy robot as an assignment-state error", () => {
    const spec = specs.find((s) => s.payload.condition === "CE") as TaskSpec<MagmaPayload>;
    const { env, latent, audit } = play(spec, (_st, l) => Object.keys(l.running).length > 0);
    const [robot, running] = Object.entries(latent().running)[0] ?? [];
    const before = audit();
    env.stepSync({
      kind: "tool",
      calls: [{ tool: running?.skill ?? "detect", args: running?.args ?? {}, robot }],
    });
    const after = audit();
    expect(after.calls).toBe(before.calls + 1);
    expect(after.assignmentErrors).toBe(before.assignmentErrors + 1);
  });

  it("counts touching the suspended request right after an interruption as a reassign error", () => {
    const spec = specs.find(
      (s) =>
        s.payload.condition === "IN" &&
        s.payload.stages.some((st) => st.request === "interruption" && st.instruction),
    ) as TaskSpec<MagmaPayload>;
    const stages = spec.payload.stages;
    const y = stages.findIndex((st) => st.request === "interruption" && st.instruction);
    const { env, latent, audit } = play(spec, (_st, l) => l.stage === y);
    const x = stages.find((st) => st.id === stages[y]?.interrupts) as Stage;
    // An item of the suspended request that is not in place yet.
    const item = (x.units ?? [])
      .map((u) => u.args.item as string)
      .find(
        (i) => latent().world.loc[i]?.[0] !== x.units?.find((u) => u.args.item === i)?.args.dest,
      );
    expect(item).toBeDefined();
    const free = spec.payload.scene.robots.map((r) => r.id).find((r) => !latent().running[r]);
    const before = audit();
    env.stepSync({
      kind: "tool",
      calls: [{ tool: "pick_to_tray", args: { object: item as string }, robot: free as string }],
    });
    const after = audit();
    expect(after.interruptionDecisions).toBe(before.interruptionDecisions + 1);
    expect(after.interruptionErrors).toBe(before.interruptionErrors + 1);
  });
});
