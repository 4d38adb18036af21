/**
 * The observation-only reference agents over all 588 RoboGraph episodes in process (scored as
 * in a run, no run directory): `explorer` (perfect memory) and `explorer-window` (the same
 * policy on the appendix B payload alone). Success rate and SSAL per condition and domain,
 * SR per family, and the decision rate (wall and CPU).
 * Run: npx tsx bench/robograph-explorer.bench.ts [--failures]
 */
import { playEpisode } from "../src/run/index.ts";
import { explorerAgent, robographSuite } from "../src/suites/robograph/index.ts";

const specs = robographSuite.compile();
for (const window of [false, true]) {
  const agent = explorerAgent({ window });
  const tally = new Map<string, [number, number, number]>();
  const count = (key: string, ok: boolean, ssal: number) => {
    const [s, q, n] = tally.get(key) ?? [0, 0, 0];
    tally.set(key, [s + (ok ? 1 : 0), q + ssal, n + 1]);
  };
  const failures: string[] = [];
  let steps = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (const spec of specs) {
    const { record } = await playEpisode(robographSuite, spec, agent, "bench");
    steps += record.steps;
    const ok = record.status === "success";
    const ssal = Number(record.metrics.ssal ?? 0);
    const { condition, domain, scene } = spec.tags as Record<string, string>;
    count(`domain ${domain} ${condition}`, ok, ssal);
    count(`domain ${domain}`, ok, ssal);
    count(`family ${spec.family}/${domain}`, ok, ssal);
    count("all", ok, ssal);
    if (!ok) failures.push(`${scene}/${condition}`);
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  console.log(`\n${agent.id}`);
  for (const [key, [s, q, n]] of [...tally].sort(([a], [b]) => a.localeCompare(b)))
    console.log(
      `${key.padEnd(28)} SR ${((100 * s) / n).toFixed(1).padStart(5)}%  (${s}/${n})  SSAL ${(q / n).toFixed(3)}`,
    );
  console.log(
    `${steps} steps in ${ms.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU (${((steps / ms) * 1000).toFixed(0)} steps/s)`,
  );
  if (process.argv.includes("--failures")) console.log("unsolved:", failures.join(" "));
}
