/** The suite's scripted agents: the oracle and the reference agents, all privileged. */
import {
  type Agent,
  type AgentContext,
  LonghaulError,
  parseOrThrow,
  type TaskCard,
} from "../../core/index.ts";
import { TransductionLatent } from "./environment.ts";
import { REFERENCE_KINDS, type ReferenceKind, referenceOutput } from "./reference.ts";

/** An agent that writes the reference output `kind` (see referenceOutput) in one decision. */
export function referenceAgent(kind: ReferenceKind): Agent {
  return {
    id: kind,
    privileged: true,
    start(card: TaskCard, context: AgentContext) {
      if (!context.privileged) {
        throw new LonghaulError(
          "RUNTIME",
          `agent "${kind}" reads the required output and needs privileged access (${card.id})`,
        );
      }
      const latent = parseOrThrow(
        TransductionLatent,
        context.privileged.latent(),
        "transduction latent state",
      );
      const text = referenceOutput(kind, latent.expected);
      return {
        async act() {
          return { action: { kind: "say" as const, text }, note: kind };
        },
      };
    },
  };
}

/** Factories of every scripted agent, by name. */
export const TRANSDUCTION_AGENTS: Record<ReferenceKind, () => Agent> = Object.fromEntries(
  REFERENCE_KINDS.map((kind) => [kind, () => referenceAgent(kind)]),
) as Record<ReferenceKind, () => Agent>;
