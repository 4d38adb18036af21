import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BUILT_IN_PROVIDERS,
  configPath,
  loadAdapter,
  loadConfigProviders,
  loadProviders,
  resolveModel,
} from "./index.ts";

function configFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "lh-config-")), "config.json");
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

describe("provider registry", () => {
  it("finds the config file from LONGHAUL_CONFIG, then XDG_CONFIG_HOME, then ~/.config", () => {
    expect(configPath({ LONGHAUL_CONFIG: "/x/c.json", XDG_CONFIG_HOME: "/y" })).toBe("/x/c.json");
    expect(configPath({ XDG_CONFIG_HOME: "/y" })).toBe("/y/longhaul/config.json");
    expect(configPath({ HOME: "/h" })).toMatch(/\/\.config\/longhaul\/config\.json$/);
  });

  it("adds the config file's providers after the built-ins; a missing file adds none", () => {
    const path = configFile({
      providers: {
        together: { baseUrl: "https://api.together.xyz/v1", apiKeyEnv: "TOGETHER_API_KEY" },
        local: { baseUrl: "http://127.0.0.1:8000/v1" },
        proxy: { api: "anthropic", baseUrl: "https://proxy.example/anthropic" },
      },
      defaults: { ignored: "by the provider registry" },
    });
    const providers = loadProviders({ LONGHAUL_CONFIG: path });
    expect(providers.map((p) => p.name)).toEqual([
      "openai",
      "anthropic",
      "together",
      "local",
      "proxy",
    ]);
    expect(providers[2]).toEqual({
      name: "together",
      api: "openai",
      baseUrl: "https://api.together.xyz/v1",
      apiKeyEnv: "TOGETHER_API_KEY",
      source: path,
    });
    expect(providers[4]?.api).toBe("anthropic");
    expect(loadProviders({ LONGHAUL_CONFIG: join(tmpdir(), "no-such-longhaul.json") })).toEqual(
      BUILT_IN_PROVIDERS,
    );
  });

  it("rejects a malformed config file with its path and the path inside it", () => {
    expect(() => loadConfigProviders(configFile("{ not json"))).toThrow(
      /config file .*config\.json: /,
    );
    expect(() =>
      loadConfigProviders(configFile({ providers: { together: { baseUrl: "not a url" } } })),
    ).toThrow(/invalid config file .*: providers\.together\.baseUrl: /);
    expect(() =>
      loadConfigProviders(configFile({ providers: { x: { baseUrl: "http://a", key: "k" } } })),
    ).toThrow(/providers\.x: Unrecognized key: "key"/);
    expect(() =>
      loadConfigProviders(configFile({ providers: { openai: { baseUrl: "http://a" } } })),
    ).toThrow(/providers\.openai: built in/);
    expect(() =>
      loadConfigProviders(configFile({ providers: { "My Server": { baseUrl: "http://a" } } })),
    ).toThrow(/providers\.My Server: expected a name of a-z/);
  });

  it("splits a model name at its first colon and suggests near provider names", () => {
    const providers = BUILT_IN_PROVIDERS;
    expect(resolveModel("openai:llama3:8b", providers)).toMatchObject({
      provider: { name: "openai", api: "openai" },
      name: "llama3:8b",
    });
    expect(() => resolveModel("opnai:gpt-4o", providers)).toThrow(
      'unknown provider "opnai"; did you mean "openai"? known providers: openai, anthropic',
    );
    expect(() => resolveModel("gpt-4o", providers)).toThrow(/is not "provider:NAME"/);
    expect(() => resolveModel("openai:", providers)).toThrow(/is not "provider:NAME"/);
  });

  it("loads the adapter of the provider's wire format", async () => {
    const [openai, anthropic] = BUILT_IN_PROVIDERS;
    const config = { apiKey: "k", baseUrl: "http://127.0.0.1:9", timeoutMs: 1000 };
    const prompt = { system: "s", turns: [], tools: [] };
    const a = await loadAdapter(openai!, config);
    expect(a.buildRequest(prompt, { model: "m" })).toMatchObject({
      model: "m",
      messages: [{ role: "system", content: "s" }],
    });
    const b = await loadAdapter(anthropic!, config);
    expect(b.buildRequest(prompt, { model: "m" })).toMatchObject({ model: "m", system: "s" });
  });
});
