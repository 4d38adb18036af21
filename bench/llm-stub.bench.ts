/**
 * Throughput of the llm agent against the OpenAI stub running in its own process: 64
 * concurrent sessions on a fixed 200 ms provider latency (ideal 320 decisions/s), and the
 * agent's own time per decision on a zero-latency stub. Run: npx tsx bench/llm-stub.bench.ts
 */
import { createLlmAgent } from "../src/agents/llm/index.ts";
import { AdaptiveLimiter } from "../src/core/index.ts";
import { FIXTURE_CARD, fixtureContext, fixtureObservation } from "../test/stubs/index.ts";
import { startStubProcess } from "../test/stubs/stub-process.ts";

async function measure(baseUrl: string, concurrency: number, decisions: number) {
  const agent = await createLlmAgent({ model: "openai:bench", baseUrl, apiKey: "bench" });
  const gate = new AdaptiveLimiter(concurrency);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      const session = await agent.start(FIXTURE_CARD, fixtureContext({ gate }));
      for (let step = 0; step < decisions; step++) await session.act(fixtureObservation(step));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    total: concurrency * decisions,
    seconds,
    perSecond: (concurrency * decisions) / seconds,
  };
}

const slow = await startStubProcess(200);
const fast = await startStubProcess(0);
try {
  // Warm up the JIT, the SDK and the HTTP stack first: cold numbers measure module loading.
  await measure(fast.baseUrl, 8, 50);
  const loaded = await measure(slow.baseUrl, 64, 40);
  const ideal = 64 / 0.2;
  console.log(
    `200 ms stub, 64 sessions x 40 decisions: ${loaded.perSecond.toFixed(1)} decisions/s ` +
      `(${((100 * loaded.perSecond) / ideal).toFixed(1)}% of the ideal ${ideal}/s)`,
  );
  const bare = await measure(fast.baseUrl, 1, 200);
  console.log(
    `0 ms stub, 1 session x 200 decisions: ${((1000 * bare.seconds) / bare.total).toFixed(3)} ` +
      "ms per decision (agent + SDK + local HTTP round trip; chat context grows to 200 turns)",
  );
} finally {
  slow.child.kill("SIGTERM");
  fast.child.kill("SIGTERM");
}
