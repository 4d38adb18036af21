/**
 * Run the OpenAI stub as its own process (so benchmarks do not charge its CPU to the agent):
 * `npx tsx test/stubs/serve-openai-stub.ts [latencyMs] [toolCallJson]` prints the base URL on
 * stdout and answers every request after `latencyMs` with one tool call: by default a
 * robot-addressed `move` for the episode fixture's card, or `{"name": ..., "arguments": ...}`.
 */
import { startOpenAiStub } from "./openai-stub.ts";

const latencyMs = Number(process.argv[2] ?? 0);
const toolCall = process.argv[3]
  ? (JSON.parse(process.argv[3]) as { name: string; arguments: Record<string, unknown> })
  : { name: "move", arguments: { object: "a", onto: "b", robot: "r1" } };
const stub = await startOpenAiStub({ latencyMs, reply: { toolCalls: [toolCall] } });
process.stdout.write(`${stub.baseUrl}\n`);
const stop = () => void stub.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
