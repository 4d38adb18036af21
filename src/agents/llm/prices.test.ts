import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { costOf, loadPriceTable, priceOf } from "./prices.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "longhaul-prices-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("price tables", () => {
  it("loads YAML and JSON and looks models up by full then bare name", async () => {
    const yaml = join(dir, "prices.yaml");
    await writeFile(
      yaml,
      "openai:gpt-x:\n  input: 2.5\n  cachedInput: 1.25\n  output: 10\nllama3:8b: { input: 0, output: 0 }\n",
    );
    const json = join(dir, "prices.json");
    await writeFile(json, JSON.stringify({ "claude-x": { input: 3, output: 15 } }));
    const table = loadPriceTable(yaml);
    expect(priceOf(table, "openai", "gpt-x")).toEqual({
      input: 2.5,
      cachedInput: 1.25,
      output: 10,
    });
    expect(priceOf(table, "openai", "llama3:8b")).toEqual({ input: 0, output: 0 });
    expect(priceOf(loadPriceTable(json), "anthropic", "claude-x").output).toBe(15);
    expect(() => priceOf(table, "openai", "gpt-y")).toThrow(/no entry for "openai:gpt-y"/);
  });

  it("rejects a malformed table with the path of what is wrong", async () => {
    const bad = join(dir, "bad.yaml");
    await writeFile(bad, "gpt-x:\n  input: -1\n  output: 2\n  extra: 3\n");
    expect(() => loadPriceTable(bad)).toThrow(/gpt-x\.input: .*gpt-x: Unrecognized key/s);
    expect(() => loadPriceTable(join(dir, "missing.yaml"))).toThrow(/cannot read price table/);
  });

  it("prices uncached input, cached input (defaulting to the input price) and output", () => {
    const tokens = { input: 1_000_000, cachedInput: 400_000, output: 100_000, reasoning: 0 };
    // 0.6M * $2 + 0.4M * $0.5 + 0.1M * $8
    expect(costOf(tokens, { input: 2, cachedInput: 0.5, output: 8 })).toBeCloseTo(2.2, 12);
    // 1M * $2 + 0.1M * $8
    expect(costOf(tokens, { input: 2, output: 8 })).toBeCloseTo(2.8, 12);
  });
});
