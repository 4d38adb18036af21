/** The renderer the llm agent uses when a suite supplies none. */
import type { Renderer, TaskCard } from "../../core/index.ts";

/**
 * A generic harness: the card's title, instructions and rules as the system prompt, each
 * observation as JSON, native tool calls, and a chat context (observations carry only the
 * events since the last decision, so the model needs the conversation to keep track).
 */
export const defaultRenderer: Renderer = {
  output: "tools",
  context: "chat",
  system(card: TaskCard): string {
    const parts = [`Task: ${card.title}`];
    if (card.instructions) parts.push(card.instructions);
    if (card.rules.length > 0) parts.push(`Rules:\n${card.rules.map((r) => `- ${r}`).join("\n")}`);
    parts.push(
      "Each user message is an observation as JSON: the events since your last decision and " +
        "your current view. Act by calling the tools; one reply is one decision.",
    );
    return parts.join("\n\n");
  },
  user(observation): string {
    return JSON.stringify(observation);
  },
};
