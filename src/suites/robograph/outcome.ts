/**
 * The privileged per-episode record a RoboGraph environment hands its scorer
 * (EpisodeOutcome.data). It carries what the metrics of appendix C need and the trace alone
 * cannot show: executability against the latent graph, the oracle's ordered action distance
 * before and after each step, which task-relevant hidden nodes each action revealed, and when
 * interventions fired.
 */
import { z } from "zod";

/** The seven conditions of every source scene: the baseline and interventions I1-I6. */
export const CONDITIONS = ["base", "i1", "i2", "i3", "i4", "i5", "i6"] as const;
/** One condition id. */
export type Condition = (typeof CONDITIONS)[number];

/** The two domains of Table 3. */
export const DOMAINS = ["tabletop", "indoor"] as const;
/** One domain id. */
export type Domain = (typeof DOMAINS)[number];

/** Actions that expand the view (Definition 1's view-exploring actions). */
export const EXPLORATORY_ACTIONS: ReadonlySet<string> = new Set(["open", "move_aside", "walk"]);

/** One agent action as executed against the latent graph. */
export const StepLog = z
  .object({
    step: z.number().int().nonnegative().describe("observation step the action answered"),
    action: z.string().describe("catalog action name"),
    nodeIds: z.array(z.string()).describe("resolved node ids, in argument order"),
    nodeNames: z.array(z.string()).describe("names of those nodes"),
    status: z.enum(["success", "failure", "invalid"]),
    failureType: z.string().nullable(),
    injected: z.boolean().describe("an I1 failure suppressed an otherwise executable action"),
    distanceBefore: z.number().int().nonnegative(),
    distanceAfter: z.number().int().nonnegative(),
    planBefore: z
      .number()
      .int()
      .nonnegative()
      .nullish()
      .describe("remaining optimal plan length before; only for a repeated action (RAR)"),
    planAfter: z
      .number()
      .int()
      .nonnegative()
      .nullish()
      .describe("remaining optimal plan length after its own effect, events excluded (RAR)"),
    revealed: z.array(z.string()).describe("task-relevant hidden nodes this action exposed"),
    goalSatisfied: z.number().int().nonnegative().describe("satisfied goal predicates after"),
  })
  .strict();
/** One agent action as executed against the latent graph. */
export type StepLog = z.infer<typeof StepLog>;

/** One applied intervention. */
export const InterventionLog = z
  .object({
    kind: z.enum(["I1", "I2", "I3", "I4", "I5", "I6"]),
    step: z.number().int().nonnegative().describe("step before whose decision it applied"),
    detail: z.string(),
  })
  .strict();
/** One applied intervention. */
export type InterventionLog = z.infer<typeof InterventionLog>;

/** EpisodeOutcome.data of a RoboGraph episode. */
export const OutcomeData = z
  .object({
    condition: z.enum(CONDITIONS),
    domain: z.enum(DOMAINS),
    oracleLength: z.number().int().nonnegative(),
    goalTotal: z.number().int().positive().describe("predicates of the final active goal"),
    goalInitial: z.number().int().nonnegative().describe("satisfied in G_0"),
    goalFinal: z.number().int().nonnegative().describe("satisfied at the end"),
    stopStep: z.number().int().nonnegative().nullable().describe("step of stop, if issued"),
    goalAtStop: z.boolean(),
    relevantHidden: z
      .array(z.string())
      .describe("task-relevant spatial dependencies: hidden nodes the optimal plan depends on"),
    interventions: z.array(InterventionLog),
    steps: z.array(StepLog),
  })
  .strict();
/** EpisodeOutcome.data of a RoboGraph episode. */
export type OutcomeData = z.infer<typeof OutcomeData>;
