/**
 * Semantic realizations (§4.3): a consistent renaming of robots, skills, items, places and
 * classes, applied at the boundary. Episodes run on canonical names; what the agent reads is
 * rewritten token by token (identifiers are single tokens: red_cube_1), and what it writes is
 * read back exactly. Realization 0 keeps the canonical names.
 */
import type { Json } from "../../core/index.ts";

const TOKEN = /[A-Za-z0-9_]+/g;

/** Renames canonical tokens to a realization's and back. */
export class Renamer {
  private readonly out: ReadonlyMap<string, string>;
  private readonly back: ReadonlyMap<string, string>;
  readonly identity: boolean;

  constructor(names: Readonly<Record<string, string>>) {
    const out = new Map<string, string>();
    const back = new Map<string, string>();
    for (const [canonical, realized] of Object.entries(names)) {
      if (canonical === realized) continue;
      out.set(canonical, realized);
      back.set(realized, canonical);
    }
    this.out = out;
    this.back = back;
    this.identity = out.size === 0;
  }

  /** A canonical text as the agent reads it. */
  text(text: string): string {
    if (this.identity) return text;
    return text.replace(TOKEN, (t) => this.out.get(t) ?? t);
  }

  /** A canonical token as the agent reads it. */
  name(token: string): string {
    return this.out.get(token) ?? token;
  }

  /** An agent-written token read back as canonical (unknown tokens pass through). */
  canonical(token: string): string {
    return this.back.get(token) ?? token;
  }

  /** Every string (keys included) of a JSON value, renamed for the agent. */
  json(value: Json): Json {
    if (this.identity) return value;
    if (typeof value === "string") return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.json(v));
    if (value && typeof value === "object") {
      const out: Record<string, Json> = {};
      for (const [k, v] of Object.entries(value)) out[this.text(k)] = this.json(v);
      return out;
    }
    return value;
  }
}

/**
 * The realization map of `tokens` (ids, skill names, words) under a vocabulary: a token in the
 * vocabulary takes its alternative; an identifier takes its parts' ("red_cube_1" ->
 * "crimson_block_1"). Throws when two tokens would read the same (the map must invert).
 */
export function realizationNames(
  tokens: Iterable<string>,
  vocabulary: Readonly<Record<string, readonly [string, string]>>,
  realization: number,
): Record<string, string> {
  if (realization === 0) return {};
  const pick = (t: string) => vocabulary[t]?.[realization - 1];
  const names: Record<string, string> = {};
  const all = new Set([...tokens, ...Object.keys(vocabulary)]);
  for (const token of all) {
    const direct = pick(token);
    const realized =
      direct ??
      token
        .split("_")
        .map((part) => pick(part) ?? part)
        .join("_");
    if (realized !== token) names[token] = realized;
  }
  const seen = new Map<string, string>();
  for (const token of all) {
    const realized = names[token] ?? token;
    const other = seen.get(realized);
    if (other !== undefined)
      throw new Error(`realization ${realization}: ${other} and ${token} both read ${realized}`);
    seen.set(realized, token);
  }
  return names;
}
