/**
 * Playground (issue 15): simulation speed of the launcher scenes (simulated seconds per CPU
 * second, one core, over whole reference episodes: aiming, reloading, flight and settling) and
 * the reference controllers over every implemented task in all four conditions, in process.
 */
import { PRIVILEGED_ACCESS, type TaskSpec } from "../src/core/index.ts";
import { playgroundSuite } from "../src/suites/playground/index.ts";
import type { PlaygroundPayload } from "../src/suites/playground/payload.ts";

const specs = playgroundSuite.compile() as TaskSpec<PlaygroundPayload>[];
const reference = playgroundSuite.agents!.reference!({});
const perCondition = [0, 0, 0, 0];
const perConditionTotal = [0, 0, 0, 0];
const launchRates: { id: string; rate: number }[] = [];
const failures: string[] = [];
let towerSim = 0;
let towerCpu = 0;
const started = performance.now();
for (const spec of specs) {
  const env = playgroundSuite.make(spec, { access: PRIVILEGED_ACCESS });
  let observation = await env.reset();
  const session = await reference.start(env.describe(), {
    episodeId: spec.id,
    epoch: 0,
    rng: undefined as never,
    signal: new AbortController().signal,
    budgets: {},
    access: PRIVILEGED_ACCESS,
    gate: undefined as never,
    privileged: { spec, latent: () => env.latent?.() },
  });
  const cpu0 = process.cpuUsage();
  for (;;) {
    const { action } = await session.act(observation);
    const r = await env.step(action!);
    observation = r.observation;
    if (r.terminated || action!.kind === "finish") break;
  }
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  const outcome = env.outcome();
  const simTime = observation.simTime ?? 0;
  env.close?.();
  const c = spec.payload.condition;
  perConditionTotal[c]!++;
  if (outcome.success) perCondition[c]!++;
  else failures.push(`${spec.id} ${outcome.category}`);
  if (spec.payload.family === "launcher") launchRates.push({ id: spec.id, rate: simTime / cpuS });
  else {
    towerSim += simTime;
    towerCpu += cpuS;
  }
}
const totalS = (performance.now() - started) / 1000;
const rates = launchRates.map((r) => r.rate).sort((a, b) => a - b);
const q = (p: number) => rates[Math.min(rates.length - 1, Math.floor(p * rates.length))]!;
console.log(
  `reference controllers: ${specs.length} task conditions in ${totalS.toFixed(1)} s wall`,
);
console.log(
  `  solved per condition: ${perCondition.map((n, i) => `c${i + 1} ${n}/${perConditionTotal[i]}`).join(", ")}`,
);
if (failures.length) console.log(`  failed: ${failures.join("; ")}`);
console.log(
  `launcher scenes, simulated s per CPU s over reference episodes (1 kHz physics): min ${q(0).toFixed(0)}x, median ${q(0.5).toFixed(0)}x, max ${rates.at(-1)!.toFixed(0)}x`,
);
const slow = launchRates.filter((r) => r.rate < 100).map((r) => r.id.split("/")[0]);
console.log(`  below 100x: ${[...new Set(slow)].join(", ") || "none"}`);
console.log(
  `hanoi (120 Hz physics): ${(towerSim / towerCpu).toFixed(0)}x real time over ${towerSim.toFixed(0)} simulated s`,
);
