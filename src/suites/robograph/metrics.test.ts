import { describe, expect, it } from "vitest";
import type { Trace } from "../../core/index.ts";
import { countRedundant, episodeMetrics, f1, recoveryCounts } from "./metrics.ts";
import type { OutcomeData } from "./outcome.ts";
import { recovery, stepLog, traceOf } from "./test-support.ts";

// Episode A (I1): the agent opens a drawer, suffers an injected grab failure, retries,
// repeats an open on the already-open drawer, moves a book aside and finishes correctly.
const episodeA: OutcomeData = {
  condition: "i1",
  domain: "tabletop",
  oracleLength: 6,
  goalTotal: 4,
  goalInitial: 1,
  goalFinal: 4,
  stopStep: 8,
  goalAtStop: true,
  relevantHidden: ["lip", "pen", "cream"],
  interventions: [{ kind: "I1", step: 1, detail: "grab failed" }],
  steps: [
    stepLog(0, "open(d1)", [6, 5], { revealed: ["lip"] }),
    stepLog(1, "grab(lip)", [5, 5], { status: "failure", failureType: "injected", injected: true }),
    stepLog(2, "grab(lip)", [5, 4]),
    stepLog(3, "putin(lip,bag)", [4, 3]),
    stepLog(4, "open(d1)", [3, 3], { status: "failure", failureType: "already_open" }),
    stepLog(5, "move_aside(book)", [3, 2], { revealed: ["pen"] }),
    stepLog(6, "grab(pen)", [2, 1]),
    stepLog(7, "putin(pen,bag)", [1, 0]),
    stepLog(8, "stop", [0, 0]),
  ],
};
const extrasA = [
  recovery(false),
  recovery(false),
  recovery(true, "grab", ["lip name"]), // tp, grounded by name
  recovery(false), // tn
  recovery(true, "putin", ["lip", "bag"]), // fp
  recovery(false), // fn: open(d1) had failed
  recovery(false),
  recovery(false),
  recovery(false),
];

describe("episodeMetrics (golden, hand-checked)", () => {
  it("scores episode A", () => {
    const { success, category, metrics } = episodeMetrics(episodeA, traceOf(episodeA, extrasA));
    expect(success).toBe(true);
    expect(category).toBeUndefined();
    expect(metrics.sr).toBe(100);
    expect(metrics.ns).toBe(8);
    expect(metrics.ssal).toBeCloseTo(0.75, 10); // 6 / max(6, 8)
    expect(metrics.aer).toBeCloseTo(87.5, 10); // 6 successes + 1 injected of 8
    expect(metrics.rar).toBeCloseTo(12.5, 10); // only the second open(d1)
    expect(metrics.seg).toBeCloseTo(200 / 3, 10); // lip and pen of three
    // (1/6 + 0 + 1/5 + 1/4 + 0 + 1/3 + 1/2 + 1/1) / 8
    expect(metrics.adr).toBeCloseTo(30.625, 10);
    expect(metrics.ngp).toBe(100);
    expect(metrics.triggered).toBe(1);
    expect(metrics.irr).toBe(100);
    expect(metrics.latency).toBe(7);
    expect(metrics.term_correct).toBe(100);
    expect(metrics.term_premature).toBe(0);
    expect(metrics.term_neither).toBe(0);
    expect([metrics.rd_tp, metrics.rd_fp, metrics.rd_fn]).toEqual([1, 1, 1]);
    expect(metrics.f1_rd).toBeCloseTo(50, 10);
    expect(metrics.acc_rg).toBe(100);
  });

  it("scores a premature stop without recovery fields", () => {
    const b: OutcomeData = {
      ...episodeA,
      condition: "base",
      oracleLength: 3,
      goalTotal: 5,
      goalInitial: 2,
      goalFinal: 3,
      stopStep: 2,
      goalAtStop: false,
      relevantHidden: [],
      interventions: [],
      steps: [
        stepLog(0, "grab(x)", [4, 3]),
        stepLog(1, "puton(x,t)", [3, 2]),
        stepLog(2, "stop", [2, 2]),
      ],
    };
    const { success, category, metrics } = episodeMetrics(b, traceOf(b, []));
    expect(success).toBe(false);
    expect(category).toBe("PREMATURE");
    expect(metrics.ssal).toBe(0);
    expect(metrics.ngp).toBeCloseTo(100 / 3, 10);
    expect(metrics.adr).toBeCloseTo((100 * (1 / 4 + 1 / 3)) / 2, 10);
    expect(metrics.seg).toBeNull();
    expect(metrics.triggered).toBeNull();
    expect(metrics.irr).toBeNull();
    expect(metrics.f1_rd).toBeNull();
    expect(metrics.acc_rg).toBeNull();
    expect(metrics.term_premature).toBe(100);
  });

  it("scores an untriggered intervention episode that runs out of steps", () => {
    const c: OutcomeData = {
      ...episodeA,
      condition: "i3",
      goalFinal: 1,
      stopStep: null,
      goalAtStop: false,
      interventions: [],
      steps: [
        stepLog(0, "observe", [2, 2]),
        stepLog(1, "observe", [2, 2]),
        stepLog(2, "observe", [2, 2]),
      ],
    };
    const { category, metrics } = episodeMetrics(c, traceOf(c, []));
    expect(category).toBe("TIME");
    expect(metrics.rar).toBeCloseTo(200 / 3, 10);
    expect(metrics.aer).toBe(100);
    expect(metrics.adr).toBe(0);
    expect(metrics.ngp).toBe(0);
    expect(metrics.triggered).toBe(0);
    expect(metrics.irr).toBeNull();
    expect(metrics.latency).toBeNull();
    expect(metrics.term_neither).toBe(100);
  });
});

describe("recovery grounding", () => {
  const failedAfter = (call: string): OutcomeData => ({
    ...episodeA,
    steps: [
      stepLog(0, call, [3, 3], { status: "failure", failureType: "injected", injected: true }),
      stepLog(1, call, [3, 2]),
    ],
  });
  it("ignores argument order for attach", () => {
    const o = failedAfter("attach(cap,tube)");
    const counts = recoveryCounts(
      o,
      traceOf(o, [undefined, recovery(true, "attach", ["tube", "cap"])]),
    );
    expect(counts.groundedCorrect).toBe(1);
  });
  it("keeps argument order for directional actions", () => {
    const o = failedAfter("putin(lip,bag)");
    const counts = recoveryCounts(
      o,
      traceOf(o, [undefined, recovery(true, "putin", ["bag", "lip"])]),
    );
    expect(counts).toMatchObject({ tp: 1, groundedTotal: 1, groundedCorrect: 0 });
  });
  it("pools F1 from counts", () => {
    expect(f1({ tp: 3, fp: 1, fn: 2 })).toBeCloseTo(66.666666, 5);
    expect(f1({ tp: 0, fp: 0, fn: 0 })).toBeNull();
  });
});

describe("recovery scoring with unusable replies", () => {
  // Environment steps: 0 grab(lip) injected failure, 1 grab(lip), 2 putin(lip,bag) fails
  // (not visible), 3 putin(lip,bag), 4 stop. The agent also sent two unusable replies (after
  // observations 1 and 3), which never reached the environment. A perfect detector: it says
  // recovery at observations 1 and 3 (the previous task action failed), naming that action.
  const o: OutcomeData = {
    ...episodeA,
    steps: [
      stepLog(0, "grab(lip)", [3, 3], { status: "failure", injected: true }),
      stepLog(1, "grab(lip)", [3, 2]),
      stepLog(2, "putin(lip,bag)", [2, 2], { status: "failure", failureType: "not_visible" }),
      stepLog(3, "putin(lip,bag)", [2, 1]),
      stepLog(4, "stop", [1, 1]),
    ],
  };
  const base = traceOf(o, []);
  const decision = (obs: number, extra?: Record<string, unknown>): Trace["steps"][number] => ({
    ...(base.steps[obs] as Trace["steps"][number]),
    ...(extra ? { extra } : {}),
  });
  const unusable = (obs: number): Trace["steps"][number] => ({
    step: 0,
    observation: { step: obs, events: [], view: null },
    formatError: "reply is not a JSON object",
    extra: recovery(false),
  });
  const steps = [
    decision(0, recovery(false)),
    unusable(1),
    decision(1, recovery(true, "grab", ["lip"])),
    decision(2, recovery(false)),
    unusable(3),
    decision(3, recovery(true, "putin", ["lip", "bag"])),
    decision(4, recovery(false)),
  ].map((s, i) => ({ ...s, step: i }));
  const trace: Trace = { ...base, steps };

  it("joins trace steps to environment steps by the environment's counter", () => {
    // By trace position the detector would look wrong (F1 40, Acc 0); joined on
    // observation.step it is perfect: tp 2 (observations 1, 3), tn 2 (2, 4), no fp/fn.
    expect(recoveryCounts(o, trace)).toEqual({
      tp: 2,
      fp: 0,
      fn: 0,
      tn: 2,
      groundedCorrect: 2,
      groundedTotal: 2,
    });
    const { metrics } = episodeMetrics(o, trace);
    expect(metrics.f1_rd).toBe(100);
    expect(metrics.acc_rg).toBe(100);
  });
});

describe("RAR necessity (remaining optimal plan length)", () => {
  it("does not count an optimal return walk or a re-placement after I3 as redundant", () => {
    // Indoor: fetch x from the kitchen, carry it to the hall, go back for y. C_distance does
    // not drop on the return walk (its walk tree still needs the kitchen), the optimal plan
    // does: 2 -> 1 after walk(kitchen) at step 4. Then I3 moved y off its target (after step
    // 7); the repeated grab(y) and putin(y,t) shorten the plan again (2 -> 1 -> 0). The last
    // walk(hall) repeats without shortening anything: redundant. RAR = 1 / 10.
    const steps = [
      stepLog(0, "walk(kitchen)", [6, 5]),
      stepLog(1, "grab(x)", [5, 4]),
      stepLog(2, "walk(hall)", [4, 3]),
      stepLog(3, "puton(x,t)", [3, 3]),
      stepLog(4, "walk(kitchen)", [3, 3], { planBefore: 4, planAfter: 3 }),
      stepLog(5, "grab(y)", [3, 2]),
      stepLog(6, "walk(hall)", [2, 2], { planBefore: 2, planAfter: 1 }),
      stepLog(7, "puton(y,t)", [1, 2]),
      stepLog(8, "grab(y)", [2, 1], { planBefore: 2, planAfter: 1 }),
      stepLog(9, "puton(y,t)", [1, 0], { planBefore: 1, planAfter: 0 }),
      stepLog(10, "walk(hall)", [0, 0], { status: "failure", failureType: "not_adjacent" }),
      stepLog(11, "stop", [0, 0]),
    ];
    expect(countRedundant(steps)).toBe(1);
    const { metrics } = episodeMetrics({ ...episodeA, steps }, traceOf({ ...episodeA, steps }, []));
    expect(metrics.rar).toBeCloseTo(100 / 11, 10);
  });

  it("never counts an injected failure as redundant", () => {
    const steps = [
      stepLog(0, "grab(x)", [2, 2], { status: "failure", failureType: "not_visible" }),
      stepLog(1, "grab(x)", [2, 2], { status: "failure", injected: true }),
      stepLog(2, "grab(x)", [2, 1], { planBefore: 2, planAfter: 1 }),
    ];
    expect(countRedundant(steps)).toBe(0);
  });
});
