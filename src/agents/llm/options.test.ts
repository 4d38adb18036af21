import { describe, expect, it } from "vitest";
import { createLlmAgent } from "./llm-agent.ts";
import { publicConfig, resolveOptions, splitModel } from "./options.ts";

describe("llm agent options", () => {
  it("rejects bad options with a USAGE error naming the path", () => {
    expect(() => resolveOptions({ model: "gpt-4o" })).toThrow(/model: expected "openai:NAME"/);
    expect(() => resolveOptions({ model: "openai:x", temperature: 3 })).toThrow(/temperature: /);
    expect(() => resolveOptions({ model: "openai:x", colour: "red" })).toThrow(/Unrecognized key/);
    expect(() =>
      resolveOptions({ model: "anthropic:c", reasoningEffort: "low", temperature: 0 }),
    ).toThrow(/temperature: anthropic extended thinking/);
    expect(() => resolveOptions({ model: "openai:x", maxRetries: -1 })).toThrow(
      expect.objectContaining({ code: "USAGE" }),
    );
  });

  it("splits provider and model at the first colon", () => {
    expect(splitModel("openai:llama3:8b")).toEqual({ provider: "openai", name: "llama3:8b" });
    expect(splitModel("anthropic:claude-x")).toEqual({ provider: "anthropic", name: "claude-x" });
  });

  it("keeps secrets and transport settings out of the public config", () => {
    const config = publicConfig({
      model: "openai:gpt-x",
      baseUrl: "https://user:pw@example.org/v1?key=abc",
      apiKey: "sk-secret",
      temperature: 0,
      seed: 3,
      maxRetries: 9,
      timeoutMs: 5,
      cacheDir: "/tmp/c",
      prices: { "gpt-x": { input: 1, output: 1 } },
    });
    expect(config).toEqual({
      agent: "llm",
      model: "openai:gpt-x",
      baseUrl: "https://example.org/v1",
      temperature: 0,
      seed: 3,
      output: "auto",
    });
  });

  it("needs an API key unless a base URL points at a local server", () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      expect(() => createLlmAgent({ model: "anthropic:c" })).toThrow(/set ANTHROPIC_API_KEY/);
      expect(
        createLlmAgent({ model: "openai:llama3", baseUrl: "http://127.0.0.1:11434/v1" }).provider,
      ).toBe("openai:llama3");
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
  });
});
