/**
 * RoboGraph benchmarks: compiling the whole suite (scenes, oracle plans and task-state
 * horizons per episode), `longhaul stats`, and the privileged oracle over all 588 episodes in
 * process (scored as in a run, no run directory). Run: npx tsx bench/robograph.bench.ts
 */
import { createAgent } from "../src/agents/index.ts";
import { playEpisode } from "../src/run/index.ts";
import { robographSuite } from "../src/suites/robograph/index.ts";

const t0 = performance.now();
const specs = robographSuite.compile();
const t1 = performance.now();
console.log(`compile: ${specs.length} episodes in ${(t1 - t0).toFixed(0)} ms`);

const stats = robographSuite.stats?.(specs);
const t2 = performance.now();
console.log(
  `stats (reads the TSH computed at compile): ${(t2 - t1).toFixed(0)} ms`,
  stats?.summary,
);

const { agent } = await createAgent("oracle", {}, robographSuite);
let solved = 0;
let triggered = 0;
let steps = 0;
const failures: string[] = [];
for (const spec of specs) {
  const { record, trace } = await playEpisode(robographSuite, spec, agent, "bench");
  steps += record.steps;
  if (record.status === "success") solved++;
  else failures.push(spec.id);
  const data = trace?.outcome?.data as { interventions?: unknown[] } | undefined;
  if ((data?.interventions?.length ?? 0) > 0) triggered++;
}
const t3 = performance.now();
console.log(
  `oracle: solved ${solved}/${specs.length}, interventions triggered in ${triggered}, ${steps} steps in ${(t3 - t2).toFixed(0)} ms (${((steps / (t3 - t2)) * 1000).toFixed(0)} steps/s)`,
);
if (failures.length) console.log("unsolved:", failures.join(" "));
