import { describe, expect, it, vi } from "vitest";
import { createLlmAgent } from "./llm-agent.ts";
import { publicConfig, resolveOptions } from "./options.ts";

describe("llm agent options", () => {
  it("rejects bad options with a USAGE error naming the path", () => {
    expect(() => resolveOptions({ model: "gpt-4o" })).toThrow(/model: expected "provider:NAME"/);
    expect(() => resolveOptions({ model: "openai:x", temperature: 3 })).toThrow(/temperature: /);
    expect(() => resolveOptions({ model: "openai:x", colour: "red" })).toThrow(/Unrecognized key/);
    expect(() => resolveOptions({ model: "openai:x", maxRetries: -1 })).toThrow(
      expect.objectContaining({ code: "USAGE" }),
    );
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

  it("needs an API key unless a base URL points at a local server", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", undefined);
    try {
      await expect(createLlmAgent({ model: "anthropic:c" })).rejects.toThrow(
        /no API key for anthropic: set ANTHROPIC_API_KEY/,
      );
      const local = await createLlmAgent({
        model: "openai:llama3",
        baseUrl: "http://127.0.0.1:11434/v1",
      });
      expect(local.provider).toBe("openai:llama3");
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("rejects a temperature with Anthropic extended thinking", async () => {
    await expect(
      createLlmAgent({ model: "anthropic:c", apiKey: "k", reasoningEffort: "low", temperature: 0 }),
    ).rejects.toThrow(/anthropic extended thinking \(reasoningEffort\) does not accept/);
  });
});
