/**
 * Token counting with a real BPE encoding. Encodings load lazily (o200k's tables take about
 * half a second), so listing suites never pays for a tokenizer it does not use.
 */
import { createRequire } from "node:module";
import type { TokenizerName } from "./params.ts";

type Counter = (text: string) => number;

const require = createRequire(import.meta.url);
const counters = new Map<TokenizerName, Counter>();

/** The token counter of an encoding (loaded on first use, then cached). */
export function tokenCounter(name: TokenizerName): Counter {
  let counter = counters.get(name);
  if (!counter) {
    const encoding = require(`gpt-tokenizer/cjs/encoding/${name}`) as {
      countTokens: Counter;
    };
    counter = (text) => encoding.countTokens(text);
    counters.set(name, counter);
  }
  return counter;
}
