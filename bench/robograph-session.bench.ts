/**
 * The served RoboGraph step path without a socket: the explorer's episodes replayed through
 * EpisodeSession (open, submit each decision, finish: scoring and trace) in this process, and
 * the trace serialised as a served run records it. This is the work `longhaul serve` does per
 * step minus the WebSocket and the file writes (bench/serve.bench.ts measures those too).
 * Run: npx tsx bench/robograph-session.bench.ts
 */
import { gzipSync } from "node:zlib";
import { createAgent } from "../src/agents/index.ts";
import { type Decision, jsonText } from "../src/core/index.ts";
import { EpisodeSession, playEpisode } from "../src/run/index.ts";
import { getSuite } from "../src/suites/index.ts";

const SECONDS = 5;

const suite = await getSuite("robograph", { cache: true });
const specs = suite.compile().slice(0, 128);
const { agent } = await createAgent("explorer", {}, suite);
const scripts: { spec: (typeof specs)[number]; decisions: Decision[] }[] = [];
for (const spec of specs) {
  const { trace } = await playEpisode(suite, spec, agent);
  scripts.push({
    spec,
    decisions: (trace?.steps ?? []).map((s) => ({
      ...(s.action ? { action: s.action } : {}),
      ...(s.note ? { note: s.note } : {}),
      ...(s.extra ? { extra: s.extra } : {}),
    })),
  });
}

/** Play scripted episodes for `seconds`: steps, episodes and CPU seconds per phase. */
async function play(seconds: number) {
  const cpu = { open: 0, submit: 0, finish: 0, serialise: 0 };
  const now = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  let steps = 0;
  let episodes = 0;
  const started = performance.now();
  for (let i = 0; performance.now() - started < seconds * 1000; i++) {
    const script = scripts[i % scripts.length]!;
    let t = now();
    const session = await EpisodeSession.open({ suite, spec: script.spec, agent: "client" });
    cpu.open += now() - t;
    t = now();
    for (const decision of script.decisions) {
      const out = await session.submit(decision);
      // The server's observation message splices these bytes, which the session already made.
      if (session.observationJson.byteLength === 0) throw new Error("no observation JSON");
      steps++;
      if (out.ended) break;
    }
    cpu.submit += now() - t;
    t = now();
    const { trace } = await session.finish();
    cpu.finish += now() - t;
    t = now();
    gzipSync(jsonText(trace)); // the observations' bytes are decoded, never parsed
    cpu.serialise += now() - t;
    episodes++;
  }
  return { steps, episodes, cpu };
}

await play(1); // warm-up
const { steps, episodes, cpu } = await play(SECONDS);
const total = cpu.open + cpu.submit + cpu.finish + cpu.serialise;
const us = (s: number) => `${((s / steps) * 1e6).toFixed(0)} µs`;
console.log(
  `robograph through EpisodeSession, explorer's decisions replayed: ${steps} steps in ${episodes} episodes, ` +
    `${(steps / total).toFixed(0)} steps per CPU-second`,
);
console.log(
  `per step: open ${us(cpu.open)}, submit ${us(cpu.submit)}, finish (outcome, scoring) ${us(cpu.finish)}, ` +
    `trace JSON (observations spliced) + gzip ${us(cpu.serialise)}`,
);
