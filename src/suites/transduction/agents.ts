/** The suite's scripted agents: the oracle and the reference agents, all privileged. */
import {
  type Agent,
  type AgentContext,
  type AgentFactory,
  defineAgent,
  LonghaulError,
  NO_OPTIONS,
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

/** What each scripted agent writes (see referenceOutput). */
const WRITES: Record<ReferenceKind, string> = {
  oracle: "the required output",
  "drop-one": "the required output without its middle row",
  "swap-two": "the required output with the middle row swapped with the one before",
  "off-by-one": "the required output with a near miss in the middle row's first answer",
  "truncate-half": "the first half of the required output's lines",
};

/** Factories of every scripted agent. */
export const TRANSDUCTION_AGENTS: AgentFactory[] = REFERENCE_KINDS.map((kind) =>
  defineAgent({
    name: kind,
    description: `privileged reference: writes ${WRITES[kind]} in one decision`,
    privileged: true,
    options: NO_OPTIONS,
    create: () => referenceAgent(kind),
  }),
);
