/**
 * The llm agent's harness for EmbodiedCLBench, after the authors' safe-choice prompt: the
 * instructions and the task in the system message; each step one user message with the
 * current scene, the previous result and the choices A-D; the reply is a select_option tool
 * call with a letter and a brief reason. Chat context: like the authors' harnesses, the model
 * keeps the whole interaction of the episode.
 */
import type { Observation, Renderer, TaskCard } from "../../core/index.ts";
import type { ContinualView } from "./environment.ts";

/** The user message of one step. */
export function renderStep(view: ContinualView): string {
  return [
    `Task: ${view.task}`,
    `Current scene: ${view.scene}`,
    ...(view.previous ? [`Previous result: ${view.previous}`] : []),
    "Choices:",
    ...view.choices.map((c) => `${c.label}. ${c.text}`),
    "",
    "Select one option by its letter with select_option, giving a brief reason.",
  ].join("\n");
}

export const continualRenderer: Renderer = {
  output: "tools",
  context: "chat",
  system(card: TaskCard): string {
    return [card.instructions, `Rules:\n${card.rules.map((r) => `- ${r}`).join("\n")}`].join(
      "\n\n",
    );
  },
  user(observation: Observation): string {
    return renderStep(observation.view as unknown as ContinualView);
  },
};
