/**
 * World engine bench: environment steps per second (preconditions, effects, event matching,
 * view projection) on RoboGraph-size scenes, the phased check/apply/fire loop a simulator
 * runs with three robots, and oracle planning time over generated scenes.
 * Run: npx tsx bench/world.bench.ts
 */

import { Rng } from "../src/core/index.ts";
import {
  ACTION_CATALOG,
  type ActionName,
  type CheckedAction,
  type EventSchedule,
  planOracle,
  type RandomSceneOptions,
  randomScene,
  World,
  type WorldAction,
} from "../src/world/index.ts";

const schedule: EventSchedule = [
  {
    id: "i1",
    trigger: { on: "action_success" },
    rewrites: [],
    timing: "suppress",
    maxFires: 20,
    oncePerAction: true,
  },
  {
    id: "i3",
    trigger: { on: "goal_fact", pred: "INSIDE" },
    rewrites: [{ op: "relocate", node: "$object", rel: "ON", target: "table_0" }],
    timing: "after_action",
    maxFires: 1,
    oncePerAction: false,
  },
];

/** Rate per wall second and per CPU second (the machine may be shared: CPU time is steadier). */
function rates(count: number, t0: number, cpu0: NodeJS.CpuUsage): string {
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return `${Math.round((count / ms) * 1000)}/s wall, ${Math.round((count / cpuMs) * 1000)}/s CPU`;
}

function stepBench(): void {
  const { scene, goal } = randomScene("bench", { rooms: 2, objects: 10, containers: 4, goals: 6 });
  const edges = scene.edges.length;
  const rng = new Rng("bench", "actions");
  const ids = scene.nodes.map((n) => n.id);
  const names = (Object.keys(ACTION_CATALOG) as ActionName[]).filter((n) => n !== "stop");
  const actions: WorldAction[] = Array.from({ length: 4096 }, () => {
    const name = rng.pick(names);
    const arity = ACTION_CATALOG[name].parameters.length;
    return { name, args: Array.from({ length: arity }, () => rng.pick(ids)) };
  });
  const total = 300_000;
  let world = new World(scene, goal, schedule);
  let ok = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < total; i++) {
    if (i % 200 === 0) world = new World(scene, goal, schedule);
    const r = world.step(actions[i % actions.length] as WorldAction);
    if (r.feedback.status === "success") ok++;
    world.view();
  }
  console.log(
    `step+view: ${scene.nodes.length} nodes, ${edges} edges: ${rates(total, t0, cpu0)} steps (${total} steps, ${((100 * ok) / total).toFixed(0)}% successful, world reset every 200 steps)`,
  );
}

function replayBench(): void {
  const { scene, goal } = randomScene("bench", { rooms: 2, objects: 10, containers: 4, goals: 6 });
  const plan = planOracle(new World(scene, goal).latentState(), new World(scene, goal).goalAtoms());
  const actions = plan?.actions ?? [];
  const rounds = 10_000;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (let r = 0; r < rounds; r++) {
    const world = new World(scene, goal, schedule);
    for (const a of actions) {
      world.step(a);
      world.view();
    }
  }
  const steps = rounds * actions.length;
  console.log(
    `oracle replay (mostly successful steps, events armed, world built per rollout): ${rates(steps, t0, cpu0)} steps (${steps} steps)`,
  );
}

/**
 * A simulator's loop: three robots, every action checked when it starts and applied two
 * decisions later (re-checked when the world changed), its events fired, the clock ticked
 * (a time trigger is armed), and the acting robot's view projected.
 */
function phasedBench(): void {
  const { scene, goal } = randomScene("bench", {
    rooms: 2,
    objects: 10,
    containers: 4,
    goals: 6,
    robots: 3,
  });
  const timed: EventSchedule = [
    ...schedule,
    {
      id: "mu",
      trigger: { on: "time", at: 150 },
      rewrites: [{ op: "extend_goal", atoms: [] }],
      timing: "after_action",
      maxFires: 1,
      oncePerAction: false,
    },
  ];
  const rng = new Rng("bench", "phased");
  const ids = scene.nodes.map((n) => n.id);
  const robots = scene.robots.map((r) => r.id);
  const names = (Object.keys(ACTION_CATALOG) as ActionName[]).filter((n) => n !== "stop");
  const actions: WorldAction[] = Array.from({ length: 4096 }, () => {
    const name = rng.pick(names);
    const arity = ACTION_CATALOG[name].parameters.length;
    const args = Array.from({ length: arity }, () => rng.pick(ids));
    return { name, args, robot: rng.pick(robots) };
  });
  const total = 300_000;
  let world = new World(scene, goal, timed);
  let pending: CheckedAction[] = [];
  let applied = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < total; i++) {
    if (i % 200 === 0) {
      world = new World(scene, goal, timed);
      pending = [];
    }
    const action = actions[i % actions.length] as WorldAction;
    const c = world.check(action);
    if (c.ok) pending.push(c.checked);
    else world.recordRejection(c);
    if (pending.length > 2) {
      const done = world.apply(pending.shift() as CheckedAction);
      world.fire(done);
      if (done.feedback.status === "success") applied++;
    }
    world.tick({ step: world.stepCount + 1, time: world.time + 1 });
    world.view(action.robot);
  }
  console.log(
    `phased check/apply/fire/tick+view, 3 robots: ${rates(total, t0, cpu0)} decisions (${total} decisions, ${((100 * applied) / total).toFixed(0)}% applied successfully, world reset every 200)`,
  );
}

/** Plan a batch of random scenes; prints lengths, wall and CPU time, and expansions. */
function planBatch(label: string, count: number, options: (k: number) => RandomSceneOptions): void {
  const lengths: number[] = [];
  const times: number[] = [];
  let expanded = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (let k = 0; k < count; k++) {
    const { scene, goal } = randomScene(`plan-${k}`, options(k));
    const world = new World(scene, goal);
    const t = performance.now();
    const plan = planOracle(world.latentState(), world.goalAtoms());
    times.push(performance.now() - t);
    lengths.push(plan?.actions.length ?? -1);
    expanded += plan?.expanded ?? 0;
  }
  const total = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const mean = lengths.reduce((a, b) => a + b, 0) / lengths.length;
  times.sort((a, b) => a - b);
  console.log(
    `planner, ${label}: ${count} scenes, mean optimal length ${mean.toFixed(1)}, total ${total.toFixed(0)} ms (cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms), median ${times[count >> 1]?.toFixed(1)} ms, max ${times[count - 1]?.toFixed(0)} ms, ${expanded} expansions`,
  );
}

function planBench(): void {
  planBatch("1-2 rooms (~18 nodes)", 40, (k) => ({
    rooms: k % 3 === 0 ? 2 : 1,
    objects: 10,
    containers: 4,
    goals: 7,
  }));
  planBatch("3 rooms, 8 placements", 20, () => ({
    rooms: 3,
    objects: 10,
    containers: 4,
    goals: 8,
  }));
}

stepBench();
replayBench();
phasedBench();
planBench();
