/**
 * Playground (issue 15): simulation speed of the launcher scenes (simulated seconds per CPU
 * second, one core, over whole reference episodes: aiming, reloading, flight and settling) and
 * the reference controllers over every implemented task in all four conditions, in process,
 * each episode played as a run plays it (playEpisode: the session, its layers and the trace).
 * CPU time (process.cpuUsage) is reported beside wall time: on a shared machine wall time
 * measures the load as much as the code. Then the ceiling of each launcher scene: the cost of
 * one MuJoCo step with the scene at rest (nothing moving, the fewest contacts it ever has), and
 * with every constraint disabled (dynamics and collision only), which bound what any episode of
 * that scene can reach at Table 4's 1 kHz.
 */
import { createAgent } from "../src/agents/index.ts";
import type { TaskSpec } from "../src/core/index.ts";
import { mujoco, Sim } from "../src/physics/index.ts";
import { playEpisode } from "../src/run/index.ts";
import { loadSandbox } from "../src/suites/playground/code-mode.ts";
import { playgroundSuite } from "../src/suites/playground/index.ts";
import { launchScenes } from "../src/suites/playground/launch/scene.ts";
import { launchScene } from "../src/suites/playground/launch/tasks.ts";
import { launchMjcf } from "../src/suites/playground/launch/world.ts";
import type { PlaygroundPayload } from "../src/suites/playground/payload.ts";

const only = process.env.PLAYGROUND_BENCH_ONLY;
const specs = (playgroundSuite.compile() as TaskSpec<PlaygroundPayload>[]).filter(
  (s) => !only || s.id.startsWith(only),
);
const { agent } = await createAgent("reference", {}, playgroundSuite);
const perCondition = [0, 0, 0, 0];
const perConditionTotal = [0, 0, 0, 0];
const launchRates: { id: string; type: string; rate: number }[] = [];
const failures: string[] = [];
let towerSim = 0;
let towerCpu = 0;
let launchSim = 0;
let launchCpu = 0;

const cpuSeconds = (since?: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};
const started = performance.now();
const cpuStart = process.cpuUsage();
// Load and compile the WebAssembly modules once, outside the per-scene rates (the first episode
// of a process pays it; it is in the total).
const loadCpu = process.cpuUsage();
await mujoco();
await loadSandbox();
const moduleCpu = cpuSeconds(loadCpu);
for (const spec of specs) {
  const cpu0 = process.cpuUsage();
  const { record } = await playEpisode(playgroundSuite, spec, agent, "bench");
  const cpuS = cpuSeconds(cpu0);
  const simTime = (record.metrics?.simTime as number | null) ?? 0;
  const c = spec.payload.condition;
  perConditionTotal[c]!++;
  if (record.status === "success") perCondition[c]!++;
  else failures.push(`${spec.id} ${record.category ?? record.status}`);
  if (spec.payload.family === "launcher") {
    launchRates.push({ id: spec.id, type: spec.payload.entry.type, rate: simTime / cpuS });
    launchSim += simTime;
    launchCpu += cpuS;
  } else {
    towerSim += simTime;
    towerCpu += cpuS;
  }
}
const totalS = (performance.now() - started) / 1000;
const totalCpu = cpuSeconds(cpuStart);

const summary = (rates: number[]) => {
  const sorted = [...rates].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return `min ${at(0).toFixed(0)}x, median ${at(0.5).toFixed(0)}x, max ${sorted.at(-1)!.toFixed(0)}x`;
};
console.log(
  `reference controllers: ${specs.length} task conditions in ${totalS.toFixed(1)} s wall, ${totalCpu.toFixed(1)} s CPU (of which loading the WebAssembly modules ${moduleCpu.toFixed(1)} s)`,
);
console.log(
  `  solved per condition: ${perCondition.map((n, i) => `c${i + 1} ${n}/${perConditionTotal[i]}`).join(", ")}`,
);
if (failures.length) console.log(`  failed: ${failures.join("; ")}`);
if (launchRates.length) {
  console.log(
    `launcher scenes, simulated s per CPU s over reference episodes (1 kHz physics): ${summary(launchRates.map((r) => r.rate))}; all together ${(launchSim / launchCpu).toFixed(0)}x over ${launchSim.toFixed(0)} simulated s`,
  );
  for (const type of ["Aim", "Causal", "Glass", "Rules"]) {
    const rates = launchRates.filter((r) => r.type === type).map((r) => r.rate);
    if (rates.length) console.log(`  ${type}: ${summary(rates)}`);
  }
  const byTask = new Map<string, number[]>();
  for (const r of launchRates) {
    const task = r.id.split("/")[0]!;
    byTask.set(task, [...(byTask.get(task) ?? []), r.rate]);
  }
  const slow = [...byTask].filter(([, rates]) => Math.min(...rates) < 100);
  console.log(
    `  below 100x (slowest condition): ${slow.map(([t, rates]) => `${t} ${Math.min(...rates).toFixed(0)}x`).join(", ") || "none"}`,
  );
}
if (towerCpu > 0) {
  console.log(
    `hanoi (120 Hz physics): ${(towerSim / towerCpu).toFixed(0)}x real time per CPU s over ${towerSim.toFixed(0)} simulated s`,
  );
}

/** CPU microseconds per physics step of each sim, best of interleaved blocks (load spikes cancel). */
function restCosts(sims: Sim[]): number[] {
  const best = sims.map(() => Number.POSITIVE_INFINITY);
  for (const sim of sims) sim.step(1000);
  for (let block = 0; block < 8; block++) {
    sims.forEach((sim, i) => {
      const cpu0 = process.cpuUsage();
      sim.step(250);
      const u = process.cpuUsage(cpu0);
      best[i] = Math.min(best[i]!, (u.user + u.system) / 250);
    });
  }
  return best;
}

if (launchRates.length) {
  const mj = await mujoco();
  const rest: { index: string; us: number; floor: number; ncon: number }[] = [];
  for (const [index, file] of launchScenes()) {
    if (!launchRates.some((r) => r.id.startsWith(`${index}/`))) continue;
    const xml = launchMjcf(launchScene(file, 0));
    const sims = [
      Sim.fromXmlSync(mj, xml),
      Sim.fromXmlSync(mj, xml.replace("<flag ", `<flag constraint="disable" `)),
    ];
    const [us, floor] = restCosts(sims);
    rest.push({ index, us: us!, floor: floor!, ncon: sims[0]!.data.ncon });
    for (const sim of sims) sim.close();
  }
  const line = (label: string, pick: (r: (typeof rest)[number]) => number) => {
    const sorted = [...rest].sort((a, b) => pick(a) - pick(b));
    const fmt = (r: (typeof rest)[number]) =>
      `${pick(r).toFixed(1)} us (${(1000 / pick(r)).toFixed(0)}x, ${r.index})`;
    return `  ${label}: cheapest ${fmt(sorted[0]!)}, median ${fmt(sorted[Math.floor(sorted.length / 2)]!)}, dearest ${fmt(sorted.at(-1)!)}`;
  };
  console.log("launcher scenes at rest, CPU per 1 ms physics step (best of 8 interleaved blocks):");
  console.log(line("at rest", (r) => r.us));
  console.log(line("constraints disabled", (r) => r.floor));
  const over = rest.filter((r) => r.us < 10);
  console.log(
    `  at rest under 10 us (the 100x ceiling): ${over.map((r) => r.index).join(", ") || "none"}; resting contacts ${Math.min(...rest.map((r) => r.ncon))}-${Math.max(...rest.map((r) => r.ncon))}`,
  );
}
