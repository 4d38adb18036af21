/** How agents are declared: a name, a zod options schema, a public config and create(). */
import { z } from "zod";
import type { Agent, Renderer } from "./agent.ts";

/** What a factory learns about where its agent will play. */
export interface AgentFactoryContext {
  /** The suite id the agent plays. */
  suite: string;
  /** The suite's prompt format, for agents that prompt a model. */
  renderer?: Renderer;
}

/**
 * An agent factory. The CLI and run configs give options as plain JSON; `options` validates
 * them (unknown keys should be rejected: use a strict object) and documents each one with
 * `.describe()`. Fields marked `.meta({ secret: true })` never reach a log.
 */
export interface AgentFactory<S extends z.ZodObject = z.ZodObject> {
  /** The name `--agent` selects, unique within a suite and the built-ins. */
  name: string;
  /** One line for `longhaul agents`. */
  description: string;
  /** True for oracles that read privileged state (listing only; the agent says it again). */
  privileged?: boolean;
  options: S;
  /**
   * What run.json records about the agent, from validated options: it identifies the run, so
   * it holds what changes the agent's behaviour and never credentials. Default: the options
   * minus secret fields.
   */
  publicConfig?(options: z.output<S>): Record<string, unknown>;
  /** Build the agent from validated options (may load modules lazily). */
  create(options: z.output<S>, context: AgentFactoryContext): Agent | Promise<Agent>;
}

/** Declare an agent factory with its option types inferred from the schema. */
export function defineAgent<S extends z.ZodObject>(factory: AgentFactory<S>): AgentFactory<S> {
  return factory;
}

/** The options schema of an agent that takes none (unknown keys are rejected). */
export const NO_OPTIONS = z.object({}).strict();
