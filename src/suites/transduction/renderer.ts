/**
 * The prompt of the paper's harness for the generic llm agent: one stateless completion per
 * document. System message: the task instructions; user message: definitions or vocabulary
 * and the records; the reply text is the whole output. The agent should decode greedily
 * (temperature 0) with reasoning disabled, or at its lowest effort where it cannot be
 * disabled (appendix D); reasoning blocks are stripped by the verifier anyway. Max output
 * tokens are the document's allowance, 1.5x the input budget.
 */
import { LonghaulError, parseOrThrow, type Renderer } from "../../core/index.ts";
import { TransductionView } from "./environment.ts";
import { outputAllowance, parseTaskId } from "./params.ts";

/** Renderer of transduction documents. */
export const transductionRenderer: Renderer = {
  output: "text",
  context: "stateless",
  system(card) {
    return card.instructions;
  },
  user(observation) {
    if (observation.view === null) {
      throw new LonghaulError("RUNTIME", "the transduction episode is already over");
    }
    return parseOrThrow(TransductionView, observation.view, "transduction view").text;
  },
  parse(text) {
    return { ok: true, action: { kind: "say", text } };
  },
  reply(step) {
    if (step.action?.kind !== "say") {
      throw new LonghaulError("INVALID_INPUT", `step ${step.step} holds no document output`);
    }
    return step.action.text;
  },
  // Greedy decoding, as the paper evaluates; reasoning models take --reasoning-effort minimal.
  sampling: { temperature: 0 },
  // The allowance depends only on the horizon, which the task id names.
  maxOutputTokens(card) {
    return outputAllowance(parseTaskId(card.id).horizonK);
  },
};
