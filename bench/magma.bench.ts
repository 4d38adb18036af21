/**
 * MAGMA-Bench benchmarks (issue 11): compiling the suite (< 5 s), the simulator and suite
 * under a scripted agent (>= 20,000 decisions/s on one core: the expert's decisions recorded
 * once, then replayed through fresh environments, so only the simulator, the world engine and
 * the suite's evaluation are timed), and `longhaul run magma --agent oracle` over all 1,254
 * episodes with logs and report (< 30 s). CPU times beside wall times: the machine is shared.
 * Run: npx tsx bench/magma.bench.ts
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Action, DEFAULT_ACCESS } from "../src/core/index.ts";
import {
  compileSuite,
  Expert,
  FAMILIES,
  MagmaEnvironment,
  type MagmaLatent,
} from "../src/suites/magma/index.ts";
import { Renamer } from "../src/suites/magma/realize.ts";

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};

let cpu = process.cpuUsage();
let t = performance.now();
const specs = compileSuite();
console.log(
  `compile: ${specs.length} episodes in ${(performance.now() - t).toFixed(0)} ms wall, ${cpuSeconds(cpu).toFixed(2)} s CPU`,
);

// Record the expert's decisions once per episode.
const scripts = specs.map((spec) => {
  const family = FAMILIES[spec.family]?.family;
  if (!family) throw new Error(`no family ${spec.family}`);
  const env = new MagmaEnvironment(spec, family, DEFAULT_ACCESS);
  const expert = new Expert(family, spec.payload, new Renamer(spec.payload.names));
  env.reset();
  const actions: Action[] = [];
  for (let i = 0; i < 2000; i++) {
    const a = expert.decide(env.latent() as unknown as MagmaLatent);
    actions.push(a);
    if (env.stepSync(a).terminated) break;
  }
  return { spec, family, actions };
});

// Replay them: the simulator, world engine and suite only.
for (let pass = 0; pass < 3; pass++) {
  cpu = process.cpuUsage();
  t = performance.now();
  let decisions = 0;
  let solved = 0;
  for (const { spec, family, actions } of scripts) {
    const env = new MagmaEnvironment(spec, family, DEFAULT_ACCESS);
    env.reset();
    for (const a of actions) {
      decisions++;
      if (env.stepSync(a).terminated) break;
    }
    if (env.outcome().success) solved++;
  }
  const wall = (performance.now() - t) / 1000;
  const c = cpuSeconds(cpu);
  console.log(
    `scripted replay pass ${pass + 1}: ${decisions} decisions, ${solved}/${scripts.length} solved, ${(decisions / wall).toFixed(0)} decisions/s wall, ${(decisions / c).toFixed(0)} per CPU-second`,
  );
}

// The CLI run, logs and report included.
const out = mkdtempSync(join(tmpdir(), "magma-bench-"));
t = performance.now();
const run = spawnSync(
  process.execPath,
  [
    "--import",
    "tsx",
    "src/cli/bin.ts",
    "run",
    "magma",
    "--agent",
    "oracle",
    "--out",
    out,
    "--json",
  ],
  { encoding: "utf8" },
);
const summary = JSON.parse(run.stdout || "{}") as { ran?: number; score?: number };
console.log(
  `longhaul run magma --agent oracle: ${summary.ran} episodes, SR ${summary.score}, ${((performance.now() - t) / 1000).toFixed(1)} s wall (exit ${run.status})`,
);
rmSync(out, { recursive: true, force: true });
