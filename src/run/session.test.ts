import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { type GridPayload, gridSuite } from "../../test/fixtures/grid-suite.ts";
import {
  AdaptiveLimiter,
  type Agent,
  type Decision,
  type Environment,
  type EpisodeRecord,
  LonghaulError,
  PRIVILEGED_ACCESS,
  type Suite,
  type Trace,
} from "../core/index.ts";
import { runEpisode } from "./episode.ts";
import { FORMAT_ERROR_EVENT } from "./layers.ts";
import { planEpisodes } from "./plan.ts";
import { EpisodeSession } from "./session.ts";

const TASK = "grid/s5/1";
const move = (direction: string): Decision => ({
  action: { kind: "tool", calls: [{ tool: "move", args: { direction } }] },
  raw: `move ${direction}`,
});

/** A fixed script: an unusable output, an invalid call, a malformed action, moves, finish. */
const SCRIPT: Decision[] = [
  { formatError: "no JSON in reply", raw: "hmm" },
  { action: { kind: "tool", calls: [{ tool: "fly", args: {} }] } },
  { action: { kind: "jump" } as never, raw: "jump" },
  move("east"),
  { action: { kind: "wait" }, note: "thinking" },
  move("south"),
  { action: { kind: "finish" } },
];

function scripted(decisions: Decision[]): Agent {
  return {
    id: "scripted",
    start: () => {
      let i = 0;
      return { act: async () => decisions[i++] ?? { action: { kind: "finish" } } };
    },
  };
}

/** Records and traces without wall-clock fields. */
function comparable(value: { record: EpisodeRecord; trace?: Trace }) {
  const { wallMs: _w, ...record } = value.record;
  const trace = value.trace && { ...value.trace, record: { ...value.trace.record, wallMs: 0 } };
  return { record, trace };
}

/** The grid suite with an environment wrapped to count close() and inject faults. */
function instrumented(
  faults: { step?: boolean; close?: boolean; outcome?: boolean; make?: boolean } = {},
) {
  const base = gridSuite();
  const counts = { made: 0, closed: 0 };
  const suite: Suite<GridPayload> = {
    ...base,
    async make(spec, options) {
      if (faults.make) throw new Error("simulator failed to boot");
      const env = (await base.make(spec, options)) as Environment;
      counts.made++;
      return {
        describe: () => env.describe(),
        reset: () => env.reset(),
        step: async (action) => {
          if (faults.step) throw new Error("simulator crashed");
          return env.step(action);
        },
        outcome: async () => {
          if (faults.outcome) throw new Error("no outcome");
          return env.outcome();
        },
        latent: () => env.latent?.() ?? null,
        close: () => {
          counts.closed++;
          if (faults.close) throw new Error("cannot free the simulator");
        },
      };
    },
  };
  return { suite, counts, spec: base.compile().find((s) => s.id === TASK)! };
}

describe("EpisodeSession", () => {
  it("gives an outside driver the same record and trace as the runner", async () => {
    const suite = gridSuite();
    const [planned] = planEpisodes(suite, { epochs: 1, taskIds: [TASK] });
    const viaRunner = await runEpisode({
      suite,
      agent: scripted(SCRIPT),
      planned: planned!,
      seed: "s",
      access: { level: "observe", privileged: false, grants: [] },
      gate: new AdaptiveLimiter(1),
      signal: new AbortController().signal,
      maxConsecutiveFormatErrors: 3,
    });
    if (viaRunner.kind !== "done") throw new Error("abandoned");

    const session = await EpisodeSession.open({
      suite,
      spec: planned!.spec,
      agent: "scripted",
      seed: "s",
    });
    expect(session.card.budgets).toEqual(suite.budgets);
    expect(session.observation.events[0]?.type).toBe("start");
    const first = await session.submit(SCRIPT[0]!);
    expect(first.result).toBeUndefined();
    expect(first.observation.events.at(-1)).toEqual({
      type: FORMAT_ERROR_EVENT,
      text: "no JSON in reply",
    });
    const second = await session.submit(SCRIPT[1]!);
    expect(second.result?.info.invalid?.code).toBe("unknown-tool");
    for (const decision of SCRIPT.slice(2)) {
      if (session.ended) break;
      await session.submit(decision);
    }
    expect(session.ended).toEqual({ endedBy: "terminated", truncated: false });
    const direct = await session.finish();
    expect(direct.record).toMatchObject({ steps: 7, formatErrors: 2 });
    expect(direct.record.invalidActions).toBe(
      direct.trace?.steps.filter((s) => s.result?.info.invalid).length,
    );
    expect(comparable(direct)).toEqual(comparable(viaRunner));
    // finish() is idempotent: the same result, the environment closed once.
    expect(await session.finish()).toBe(await session.finish());
  });

  it("records an episode the driver abandons, and refuses decisions after the end", async () => {
    const { suite, counts, spec } = instrumented();
    const session = await EpisodeSession.open({ suite, spec, agent: "client" });
    await session.submit(move("east"));
    const { record, trace } = await session.finish({ endedBy: "abandoned" });
    expect(record).toMatchObject({ endedBy: "abandoned", status: "failure", category: "QUIT" });
    expect(trace?.steps).toHaveLength(1);
    expect(counts.closed).toBe(1);
    await expect(session.submit(move("west"))).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("refuses a decision while another is being applied", async () => {
    const session = await EpisodeSession.open({
      suite: gridSuite(),
      spec: gridSuite().compile()[0]!,
      agent: "client",
    });
    const first = session.submit({ action: { kind: "wait" } });
    await expect(session.submit({ action: { kind: "wait" } })).rejects.toThrow(/still applying/);
    await first;
    await session.close();
  });

  it("ends on maxSteps after the decision that reaches it and marks that result truncated", async () => {
    const session = await EpisodeSession.open({
      suite: gridSuite(),
      spec: gridSuite().compile()[0]!,
      agent: "client",
      budgets: { maxSteps: 2 },
    });
    expect((await session.submit({ action: { kind: "wait" } })).ended).toBeUndefined();
    const last = await session.submit({ action: { kind: "wait" } });
    expect(last.ended).toEqual({ endedBy: "maxSteps", truncated: false });
    expect(last.result?.truncated).toBe(true);
    expect((await session.finish()).record).toMatchObject({
      endedBy: "maxSteps",
      category: "TIME",
    });
  });

  it("ends on the wall clock while the driver waits, aborting its signal", async () => {
    const { suite, counts, spec } = instrumented();
    const session = await EpisodeSession.open({
      suite,
      spec,
      agent: "client",
      budgets: { maxWallMs: 15 },
    });
    await sleep(40);
    expect(session.ended?.endedBy).toBe("maxWallMs");
    expect(session.signal.aborted).toBe(true);
    const { record } = await session.finish();
    expect(record).toMatchObject({ endedBy: "maxWallMs", category: "TIME", steps: 0 });
    expect(counts.closed).toBe(1);
  });

  it("supports async make and outcome, and closes the environment on every path", async () => {
    const normal = instrumented();
    const ok = await EpisodeSession.open({ ...normal, agent: "a" });
    await ok.submit({ action: { kind: "finish" } });
    expect((await ok.finish()).record.status).toBe("failure");
    expect(normal.counts).toEqual({ made: 1, closed: 1 });

    const crashing = instrumented({ step: true });
    const crash = await runEpisode({
      suite: crashing.suite,
      agent: scripted([move("east")]),
      planned: { episodeId: `${TASK}@0`, spec: crashing.spec, epoch: 0 },
      seed: "s",
      access: { level: "observe", privileged: false, grants: [] },
      gate: new AdaptiveLimiter(1),
      signal: new AbortController().signal,
      maxConsecutiveFormatErrors: 3,
    });
    expect(crash).toMatchObject({ kind: "done", record: { status: "invalid", category: "ERR" } });
    expect(crash.kind === "done" && crash.record.error).toMatch(/simulator crashed/);
    expect(crashing.counts.closed).toBe(1);

    const aborted = instrumented();
    const controller = new AbortController();
    const hanging: Agent = {
      id: "hang",
      start: () => ({
        act: () => {
          controller.abort();
          return new Promise<Decision>(() => undefined);
        },
      }),
    };
    const abandoned = await runEpisode({
      suite: aborted.suite,
      agent: hanging,
      planned: { episodeId: `${TASK}@0`, spec: aborted.spec, epoch: 0 },
      seed: "s",
      access: { level: "observe", privileged: false, grants: [] },
      gate: new AdaptiveLimiter(1),
      signal: controller.signal,
      maxConsecutiveFormatErrors: 3,
    });
    expect(abandoned.kind).toBe("abandoned");
    expect(aborted.counts.closed).toBe(1);

    const closeFails = instrumented({ close: true });
    const failing = await EpisodeSession.open({ ...closeFails, agent: "a" });
    await failing.submit({ action: { kind: "finish" } });
    const { record } = await failing.finish();
    expect(record).toMatchObject({ status: "invalid", category: "ERR" });
    expect(record.error).toMatch(/closing the environment failed: .*cannot free/);
    expect(closeFails.counts.closed).toBe(1);
    await expect(failing.close()).rejects.toThrow(/cannot free/);
    expect(closeFails.counts.closed).toBe(1);

    const outcomeFails = instrumented({ outcome: true });
    const noOutcome = await EpisodeSession.open({ ...outcomeFails, agent: "a" });
    expect((await noOutcome.finish()).record.error).toMatch(/no outcome/);
    expect(outcomeFails.counts.closed).toBe(1);
  });

  it("starts ended when the environment cannot be made, and records why", async () => {
    const { suite, spec } = instrumented({ make: true });
    const session = await EpisodeSession.open({ suite, spec, agent: "a" });
    expect(session.ended?.endedBy).toBe("error");
    expect(() => session.card).toThrow(/did not start: Error: simulator failed to boot/);
    const { record, trace } = await session.finish();
    expect(record).toMatchObject({ status: "invalid", endedBy: "error", steps: 0 });
    expect(trace).toBeUndefined();
  });

  it("hands privileged drivers a fresh JSON copy of the latent state, and no one else", async () => {
    const suite = gridSuite();
    const spec = suite.compile()[0]!;
    const observer = await EpisodeSession.open({ suite, spec, agent: "a" });
    expect(() => observer.latent()).toThrow(LonghaulError);
    const oracle = await EpisodeSession.open({
      suite,
      spec,
      agent: "oracle",
      access: PRIVILEGED_ACCESS,
    });
    const snapshot = oracle.latent() as { position: number[] };
    expect(snapshot.position).toEqual(spec.payload.start);
    snapshot.position[0] = 99;
    expect((oracle.latent() as { position: number[] }).position).toEqual(spec.payload.start);
    await Promise.all([observer.close(), oracle.close()]);
  });
});
