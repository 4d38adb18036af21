/**
 * The suite's agents: the privileged `oracle` (the reactive expert), `oracle-lastk` (the same
 * expert restricted to the last K events: the suite's evidence that it measures persistence,
 * after §5.1's history ablation) and `random` (a seeded floor).
 */
import { z } from "zod";
import {
  type Action,
  type Agent,
  type AgentSession,
  defineAgent,
  type Json,
  LonghaulError,
  NO_OPTIONS,
  type Observation,
  type Rng,
  type TaskCard,
  type TaskSpec,
} from "../../core/index.ts";
import type { MagmaLatent } from "./environment.ts";
import { acknowledgement, Expert } from "./expert.ts";
import { FAMILIES } from "./families/index.ts";
import { Renamer } from "./realize.ts";
import type { MagmaPayload, Stage } from "./types.ts";

function expertFor(spec: TaskSpec): { expert: Expert; payload: MagmaPayload } {
  const payload = spec.payload as MagmaPayload;
  const module = FAMILIES[payload.family];
  if (!module) throw new LonghaulError("RUNTIME", `no scenario program for ${payload.family}`);
  return { expert: new Expert(module.family, payload, new Renamer(payload.names)), payload };
}

function privileged(context: Parameters<Agent["start"]>[1]) {
  const p = context.privileged;
  if (!p) throw new LonghaulError("RUNTIME", "this agent needs privileged access (latent state)");
  return p;
}

/** The oracle: the expert on the latent state, every decision. */
export function oracleAgent(): Agent {
  return {
    id: "oracle",
    privileged: true,
    start(_card, context) {
      const p = privileged(context);
      const { expert } = expertFor(p.spec);
      return {
        act: async () => ({
          action: expert.decide(p.latent() as unknown as MagmaLatent),
          note: "expert",
        }),
      };
    },
  };
}

/**
 * The expert that remembers only the last K events: it acts as the oracle when every user
 * instruction the current stage relies on (its own, the request it continues, the rules it
 * uses) is among the last K events it saw, and otherwise as an agent that lost the thread
 * would: it reports completion (an action stage: text where an action is due), answers that
 * it does not remember (a question: a rejected answer), or acknowledges.
 */
export function lastKAgent(k: number): Agent {
  return {
    id: `oracle-last${k}`,
    privileged: true,
    start(_card, context): AgentSession {
      const p = privileged(context);
      const { expert, payload } = expertFor(p.spec);
      const window: string[] = [];
      return {
        act: async (observation: Observation) => {
          for (const e of observation.events) window.push(e.text ?? "");
          if (window.length > k) window.splice(0, window.length - k);
          const latent = p.latent() as unknown as MagmaLatent;
          const stage = payload.stages[latent.stage] as Stage;
          const needed = neededInstructions(payload.stages, latent.stage);
          if (needed.every((text) => window.includes(text)))
            return { action: expert.decide(latent), note: "remembers" };
          return { action: forgetful(stage), note: "forgot" };
        },
      };
    },
  };
}

/** The instructions a stage's decisions depend on (its own or the one it continues, its rules). */
export function neededInstructions(stages: readonly Stage[], k: number): string[] {
  const stage = stages[k] as Stage;
  if (stage.type === "acknowledge") return [];
  const out: string[] = [];
  const byId = new Map(stages.map((s) => [s.id, s]));
  let own: Stage | undefined = stage;
  for (let i = k; own && own.instruction === undefined && own.type === "act"; ) {
    const from: string | undefined = own.needs?.[0];
    own = from ? byId.get(from) : i > 0 ? stages[--i] : undefined;
  }
  if (own?.instruction) out.push(own.instruction);
  for (const id of stage.needs ?? []) {
    const text = byId.get(id)?.instruction;
    if (text && !out.includes(text)) out.push(text);
  }
  return out;
}

function forgetful(stage: Stage): Action {
  if (stage.type === "act") return { kind: "say", text: "I have finished the task." };
  if (stage.type === "answer") return { kind: "say", text: "I do not remember." };
  return { kind: "say", text: acknowledgement(stage) };
}

/** A seeded floor: random skills with names from the observation, messages, waits. */
export function randomAgent(): Agent {
  return {
    id: "random",
    start(card: TaskCard, context) {
      const rng = context.rng;
      return {
        act: async (observation: Observation) => ({ action: randomAction(card, observation, rng) }),
      };
    },
  };
}

function randomAction(card: TaskCard, observation: Observation, rng: Rng): Action {
  const roll = rng.next();
  if (roll < 0.2)
    return { kind: "say", text: rng.pick(["OK.", "Done.", "I will do that.", "There are 2."]) };
  if (roll < 0.3) return { kind: "wait" };
  const view = observation.view as { attributes?: Record<string, Json> } | null;
  const words = [...new Set(strings(view?.attributes ?? {}))];
  const robots = (view?.attributes?.known_robots as string[] | undefined) ?? ["robot"];
  const calls = rng
    .shuffle(robots)
    .slice(0, rng.range(1, robots.length))
    .map((robot) => {
      const tool = rng.pick(card.tools);
      const props = (tool.parameters.properties ?? {}) as Record<string, { type?: string }>;
      const args: Record<string, unknown> = {};
      for (const [name, p] of Object.entries(props))
        args[name] = p.type === "object" ? {} : words.length ? rng.pick(words) : "x";
      return { tool: tool.name, args, robot };
    });
  return { kind: "tool", calls };
}

function strings(value: Json): string[] {
  if (typeof value === "string") return value.includes(" ") ? [] : [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)]);
  return [];
}

/** The suite's agent factories. */
export const MAGMA_AGENTS = [
  defineAgent({
    name: "oracle",
    description:
      "privileged: the reactive expert (retries failures, re-detects, follows interruptions, resumes)",
    privileged: true,
    options: NO_OPTIONS,
    create: () => oracleAgent(),
  }),
  defineAgent({
    name: "oracle-lastk",
    description: "privileged: the expert that remembers only the last K events (history ablation)",
    privileged: true,
    options: z
      .object({ k: z.number().int().positive().default(8).describe("events remembered") })
      .strict(),
    create: (o) => lastKAgent(o.k),
  }),
  defineAgent({
    name: "random",
    description: "seeded random skill calls, messages and waits",
    options: NO_OPTIONS,
    create: () => randomAgent(),
  }),
];
