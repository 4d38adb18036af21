/**
 * One document as an episode: the card and first observation carry the document, the agent
 * answers with one `say` holding the whole output, and that ends the episode.
 */
import { z } from "zod";
import type {
  Action,
  Budgets,
  Environment,
  EpisodeOutcome,
  MakeOptions,
  Observation,
  StepResult,
  TaskCard,
} from "../../core/index.ts";
import type { TransductionDocument } from "./document.ts";
import { ExpectedOutput } from "./expected.ts";
import type { ScoringMode } from "./params.ts";
import { type DocumentScore, POSITION_BUCKETS, scoreOutput } from "./verify.ts";

/** One decision per document. */
export const TRANSDUCTION_BUDGETS: Budgets = { maxSteps: 1 };

/** The observation view: the document's input text and its size. */
export const TransductionView = z
  .object({
    text: z.string(),
    records: z.number().int().nonnegative(),
    outputAllowance: z.number().int().positive(),
  })
  .strict();
/** The observation view of a transduction episode. */
export type TransductionView = z.infer<typeof TransductionView>;

/** What the privileged oracle and reference agents read from `latent()`. */
export const TransductionLatent = z.object({ expected: ExpectedOutput }).strict();
/** Privileged latent state: the required output. */
export type TransductionLatent = z.infer<typeof TransductionLatent>;

/** Outcome data the scorer reads. */
export const TransductionOutcomeData = z
  .object({
    answered: z.boolean(),
    scoring: z.enum(["reference", "strict"]),
    score: z
      .object({
        records: z.number().int().nonnegative(),
        correct: z.number().int().nonnegative(),
        accuracy: z.number(),
        answers: z.number().int().nonnegative(),
        exact: z.boolean(),
        positions: z.array(z.number().nullable()).length(POSITION_BUCKETS),
        selfConsistency: z.number().nullable(),
        empty: z.boolean(),
      })
      .strict(),
    tokens: z
      .object({
        target: z.number(),
        prompt: z.number(),
        output: z.number(),
        allowance: z.number(),
      })
      .strict(),
  })
  .strict();
/** Outcome data of a transduction episode. */
export type TransductionOutcomeData = z.infer<typeof TransductionOutcomeData>;

/** Failure category of a scored document, undefined when exactly complete. */
export function failureCategory(answered: boolean, score: DocumentScore): string | undefined {
  if (!answered) return "NO_OUTPUT";
  if (score.exact) return undefined;
  return score.empty ? "EMPTY" : "INEXACT";
}

/** The environment of one transduction document. */
export class TransductionEnvironment implements Environment {
  private answer: string | undefined;
  private score: DocumentScore | undefined;

  constructor(
    private readonly document: TransductionDocument,
    private readonly options: MakeOptions,
    private readonly scoring: ScoringMode = "reference",
  ) {}

  describe(): TaskCard {
    const { params, tokens } = this.document;
    return {
      id: this.document.id,
      suite: "transduction",
      title: `Long-Transduction: ${params.task}, ${params.format}, difficulty ${params.difficulty}, ${params.horizonK}K (${params.tokenizer})`,
      instructions: this.document.instructions,
      tools: [],
      modes: ["say"],
      rules: [
        "Reply with one message holding the whole output.",
        `Output allowance: ${tokens.allowance} tokens.`,
        this.scoring === "strict"
          ? "Each required record is scored by exact match of its text."
          : "Each required record is scored exactly, with the reference verifier's tolerances (case and whitespace in lookups, identifier separators, numeric values).",
      ],
      budgets: this.options.budgets ?? TRANSDUCTION_BUDGETS,
      access: this.options.access,
    };
  }

  reset(): Observation {
    this.answer = undefined;
    this.score = undefined;
    return { step: 0, events: [], view: this.view() };
  }

  step(action: Action): StepResult {
    if (this.answer !== undefined) {
      return this.refuse("not-allowed", "the document was already answered", true);
    }
    if (action.kind !== "say") {
      return this.refuse("wrong-mode", `this episode accepts only "say", got "${action.kind}"`);
    }
    this.answer = action.text;
    this.score = undefined;
    const score = this.scored();
    return {
      observation: {
        step: 1,
        events: [{ type: "scored", text: `${score.correct}/${score.records} records correct` }],
        view: null,
      },
      reward: score.accuracy,
      terminated: true,
      truncated: false,
      info: { accuracy: score.accuracy, exact: score.exact },
    };
  }

  outcome(): EpisodeOutcome {
    const answered = this.answer !== undefined;
    const score = this.scored();
    const data: TransductionOutcomeData = {
      answered,
      scoring: this.scoring,
      score,
      tokens: this.document.tokens,
    };
    const category = failureCategory(answered, score);
    return category ? { success: false, category, data } : { success: score.exact, data };
  }

  latent(): TransductionLatent {
    return { expected: this.document.expected };
  }

  private scored(): DocumentScore {
    this.score ??= scoreOutput(this.document.expected, this.answer ?? "", this.scoring);
    return this.score;
  }

  private view(): TransductionView {
    return {
      text: this.document.input,
      records: this.document.expected.rows.length,
      outputAllowance: this.document.tokens.allowance,
    };
  }

  private refuse(
    code: "not-allowed" | "wrong-mode",
    reason: string,
    terminated = false,
  ): StepResult {
    return {
      observation: {
        step: this.answer === undefined ? 0 : 1,
        events: [{ type: "invalid", text: reason }],
        view: terminated ? null : this.view(),
      },
      reward: 0,
      terminated,
      truncated: false,
      info: { invalid: { code, reason } },
    };
  }
}
