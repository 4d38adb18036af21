/**
 * Run the OpenAI stub as its own process (so benchmarks do not charge its CPU to the agent):
 * `npx tsx test/stubs/serve-openai-stub.ts [latencyMs]` prints the base URL on stdout and
 * answers every request after `latencyMs` with one robot-addressed `move` tool call.
 */
import { startOpenAiStub } from "./openai-stub.ts";

const latencyMs = Number(process.argv[2] ?? 0);
const stub = await startOpenAiStub({
  latencyMs,
  reply: { toolCalls: [{ name: "move", arguments: { object: "a", onto: "b", robot: "r1" } }] },
});
process.stdout.write(`${stub.baseUrl}\n`);
const stop = () => void stub.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
