/**
 * The llm agent's state-tracking strategies (`--memory`, MAGMA-Bench section 5.1): what the
 * action dispatcher is given in place of, or beside, the interaction history.
 */
import { z } from "zod";
import type { Turn } from "../providers/index.ts";

/** A parsed `--memory` value. */
export type MemoryStrategy =
  | { kind: "full" }
  | { kind: "last-k"; k: number }
  | { kind: "reflection" }
  | { kind: "explicit" }
  | { kind: "oracle-state" };

/** The strategy names `--memory` takes (`last-k` with its K: `last-k:8`). */
export const MEMORY_STRATEGIES = ["full", "last-k:K", "reflection", "explicit", "oracle-state"];

/** Parse a `--memory` value, or say what is wrong with it. */
export function parseMemory(text: string): MemoryStrategy | string {
  if (text === "full" || text === "reflection" || text === "explicit" || text === "oracle-state") {
    return { kind: text };
  }
  const lastK = /^last-k:(\d+)$/.exec(text);
  if (lastK) {
    const k = Number(lastK[1]);
    return k >= 1 ? { kind: "last-k", k } : "last-k needs K >= 1 (last-k:8)";
  }
  return `unknown memory strategy "${text}"; one of: ${MEMORY_STRATEGIES.join(", ")}`;
}

/** The `memory` option: a strategy name, validated by parseMemory. */
export const MemoryOption = z.string().superRefine((text, ctx) => {
  const parsed = parseMemory(text);
  if (typeof parsed === "string") ctx.addIssue({ code: "custom", message: parsed });
});

/** True for the strategies where the dispatcher sees a task state instead of the history. */
export function replacesHistory(strategy: MemoryStrategy): boolean {
  return (
    strategy.kind === "reflection" ||
    strategy.kind === "explicit" ||
    strategy.kind === "oracle-state"
  );
}

/**
 * The last `k` turns of a chat (`--memory last-k:K`, the paper's "last K interaction
 * messages"), starting at a user turn whose tool results lose the calls cut before the window.
 */
export function lastTurns(turns: readonly Turn[], k: number): Turn[] {
  let window = turns.slice(-k);
  while (window[0]?.role === "assistant") window = window.slice(1);
  const first = window[0];
  if (first?.role === "user" && first.toolResults.length > 0) {
    window = [{ ...first, toolResults: [] }, ...window.slice(1)];
  }
  return window;
}
