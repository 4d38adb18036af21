/**
 * RoboGraph benchmarks: compiling the whole suite (scenes, oracle plans and task-state
 * horizons per episode), `longhaul stats`, and the privileged oracle over all 588 episodes in-process
 * (reset/act/step loop, no logging). Run: npx tsx bench/robograph.bench.ts
 */
import { type AgentContext, PRIVILEGED_ACCESS, Rng } from "../src/core/index.ts";
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

const agent = robographSuite.agents?.oracle?.({});
if (!agent) throw new Error("no oracle agent");
let solved = 0;
let triggered = 0;
let steps = 0;
const failures: string[] = [];
for (const spec of specs) {
  const env = robographSuite.make(spec, { access: PRIVILEGED_ACCESS });
  const context = {
    episodeId: spec.id,
    epoch: 0,
    rng: new Rng("bench", spec.id),
    signal: new AbortController().signal,
    budgets: robographSuite.budgets,
    access: PRIVILEGED_ACCESS,
    privileged: { spec, latent: () => env.latent?.() },
  } as unknown as AgentContext;
  const session = await agent.start(env.describe(), context);
  let observation = await env.reset();
  for (let i = 0; i < 100; i++) {
    const decision = await session.act(observation);
    if (!decision.action) break;
    const result = await env.step(decision.action);
    observation = result.observation;
    steps++;
    if (result.terminated || result.truncated) break;
  }
  const outcome = env.outcome();
  if (outcome.success) solved++;
  else failures.push(spec.id);
  if ((outcome.data as { interventions: unknown[] }).interventions.length > 0) triggered++;
}
const t3 = performance.now();
console.log(
  `oracle: solved ${solved}/${specs.length}, interventions triggered in ${triggered}, ${steps} steps in ${(t3 - t2).toFixed(0)} ms (${((steps / (t3 - t2)) * 1000).toFixed(0)} steps/s)`,
);
if (failures.length) console.log("unsolved:", failures.join(" "));
