import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Rng } from "../core/index.ts";
import { DEPOT_CATALOG, DEPOT_GOAL, depotScene, World, type WorldAction } from "../world/index.ts";
import { EventQueue } from "./event-queue.ts";
import { type DurationModel, type SimEvent, Simulator } from "./simulator.ts";

const DURATIONS: DurationModel = {
  nominal: { move_to: 5, pick: 3, put: 3, detect: 1, switch_on: 1 },
  fallback: 1,
  jitter: 0.2,
  resolution: 0.5,
};

function depotSim(seed = "s", hooks = {}) {
  const world = new World(depotScene(), DEPOT_GOAL, [], { catalog: DEPOT_CATALOG });
  return new Simulator(world, new Rng(seed, "durations"), DURATIONS, hooks);
}

const call = (robot: string, name: string, args: string[] = []) => ({
  robot,
  skill: name,
  action: { name, args } satisfies WorldAction,
});

describe("EventQueue", () => {
  it("pops by (time, insertion id), skipping removed entries", () => {
    const entry = fc.record({ time: fc.integer({ min: 0, max: 5 }), drop: fc.boolean() });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 40 }), (entries) => {
        const q = new EventQueue<number>();
        const kept: { time: number; id: number }[] = [];
        entries.forEach(({ time, drop }, k) => {
          const e = q.push(time, k);
          if (drop) q.remove(e.id);
          else kept.push({ time, id: e.id });
        });
        kept.sort((a, b) => a.time - b.time || a.id - b.id);
        expect(q.size).toBe(kept.length);
        const popped: { time: number; id: number }[] = [];
        for (let e = q.pop(); e; e = q.pop()) popped.push({ time: e.time, id: e.id });
        expect(popped).toEqual(kept);
        expect(q.remove(0)).toBe(false);
      }),
    );
  });
});

/** A random agent script: per decision, calls for some robots, a cancel, or a wait. */
const decision = fc.record({
  arm: fc.constantFrom(
    "none",
    "pick red_box",
    "pick blue_box",
    "put red_box tray",
    "put blue_box tray",
    "detect",
    "cancel",
  ),
  cart: fc.constantFrom("none", "move_to storage", "move_to station", "detect", "cancel"),
});

function play(seed: string, script: { arm: string; cart: string }[]): SimEvent[][] {
  const sim = depotSim(seed);
  const batches: SimEvent[][] = [];
  for (const d of script) {
    for (const robot of ["arm", "cart"] as const) {
      const text = d[robot];
      if (text === "none") continue;
      const [name, ...args] = text.split(" ") as [string, ...string[]];
      if (name === "cancel") sim.cancel(robot, "cancel_current_action");
      else sim.dispatch(call(robot, name, args));
      // One skill per robot: whatever happened, at most one runs.
      expect(sim.runningSkills().filter((r) => r.call.robot === robot).length).toBeLessThanOrEqual(
        1,
      );
    }
    const batch = sim.nextBatch();
    if (!batch) break;
    batches.push(batch);
  }
  return batches;
}

describe("Simulator", () => {
  it("delivers batches in time order, every event of a batch at the batch's time", () => {
    fc.assert(
      fc.property(fc.string(), fc.array(decision, { maxLength: 25 }), (seed, script) => {
        const batches = play(seed, script);
        let last = -1;
        for (const batch of batches) {
          const t = batch[0]?.time ?? -1;
          expect(t).toBeGreaterThanOrEqual(last);
          expect(batch.every((e) => e.time === t)).toBe(true);
          last = t;
        }
      }),
    );
  });

  it("is deterministic: the same seed and decisions give the same trace", () => {
    fc.assert(
      fc.property(fc.string(), fc.array(decision, { maxLength: 20 }), (seed, script) => {
        expect(play(seed, script)).toEqual(play(seed, script));
      }),
    );
  });

  it("accepts only cancel from a busy robot, and a cancel leaves the world unchanged", () => {
    const sim = depotSim();
    const before = sim.world.latent();
    expect(sim.dispatch(call("arm", "pick", ["red_box"]))).not.toBeNull();
    expect(sim.dispatch(call("arm", "detect"))).toBeNull();
    const refusal = sim.nextBatch();
    expect(refusal).toMatchObject([{ kind: "rejected", robot: "arm", reason: "busy", time: 0 }]);
    expect(sim.cancel("arm", "cancel_current_action")).toBe(true);
    const cancelled = sim.nextBatch();
    expect(cancelled).toMatchObject([
      { kind: "skill", status: "cancelled", message: "pick was cancelled." },
    ]);
    // The pick never completes and nothing changed.
    expect(sim.nextBatch()).toBeNull();
    expect(sim.idle()).toBe(true);
    expect(sim.world.latent()).toEqual(before);
    expect(sim.cancel("arm", "cancel_current_action")).toBe(false);
    expect(sim.nextBatch()).toMatchObject([{ kind: "rejected", reason: "not_running" }]);
  });

  it("never completes a cancelled skill, whatever the schedule", () => {
    fc.assert(
      fc.property(fc.string(), fc.array(decision, { maxLength: 25 }), (seed, script) => {
        const sim = depotSim(seed);
        const cancelled = new Set<unknown>();
        for (const d of script) {
          for (const robot of ["arm", "cart"] as const) {
            const text = d[robot];
            if (text === "none") continue;
            const [name, ...args] = text.split(" ") as [string, ...string[]];
            if (name === "cancel") {
              const r = sim.busy(robot);
              if (sim.cancel(robot, "cancel_current_action") && r) cancelled.add(r.call);
            } else sim.dispatch(call(robot, name, args));
          }
          const batch = sim.nextBatch() ?? [];
          for (const e of batch)
            if (e.kind === "skill" && e.status !== "cancelled")
              expect(cancelled.has(e.call)).toBe(false);
        }
      }),
    );
  });

  it("rejects unknown robots, skills a robot lacks and unmet preconditions at once", () => {
    const sim = depotSim();
    sim.dispatch(call("drone", "detect"));
    sim.dispatch(call("cart", "pick", ["red_box"]));
    sim.dispatch(call("arm", "put", ["red_box", "tray"]));
    sim.dispatch(call("arm", "pick", ["red_box", "extra"]));
    const batch = sim.nextBatch() ?? [];
    expect(batch.map((e) => (e.kind === "rejected" ? e.reason : e.kind))).toEqual([
      "unknown_robot",
      "lacks_skill",
      "precondition",
      "bad_arguments",
    ]);
    expect(sim.time).toBe(0);
  });

  it("runs robots concurrently, applies effects at the end, batches coinciding ends", () => {
    const sim = depotSim("batch", {});
    sim.dispatch(call("arm", "pick", ["red_box"]));
    sim.dispatch(call("cart", "detect"));
    const times: number[] = [];
    const seen: string[] = [];
    for (let batch = sim.nextBatch(); batch; batch = sim.nextBatch()) {
      for (const e of batch) if (e.kind === "skill") seen.push(`${e.robot}:${e.skill}:${e.status}`);
      times.push(batch[0]?.time ?? -1);
    }
    expect(seen.sort()).toEqual(["arm:pick:succeeded", "cart:detect:succeeded"]);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(sim.world.latent().robots.find((r) => r.id === "arm")?.hands).toEqual(["red_box"]);
  });

  it("fails a skill on a frozen fault with the world unchanged, and passes masks to the report", () => {
    const sim = depotSim("f", {
      fault: (r: { call: { skill: string } }) =>
        r.call.skill === "pick"
          ? { kind: "fail", message: "grasp failed" }
          : r.call.skill === "detect"
            ? { kind: "mask", hidden: ["blue_box"] }
            : null,
      report: (_r: unknown, _w: unknown, fault: { kind: string; hidden?: string[] } | null) => ({
        message: fault?.kind === "mask" ? `saw all but ${fault.hidden?.join(",")}` : "ok",
      }),
    });
    sim.dispatch(call("arm", "pick", ["red_box"]));
    const [failed] = sim.nextBatch() ?? [];
    expect(failed).toMatchObject({ status: "failed", injected: true, message: "grasp failed" });
    expect(sim.world.latent().robots.find((r) => r.id === "arm")?.hands).toEqual([null]);
    sim.dispatch(call("arm", "detect"));
    expect(sim.nextBatch()).toMatchObject([
      { status: "succeeded", message: "saw all but blue_box" },
    ]);
  });

  it("delivers user messages in the batch due at their time, after what was due first", () => {
    const sim = depotSim();
    sim.post("hello");
    sim.dispatch(call("arm", "detect"));
    expect(sim.nextBatch()).toMatchObject([{ kind: "user", text: "hello", time: 0 }]);
    const batch = sim.nextBatch((e) => {
      if (e.kind === "skill") sim.post("and now this");
    });
    expect(batch?.map((e) => e.kind)).toEqual(["skill", "user"]);
    expect(() => sim.post("late", undefined, -1)).toThrow(RangeError);
  });
});
