/** Start the OpenAI stub in its own process, so benchmarks do not charge its CPU to the agent. */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";

/** A stub process and its base URL; kill the child to stop it. */
export async function startStubProcess(
  latencyMs: number,
  toolCall?: { name: string; arguments: Record<string, unknown> } | { text: string },
): Promise<{ child: ChildProcess; baseUrl: string }> {
  const script = new URL("./serve-openai-stub.ts", import.meta.url).pathname;
  const args = [script, String(latencyMs), ...(toolCall ? [JSON.stringify(toolCall)] : [])];
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [line] = (await once(child.stdout!, "data")) as [Buffer];
  return { child, baseUrl: line.toString().trim() };
}
