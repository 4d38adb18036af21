import { describe, expect, it } from "vitest";
import { contentWords, lexicalChoice } from "./agents.ts";
import type { ContinualView } from "./environment.ts";

const view: ContinualView = {
  task: "I'm about to watch a movie. Turn off the overhead light and open the TV cabinet for the movie.",
  scene: "You stand at the entrance of the living room.",
  step: 0,
  choices: [
    { label: "A", text: "Look over at the radio right away, for the movie." },
    { label: "B", text: "Head over to the cabinet right away, for the movie." },
    { label: "C", text: "Switch off the ceiling light right away, for the movie." },
    { label: "D", text: "Take a look at the window right away, for the movie." },
  ],
};

describe("greedy-lexical", () => {
  it("reads content words: lower case, no stopwords, plural s dropped", () => {
    expect([...contentWords("Turn off the lights and open the TV's cabinets.")]).toEqual([
      "turn",
      "light",
      "open",
      "tv",
      "cabinet",
    ]);
  });

  it("counts only words that tell options apart, and skips options that just failed", () => {
    // "movie" is in every option and does not count; B shares "cabinet" and C "light" with
    // the task ("off" is a stopword): a tie, so the earlier letter.
    expect(lexicalChoice(view)).toEqual({ label: "B", overlap: 1 });
    expect(lexicalChoice(view, new Set([view.choices[1]?.text as string]))).toEqual({
      label: "C",
      overlap: 1,
    });
  });
});
