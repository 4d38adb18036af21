import { describe, expect, it } from "vitest";
import { type GridPayload, gridSuite } from "../../test/fixtures/grid-suite.ts";
import type { Environment, Json, Suite } from "../core/index.ts";
import { loadSuite, suiteEntries } from "../suites/index.ts";
import { checkSuite, type SuiteCheckReport } from "./check-suite.ts";

/** The grid suite with its environments wrapped by `change`. */
function gridWith(
  change: (env: Environment) => Partial<Environment>,
  extra: Partial<Suite<GridPayload>> = {},
): Suite<GridPayload> {
  const base = gridSuite(1);
  return {
    ...base,
    async make(spec, options) {
      const env = (await base.make(spec, options)) as Environment;
      const wrapped: Environment = {
        describe: () => env.describe(),
        reset: () => env.reset(),
        step: (a) => env.step(a),
        outcome: () => env.outcome(),
        latent: () => env.latent?.() ?? null,
        close: () => env.close?.(),
      };
      return Object.assign(wrapped, change(env));
    },
    ...extra,
  };
}

/** The problems of one check, or [] when it passed. */
function problems(report: SuiteCheckReport, id: string): string[] {
  const result = report.results.find((r) => r.id === id);
  if (!result) throw new Error(`no check ${id}`);
  return result.problems;
}

/** The checks that failed. */
const failed = (report: SuiteCheckReport) => report.results.filter((r) => !r.ok).map((r) => r.id);

describe("checkSuite", () => {
  it("passes every suite the registry knows, and the grid fixture with streams", async () => {
    const registered = await Promise.all(suiteEntries().map((entry) => loadSuite(entry)));
    expect(registered.map((s) => s.id)).toEqual(
      expect.arrayContaining(["robograph", "transduction", "playground", "magma", "continual"]),
    );
    // Every suite states its goals for --memory oracle-state (issue 12, protocol.md).
    for (const s of registered) expect(s.goalState, s.id).toBeTypeOf("function");
    const suites = [...registered, gridSuite(3, { streams: true }) as unknown as Suite];
    // Physics suites sample their quickest tasks (one per family); the rest are spread evenly.
    const sample: Record<string, { taskIds: string[] }> = {
      playground: { taskIds: ["Launch-02/c1", "Tower-01/c1"] },
    };
    for (const suite of suites) {
      const report = await checkSuite(suite, { limit: 2, maxSteps: 15, ...sample[suite.id] });
      const bad = report.results.filter((r) => !r.ok).map((r) => `${r.id}: ${r.problems[0]}`);
      expect(bad, suite.id).toEqual([]);
      expect(report.played).toHaveLength(2);
      // Not vacuous: episodes were played, observations seen, probes sent.
      const covered = Object.fromEntries(report.results.map((r) => [r.id, r.covered]));
      expect(covered.observations, suite.id).toMatch(/2 tasks, [1-9]\d* observations/);
      expect(covered["invalid-actions"], suite.id).toMatch(/^[1-9]\d* probes/);
      // A suite that states its goals for --memory oracle-state had them checked.
      expect(covered["goal-state"], suite.id).toMatch(
        suite.goalState ? /^[1-9]\d* goal states/ : /defines no goalState/,
      );
    }
    // The determinism check compiles each suite twice; MAGMA's compile plays every candidate
    // mission with its expert (about 6 s CPU each time).
  }, 300_000);

  it("finds a goal state that reveals what is hidden, or is malformed", async () => {
    // The walls are hidden; a goal state naming a wall cell reveals an unrevealed value.
    const wallsHidden = (latent: Json) =>
      ((latent as { walls: number[][] }).walls ?? []).map((w) => `wall ${w.join(",")}`);
    const leaky = gridWith(() => ({}), {
      hidden: wallsHidden,
      goalState: (latent) => ({ remaining: wallsHidden(latent).slice(0, 1), completed: [] }),
    });
    const found = problems(await checkSuite(leaky, { limit: 1 }), "goal-state");
    expect(found[0]).toMatch(
      /the goal state at the non-privileged card of grid\/s3\/0 shows "wall \d,\d", which suite\.hidden\(\) says is hidden now/,
    );
    const malformed = gridWith(() => ({}), {
      goalState: () =>
        ({ remaining: "all of them" }) as unknown as { remaining: []; completed: [] },
    });
    expect(problems(await checkSuite(malformed, { limit: 1 }), "goal-state")[0]).toMatch(
      /goal state at the non-privileged card of grid\/s3\/0.*remaining.*fix goalState\(\)/,
    );
    // The fixture's own goal state names only the goal cell, which its card shows.
    const honest = gridWith(() => ({}), { hidden: wallsHidden });
    expect(failed(await checkSuite(honest, { limit: 1 }))).toEqual([]);
  });

  it("finds a compiler that is not a pure function of its options", async () => {
    const base = gridSuite(1);
    let calls = 0;
    const report = await checkSuite({
      ...base,
      compile: (o) => base.compile(o).map((s) => ({ ...s, seed: `${s.seed}${calls++}` })),
    });
    expect(failed(report)).toEqual(["compile"]);
    expect(problems(report, "compile")[0]).toMatch(
      /different specs on a second call \(specs\[0\]\.seed: .*\): compile must be a pure function/,
    );
  });

  it("finds an environment that throws on an invalid action, or does not type it", async () => {
    const throwing = gridWith((env) => ({
      step: (a) => {
        if (a.kind === "tool" && a.calls[0]?.tool !== "move") throw new Error("no such tool");
        return env.step(a);
      },
    }));
    const report = await checkSuite(throwing, { limit: 1 });
    expect(problems(report, "invalid-actions")[0]).toMatch(
      /step\(\) threw on a call of an unknown tool \(grid\/s3\/0\): Error: no such tool; answer with info\.invalid/,
    );
    const untyped = gridWith((env) => ({
      step: async (a) => {
        const { invalid: _dropped, ...info } = (await env.step(a)).info;
        return { ...(await env.step({ kind: "wait" })), info };
      },
    }));
    expect(problems(await checkSuite(untyped, { limit: 1 }), "invalid-actions")[0]).toMatch(
      /an unknown tool \(grid\/s3\/0\) came back without info\.invalid/,
    );
  });

  it("finds privileged data in what a non-privileged agent sees", async () => {
    const leaky = gridWith((env) => ({
      reset: async () => {
        const observation = await env.reset();
        return {
          ...observation,
          view: { ...(observation.view as object), latent: env.latent?.() },
        };
      },
    }));
    const report = await checkSuite(leaky, { limit: 1 });
    expect(problems(report, "privileged")).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/first observation of grid\/s3\/0 has a field "\$\.view\.latent"/),
        expect.stringMatching(/first observation of grid\/s3\/0 embeds the whole latent state/),
      ]),
    );
    // A suite rule: the goal cell is secret; the grid shows it in every view.
    const secretGoal = gridWith(() => ({}), {
      hidden: (_latent, spec) => [`goal is ${spec.payload.goal.join(",")}`],
    });
    const goalInTitle = gridWith(
      (env) => ({
        describe: () => {
          const card = env.describe();
          return {
            ...card,
            title: `${card.title}; the goal is ${(card.title.match(/\d+,\d+/) ?? [""])[0]}`,
          };
        },
      }),
      { hidden: (_latent, spec) => [`goal is ${spec.payload.goal.join(",")}`] },
    );
    expect(failed(await checkSuite(secretGoal, { limit: 1 }))).toEqual([]);
    expect(problems(await checkSuite(goalInTitle, { limit: 1 }), "privileged")[0]).toMatch(
      /the non-privileged card of grid\/s3\/0 shows "goal is \d,\d", which suite\.hidden\(\) says is hidden now/,
    );
  });

  it("finds latent state that is not JSON data", async () => {
    class Live {
      position = [0, 0];
    }
    const live = gridWith(() => ({ latent: () => new Live() as unknown as Json }));
    expect(problems(await checkSuite(live, { limit: 1 }), "latent")[0]).toMatch(
      /latent\(\) is a Live object .*must return plain JSON data/,
    );
  });

  it("finds a scorer that does not depend on the trace alone", async () => {
    const base = gridSuite(1);
    let n = 0;
    const report = await checkSuite(
      {
        ...base,
        score: (spec, outcome, trace) => ({
          ...base.score(spec, outcome, trace),
          metrics: { calls: n++ },
        }),
      },
      { limit: 1 },
    );
    expect(problems(report, "rescore")[0]).toMatch(
      /re-scoring the random trace of grid\/s3\/0 changed the record \(record\.metrics\.calls: \d+ vs \d+\)/,
    );
  });

  it("finds a close() that fails the second time, and non-deterministic play", async () => {
    const closeOnce = gridWith(() => {
      let closed = false;
      return {
        close: () => {
          if (closed) throw new Error("already closed");
          closed = true;
        },
      };
    });
    expect(problems(await checkSuite(closeOnce, { limit: 1 }), "close")[0]).toMatch(
      /close\(\) called a second time on grid\/s3\/0 threw Error: already closed/,
    );
    let episodes = 0;
    const drifting = gridWith((env) => {
      const shift = episodes++;
      return {
        reset: async () => ({ ...(await env.reset()), simTime: shift }),
      };
    });
    expect(problems(await checkSuite(drifting, { limit: 1 }), "determinism")[0]).toMatch(
      /two runs of grid\/s3\/0 with seed "check" differ \(trace\.steps\[0\]\.observation\.simTime: \d+ vs \d+\)/,
    );
  });

  it("finds invalid cards and plans", async () => {
    const noModes = gridWith((env) => ({ describe: () => ({ ...env.describe(), modes: [] }) }), {
      dimensions: ["size", "colour"],
      subsets: {
        big: (spec) => {
          if (spec.payload.size > 5) throw new Error("too big");
          return true;
        },
      },
    });
    const report = await checkSuite(noModes, { limit: 1 });
    expect(problems(report, "cards")[0]).toMatch(
      /the task card of grid\/s3\/0 is not valid: modes: .*; fix describe\(\)/,
    );
    expect(problems(report, "plan")).toEqual([
      'dimension "colour" is no tag of any spec: reports would group by nothing',
      expect.stringMatching(/^subset "big" threw Error: too big: subset predicates must accept/),
    ]);
  });
});
