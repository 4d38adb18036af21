/** Price tables: US dollars per million tokens, per model, from a YAML or JSON file. */
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { formatZodError, LonghaulError } from "../../core/index.ts";

/** Prices of one model in US dollars per million tokens; cached input defaults to input. */
export const ModelPrice = z
  .object({
    input: z.number().nonnegative(),
    cachedInput: z.number().nonnegative().optional(),
    output: z.number().nonnegative(),
  })
  .strict();
export type ModelPrice = z.infer<typeof ModelPrice>;

/** Model name ("openai:gpt-4o" or bare "gpt-4o") -> prices. */
export const PriceTable = z.record(z.string().min(1), ModelPrice);
export type PriceTable = z.infer<typeof PriceTable>;

/** Token counts of one call, as the cost formula needs them. */
export interface TokenCounts {
  /** All input tokens, cached ones included. */
  input: number;
  cachedInput: number;
  /** All output tokens, reasoning ones included. */
  output: number;
  reasoning: number;
}

/**
 * Read and validate a price table (.yaml, .yml or .json). A missing or malformed file is a
 * USAGE error: it is an option of the whole run, checked before any episode starts.
 */
export function loadPriceTable(path: string): PriceTable {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new LonghaulError("USAGE", `cannot read price table: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = /\.json$/i.test(path) ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    // The first line: YAML errors go on with a code frame.
    const reason = (error as Error).message.split("\n")[0];
    throw new LonghaulError("USAGE", `price table ${path} is not valid YAML/JSON: ${reason}`);
  }
  const table = PriceTable.safeParse(data);
  if (!table.success) {
    throw new LonghaulError("USAGE", `invalid price table ${path}: ${formatZodError(table.error)}`);
  }
  return table.data;
}

/** The prices of `provider:model`, looked up by full name first, then by bare model name. */
export function priceOf(table: PriceTable, provider: string, model: string): ModelPrice {
  const price = table[`${provider}:${model}`] ?? table[model];
  if (!price) {
    throw new LonghaulError(
      "USAGE",
      `the price table has no entry for "${provider}:${model}" (nor "${model}")`,
    );
  }
  return price;
}

/** Cost in US dollars: uncached input, cached input and output at their per-million prices. */
export function costOf(tokens: TokenCounts, price: ModelPrice): number {
  const uncached = Math.max(0, tokens.input - tokens.cachedInput);
  const cachedPrice = price.cachedInput ?? price.input;
  return (
    (uncached * price.input + tokens.cachedInput * cachedPrice + tokens.output * price.output) / 1e6
  );
}
