/**
 * Token counting with a real BPE encoding. Encodings load lazily (o200k's tables take about
 * half a second), so listing suites never pays for a tokenizer it does not use.
 */
import { createRequire } from "node:module";
import type { TokenizerName } from "./params.ts";

type Counter = (text: string) => number;

interface Encoding {
  countTokens: Counter;
  clearMergeCache(): void;
}

const require = createRequire(import.meta.url);
const encodings = new Map<TokenizerName, Encoding>();

function encoding(name: TokenizerName): Encoding {
  let loaded = encodings.get(name);
  if (!loaded) {
    loaded = require(`gpt-tokenizer/cjs/encoding/${name}`) as Encoding;
    encodings.set(name, loaded);
  }
  return loaded;
}

/** The token counter of an encoding (loaded on first use, then cached). */
export function tokenCounter(name: TokenizerName): Counter {
  const loaded = encoding(name);
  return (text) => loaded.countTokens(text);
}

/**
 * The token counter for a new document, with the encoding's merge cache emptied first: the
 * library's LRU cache slows down as it fills with earlier documents' pieces (measured: the
 * 128K documents generate about twice as fast with a fresh cache each).
 */
export function documentTokenCounter(name: TokenizerName): Counter {
  encoding(name).clearMergeCache();
  return tokenCounter(name);
}
