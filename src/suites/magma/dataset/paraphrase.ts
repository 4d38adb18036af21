/**
 * The instruction-paraphrase augmentation (§4.4: "two augmented variants per source row
 * produced through instruction paraphrasing and consistent renaming"). A row's instruction is
 * the latest user utterance it shows; its paraphrase is another of the scenario program's
 * hand-written phrasings of the same request (every request has three), in a seeded
 * conversational frame. Identifiers (items, places, robots) are never touched, so the target
 * stays the right answer.
 */
import type { Rng } from "../../../core/index.ts";
import type { Phrasing } from "../mission-builder.ts";

/** Frames for requests and statements ({} is the utterance). */
const STATEMENT_FRAMES = [
  "{}",
  "Okay, next one. {}",
  "Here is what I need now: {}",
  "{} Thanks!",
  "New request. {}",
  "Listen carefully: {}",
  "Hi again. {}",
  "Right. {}",
  "One more thing. {}",
  "{} Please.",
] as const;

/** Frames for questions. */
const QUESTION_FRAMES = [
  "{}",
  "Quick question: {}",
  "Can you tell me this? {}",
  "I would like to know something. {}",
  "{} Please answer.",
  "Tell me: {}",
] as const;

/**
 * A paraphrase of `text` different from it: another phrasing of the same utterance when the
 * scenario program wrote some, in a seeded frame.
 */
export function paraphrase(text: string, phrasings: Phrasing | undefined, rng: Rng): string {
  const others = (phrasings ?? []).filter((p) => p !== text);
  const base = others.length > 0 ? rng.pick(others) : text;
  const frames = base.trimEnd().endsWith("?") ? QUESTION_FRAMES : STATEMENT_FRAMES;
  // The bare frame only when the words changed already.
  const usable = base === text ? frames.slice(1) : frames;
  return rng.pick(usable).replace("{}", base);
}
