/**
 * EmbodiedCLBench benchmarks (issue 14): compiling the 268 tasks with their state-transition
 * graphs and option banks (goal < 5 s), the privileged oracle over every setting (868
 * episodes: zero shot, ICL and skill streams; goal < 10 s), and the scripted baselines' success
 * rates. Wall and CPU time are both reported: the machine is shared.
 * Run: npx tsx bench/continual.bench.ts
 */
import { createAgent } from "../src/agents/index.ts";
import type { EpisodeRecord } from "../src/core/index.ts";
import { playEpisode } from "../src/run/index.ts";
import { compileContinual, continualSuite } from "../src/suites/continual/index.ts";

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function timed<T>(label: string, run: () => T): T {
  const wall = performance.now();
  const cpu = cpuMs();
  const out = run();
  console.log(
    `${label}: ${(performance.now() - wall).toFixed(0)} ms wall, ${(cpuMs() - cpu).toFixed(0)} ms CPU`,
  );
  return out;
}

const specs = timed("compile (268 tasks, graphs and option banks, 868 episodes)", () =>
  continualSuite.compile(),
);

async function play(name: string): Promise<EpisodeRecord[]> {
  const { agent } = await createAgent(name, {}, continualSuite as never);
  const wall = performance.now();
  const cpu = cpuMs();
  const records: EpisodeRecord[] = [];
  let steps = 0;
  for (const spec of specs) {
    const { record } = await playEpisode(continualSuite, spec, agent, "bench");
    records.push(record);
    steps += record.steps;
  }
  const ms = performance.now() - wall;
  const model = continualSuite.aggregate(records);
  console.log(
    `${name}: ${records.length} episodes, ${steps} steps in ${ms.toFixed(0)} ms wall, ${(cpuMs() - cpu).toFixed(0)} ms CPU;`,
    model.headlines
      .map((h) => `${h.name} ${h.value === null ? "-" : (100 * h.value).toFixed(1)}%`)
      .join(", "),
  );
  const selections = model.tables.find((t) => t.title.startsWith("Figure 6"));
  const zero = selections?.rows.find((row) => row[0] === "Zero-shot");
  if (zero)
    console.log(
      `  advanced zero shot, optimal / suboptimal / invalid %: ${zero.slice(1, 4).join(" / ")}`,
    );
  return records;
}

const oracle = await play("oracle");
const unsolved = oracle.filter((r) => r.status !== "success");
if (unsolved.length > 0)
  console.log("oracle unsolved:", unsolved.map((r) => r.episodeId).join(" "));
await play("greedy-lexical");
await play("random");

timed("compile the complexity study (3-6 atomic goals)", () =>
  compileContinual({ settings: "zero-shot", complexity: "3-6" }),
);
