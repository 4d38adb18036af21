import { describe, expect, it } from "vitest";
import { agentOptionText, environmentSecrets, parseFilters, redactArgv } from "./args.ts";

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

describe("redactArgv", () => {
  it("hides secret option values in every form and URL credentials, and returns them", () => {
    const { argv, secrets } = redactArgv(
      [
        "run",
        "x",
        "--api-key",
        "sk-1",
        "--api-key=sk-2",
        "--agent-opt",
        "apiKey=sk-3",
        "--agent-opt=token=t4",
        "--agent-opt",
        "robots=r1",
        "--base-url",
        "http://u:p5@h/v1",
        "--agent-opt",
        "vaultPass=v6",
      ],
      new Set(["vaultPass"]),
    );
    expect(argv).toEqual([
      "run",
      "x",
      "--api-key",
      "***",
      "--api-key=***",
      "--agent-opt",
      "apiKey=***",
      "--agent-opt=token=***",
      "--agent-opt",
      "robots=r1",
      "--base-url",
      "http://***@h/v1",
      "--agent-opt",
      "vaultPass=***",
    ]);
    expect(secrets.sort()).toEqual(["p5", "sk-1", "sk-2", "sk-3", "t4", "u", "v6"]);
  });

  it("takes the values of key variables as secrets", () => {
    expect(
      environmentSecrets({ OPENAI_API_KEY: "sk-a", HF_TOKEN: "hf", HOME: "/root", X_KEY: "" }),
    ).toEqual(["sk-a", "hf"]);
  });
});
