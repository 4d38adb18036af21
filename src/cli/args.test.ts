import { describe, expect, it } from "vitest";
import { agentOptionText, parseFilters } from "./args.ts";

describe("agent option flags", () => {
  it("maps each flag to its option key, the former --cache included, then --agent-opt pairs", () => {
    expect(
      agentOptionText({
        model: "openai:m",
        maxOutputTokens: "64",
        modelSeed: "3",
        cache: "/tmp/c",
        agentOpt: ["temperature=0", "prices=a=b.yaml"],
      }),
    ).toEqual({
      model: "openai:m",
      maxTokens: "64",
      seed: "3",
      cacheDir: "/tmp/c",
      temperature: "0",
      prices: "a=b.yaml",
    });
  });

  it("rejects an option given twice and a pair without a key", () => {
    expect(() => agentOptionText({ responseCache: "a", cache: "b", agentOpt: [] })).toThrow(
      'agent option "cacheDir" is given twice (--cache)',
    );
    expect(() => agentOptionText({ agentOpt: ["=1"] })).toThrow(
      '--agent-opt expects k=v, got "=1"',
    );
    expect(parseFilters(["a=1", "a=2"], "--filter")).toEqual({ a: "2" });
  });
});
