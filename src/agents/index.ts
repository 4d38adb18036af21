/**
 * Agents by name: a suite's own factories first, then the built-ins `random`, `replay` and
 * `llm`. Every agent comes from an AgentFactory (zod options, public config, create()); the
 * llm agent loads its provider's SDK only when created.
 */
import {
  type Agent,
  type AgentFactory,
  LonghaulError,
  type Suite,
  unknownNameMessage,
} from "../core/index.ts";
import { parseAgentOptions, withoutSecrets } from "./agent-options.ts";
import { agentUrlOf, httpAgent, isAgentUrl } from "./external/index.ts";
import { llmAgent } from "./llm/index.ts";
import { randomAgent } from "./random/index.ts";
import { replayAgent } from "./replay/index.ts";

export {
  type AgentOptionInfo,
  agentOptionInfo,
  coerceAgentOptions,
  parseAgentOptions,
  withoutSecrets,
} from "./agent-options.ts";
export {
  agentUrlOf,
  createHttpAgent,
  HttpAgentOptions,
  httpAgent,
  isAgentUrl,
} from "./external/index.ts";
export { createLlmAgent, llmAgent } from "./llm/index.ts";
export { createRandomAgent, RandomAgentOptions, randomAgent, sampleJson } from "./random/index.ts";
export {
  createReplayAgent,
  ReplayAgentOptions,
  replayAgent,
  traceActions,
} from "./replay/index.ts";

/** The agents every suite can use. */
export const BUILT_IN_AGENTS: readonly AgentFactory[] = [
  randomAgent,
  replayAgent,
  llmAgent,
  httpAgent,
];

/** The factories available for `suite` (its own first; they shadow built-ins of the same name). */
export function agentFactories(suite?: Pick<Suite, "agents">): AgentFactory[] {
  const own = suite?.agents ?? [];
  return [...own, ...BUILT_IN_AGENTS.filter((b) => !own.some((a) => a.name === b.name))];
}

/** Agent names available for `suite` (its own first), or the built-ins alone. */
export function agentNames(suite?: Pick<Suite, "agents">): string[] {
  return agentFactories(suite).map((f) => f.name);
}

/**
 * The factory of agent `name` for `suite` (`http:URL` names the http agent); unknown names are
 * USAGE errors with a suggestion.
 */
export function findAgentFactory(name: string, suite: Pick<Suite, "id" | "agents">): AgentFactory {
  if (isAgentUrl(name)) return httpAgent;
  const factory = agentFactories(suite).find((f) => f.name === name);
  if (factory) return factory;
  throw new LonghaulError(
    "USAGE",
    `${unknownNameMessage("agent", name, agentNames(suite))} (suite ${suite.id})`,
  );
}

/** An agent and what run.json records about it. */
export interface CreatedAgent {
  agent: Agent;
  /** `{ name, ...publicConfig }`: identifies the agent in the run id; never secrets. */
  config: Record<string, unknown>;
}

/**
 * Create an agent for `suite` from JSON options (validated by the factory's schema): the
 * agent `name` (the suite's own or a built-in), or any factory, e.g. one of your own.
 */
export async function createAgent<P>(
  agent: string | AgentFactory,
  options: Record<string, unknown>,
  suite: Suite<P>,
): Promise<CreatedAgent> {
  const factory = typeof agent === "string" ? findAgentFactory(agent, suite) : agent;
  // `http:URL` carries the http agent's url option in its name.
  if (typeof agent === "string" && isAgentUrl(agent))
    options = { ...options, url: agentUrlOf(agent) };
  const parsed = parseAgentOptions(factory, options);
  const created = await factory.create(parsed, { suite: suite.id, renderer: suite.renderer });
  const config = factory.publicConfig?.(parsed) ?? withoutSecrets(factory, parsed);
  return { agent: created, config: { name: factory.name, ...config } };
}
