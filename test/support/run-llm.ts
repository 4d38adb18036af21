/** One run of the llm agent through the runner into a fresh directory, for end-to-end tests. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLlmAgent, type LlmAgentOptions, publicConfig } from "../../src/agents/llm/index.ts";
import type { CompileOptions, Suite } from "../../src/core/index.ts";
import { runSuite } from "../../src/run/index.ts";

/** Run `taskIds` of `suite` once (seed "s", one at a time) with an llm agent prompting through the suite's renderer; returns the run directory. */
export async function runLlm<P>(
  suite: Suite<P>,
  options: LlmAgentOptions,
  taskIds: string[],
  compile?: CompileOptions,
): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), "lh-llm-"));
  await runSuite({
    suite,
    agent: await createLlmAgent(options, suite.renderer),
    agentConfig: publicConfig(options),
    outDir,
    seed: "s",
    epochs: 1,
    concurrency: 1,
    taskIds,
    ...(compile ? { compile } : {}),
  });
  return outDir;
}
