/**
 * Run the OpenAI stub as its own process (so benchmarks do not charge its CPU to the agent):
 * `npx tsx test/stubs/serve-openai-stub.ts [latencyMs] [toolCallJson]` prints the base URL on
 * stdout and answers every request after `latencyMs` with one tool call: by default a
 * robot-addressed `move` for the episode fixture's card, or `{"name": ..., "arguments": ...}`;
 * or with the text of `{"text": ...}`.
 */
import { startOpenAiStub } from "./openai-stub.ts";

const latencyMs = Number(process.argv[2] ?? 0);
const given = process.argv[3]
  ? (JSON.parse(process.argv[3]) as
      | { name: string; arguments: Record<string, unknown> }
      | { text: string })
  : { name: "move", arguments: { object: "a", onto: "b", robot: "r1" } };
const reply = "text" in given ? { text: given.text } : { toolCalls: [given] };
const stub = await startOpenAiStub({ latencyMs, reply });
process.stdout.write(`${stub.baseUrl}\n`);
const stop = () => void stub.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
