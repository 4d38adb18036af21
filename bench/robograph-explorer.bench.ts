/**
 * The observation-only explorer over all 588 RoboGraph episodes in process (scored as in a
 * run, no run directory):
 * success rate per condition, domain and family, and the decision rate.
 * Run: npx tsx bench/robograph-explorer.bench.ts
 */
import { playEpisode } from "../src/run/index.ts";
import { explorerAgent, robographSuite } from "../src/suites/robograph/index.ts";

const specs = robographSuite.compile();
const agent = explorerAgent();
const tally = new Map<string, [number, number]>();
const count = (key: string, ok: boolean) => {
  const [s, n] = tally.get(key) ?? [0, 0];
  tally.set(key, [s + (ok ? 1 : 0), n + 1]);
};
const failures: string[] = [];
let steps = 0;
const t0 = performance.now();
for (const spec of specs) {
  const { record } = await playEpisode(robographSuite, spec, agent, "bench");
  steps += record.steps;
  const ok = record.status === "success";
  const { condition, domain, scene } = spec.tags as Record<string, string>;
  count(`condition ${condition}`, ok);
  count(`domain ${domain}`, ok);
  count(`domain ${domain} ${condition}`, ok);
  count(`family ${spec.family}/${domain}`, ok);
  count("all", ok);
  if (!ok) failures.push(`${scene}/${condition}`);
}
const ms = performance.now() - t0;
for (const [key, [s, n]] of [...tally].sort(([a], [b]) => a.localeCompare(b)))
  console.log(`${key.padEnd(28)} ${((100 * s) / n).toFixed(1).padStart(5)}%  (${s}/${n})`);
console.log(`${steps} steps in ${ms.toFixed(0)} ms (${((steps / ms) * 1000).toFixed(0)} steps/s)`);
if (process.argv.includes("--failures")) console.log("unsolved:", failures.join(" "));
