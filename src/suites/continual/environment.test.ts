import { describe, expect, it } from "vitest";
import { DEFAULT_ACCESS } from "../../core/index.ts";
import {
  ContinualEnvironment,
  type ContinualLatent,
  type ContinualOutcome,
  type ContinualView,
  FAILED,
} from "./environment.ts";
import { outcomeData, scoreOutcome } from "./metrics.ts";
import { movieNight, movieNightSpec, select } from "./test-support.ts";

const spec = movieNightSpec;

const latent = (env: ContinualEnvironment) => env.latent() as unknown as ContinualLatent;
const labelOf = (env: ContinualEnvironment, role: string) =>
  latent(env).choices.find((c) => c.role === role)?.label;

describe("a continual episode", () => {
  it("shows the task, the scene and four options; the success path reaches the goal in 6 steps", () => {
    const env = new ContinualEnvironment(spec, DEFAULT_ACCESS);
    expect(env.describe()).toMatchObject({ budgets: { maxSteps: 9 }, modes: ["tool"] });
    expect(env.describe().instructions).toContain("Maximum environment actions: 9.");
    const first = env.reset().view as unknown as ContinualView;
    expect(first.task).toBe(movieNight.description);
    expect(first.scene).toContain("you stand at the entrance of the living room");
    expect(first.choices.map((c) => c.label)).toEqual(["A", "B", "C", "D"]);
    let last = null as ReturnType<ContinualEnvironment["step"]> | null;
    for (let i = 0; i < 6; i++) last = env.step(select(labelOf(env, "success_path")));
    expect(last?.terminated).toBe(true);
    expect(last?.reward).toBe(1);
    const data = outcomeData(env.outcome().data);
    expect(data.reachedGoal).toBe(true);
    expect(data.decisions.map((d) => d.role)).toEqual(Array(6).fill("success_path"));
    expect(data.finalPredicates).toEqual(
      expect.arrayContaining(["powered_off(ceiling_light)", "open(media_cabinet)"]),
    );
  });

  it("an invalid option uses a step, leaves the state unchanged and says only that it failed", () => {
    const env = new ContinualEnvironment(spec, DEFAULT_ACCESS);
    const before = env.reset().view as unknown as ContinualView;
    const state = latent(env).state;
    const invalid = labelOf(env, "invalid") as string;
    const result = env.step(select(invalid));
    expect(result.info.invalid).toEqual({ code: "precondition", reason: FAILED });
    expect(result.terminated).toBe(false);
    expect(latent(env).state).toBe(state);
    const after = result.observation.view as unknown as ContinualView;
    expect(after.previous).toBe(FAILED);
    expect(after.step).toBe(1);
    expect(after.choices).toEqual(before.choices);
    expect(result.observation.events).toEqual([{ type: "action_failed", text: FAILED }]);
  });

  it("a valid detour moves without shortening the way; feedback does not tell it from progress", () => {
    const env = new ContinualEnvironment(spec, DEFAULT_ACCESS);
    env.reset();
    // Walk the path until a state offers a detour.
    let detour = labelOf(env, "valid_detour");
    for (let i = 0; i < 5 && !detour; i++) {
      env.step(select(labelOf(env, "success_path")));
      detour = labelOf(env, "valid_detour");
    }
    if (!detour) throw new Error("no detour along the path");
    const distance = latent(env).distance;
    const result = env.step(select(detour));
    expect(result.info.invalid).toBeUndefined();
    expect((result.observation.view as unknown as ContinualView).previous).toBe("Action accepted.");
    expect(latent(env).distance).toBeGreaterThanOrEqual(distance);
  });

  it("a letter that names no option, or another tool, is rejected with a path and no exception", () => {
    const env = new ContinualEnvironment(spec, DEFAULT_ACCESS);
    env.reset();
    expect(env.step(select("Z")).info.invalid).toMatchObject({
      code: "bad-arguments",
      path: "option",
    });
    expect(env.step(select(7)).info.invalid).toMatchObject({ code: "bad-arguments" });
    expect(
      env.step({ kind: "tool", calls: [{ tool: "observe", args: {} }] }).info.invalid,
    ).toMatchObject({
      code: "unknown-tool",
    });
    expect(env.step({ kind: "finish" }).info.invalid).toMatchObject({ code: "wrong-mode" });
    // "b", "B." and "option B" all name B (the authors' choice interface reads the letter).
    const b = latent(env).choices.find((c) => c.label === "B");
    expect(env.step(select("option b")).info.invalid?.code ?? "ok").toBe(
      b?.role === "invalid" ? "precondition" : "ok",
    );
    const data = outcomeData(env.outcome().data);
    expect(data.decisions.map((d) => d.role).slice(0, 4)).toEqual([
      "malformed",
      "malformed",
      "malformed",
      "malformed",
    ]);
  });

  it("observations never show roles, action ids or state ids", () => {
    const env = new ContinualEnvironment(spec, DEFAULT_ACCESS);
    let observation = env.reset();
    for (let i = 0; i < 6; i++) {
      const l = latent(env);
      const text = JSON.stringify(observation);
      for (const secret of [
        "success_path",
        "valid_detour",
        l.state,
        ...l.choices.map((c) => c.action),
      ])
        expect(text).not.toContain(secret);
      observation = env.step(select(labelOf(env, "success_path"))).observation;
    }
  });

  it("scores success, the step of success, selections by role and the grader", () => {
    const env = new ContinualEnvironment(spec, DEFAULT_ACCESS);
    env.reset();
    env.step(select(labelOf(env, "invalid")));
    for (let i = 0; i < 6; i++) env.step(select(labelOf(env, "success_path")));
    const score = scoreOutcome(env.outcome().data as unknown as ContinualOutcome);
    expect(score.success).toBe(true);
    expect(score.metrics).toMatchObject({
      sr: 1,
      steps: 7,
      optimal: 6,
      suboptimal: 0,
      invalid: 1,
      success_step: 7,
      extra_used: 1,
      path_length: 6,
      budget: 9,
    });
    // Reached with the reference path and one invalid step: 0.55 + 0.25 + 0.20 - 0.2(1 - e^-0.1).
    expect(score.metrics.grader_overall).toBeCloseTo(1 - 0.2 * (1 - Math.exp(-0.1)), 10);
  });
});
