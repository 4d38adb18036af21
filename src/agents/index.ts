/**
 * Agents by name: a suite's own agents first, then the built-ins `random`, `replay` and
 * `llm` (loaded on first use, so runs without it never load the provider SDKs).
 */
import {
  type Agent,
  type AgentOptions,
  LonghaulError,
  type Renderer,
  type Suite,
} from "../core/index.ts";
import type { LlmAgentOptions } from "./llm/index.ts";
import { createRandomAgent } from "./random/index.ts";
import { createReplayAgent } from "./replay/index.ts";

export { createRandomAgent, RandomAgentOptions, sampleJson } from "./random/index.ts";
export { createReplayAgent, ReplayAgentOptions, traceActions } from "./replay/index.ts";

/**
 * The llm agent behind a lazy import. Its id and provider follow the llm module's naming
 * (`llm:<model>`, provider `<model>`); option errors surface from the first episode's start
 * as USAGE errors, which stop the run.
 */
function lazyLlmAgent(options: AgentOptions, renderer: Renderer | undefined): Agent {
  const model = String(options.model ?? "");
  let loaded: Promise<Agent> | undefined;
  const load = () => {
    loaded ??= import("./llm/index.ts").then((m) =>
      m.createLlmAgent(options as LlmAgentOptions, renderer),
    );
    return loaded;
  };
  return {
    id: `llm:${model}`,
    provider: model,
    start: async (card, context) => (await load()).start(card, context),
  };
}

const BUILT_INS: Record<string, (options: AgentOptions, renderer?: Renderer) => Agent> = {
  random: createRandomAgent,
  replay: createReplayAgent,
  llm: lazyLlmAgent,
};

/** Create the agent `name` for `suite`; unknown names are USAGE errors listing the choices. */
export function createAgent<P>(name: string, options: AgentOptions, suite: Suite<P>): Agent {
  const own = suite.agents?.[name];
  if (own) return own(options);
  const builtIn = BUILT_INS[name];
  if (builtIn) return builtIn(options, suite.renderer);
  throw new LonghaulError(
    "USAGE",
    `unknown agent "${name}" for suite ${suite.id}; choose one of: ${agentNames(suite).join(", ")}`,
  );
}

/** Agent names available for `suite` (its own first), or the built-ins alone. */
export function agentNames<P>(suite?: Suite<P>): string[] {
  const own = Object.keys(suite?.agents ?? {});
  return [...own, ...Object.keys(BUILT_INS).filter((name) => !own.includes(name))];
}
