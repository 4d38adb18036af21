import { describe, expect, it } from "vitest";
import { z } from "zod";
import { greedyAgent } from "../../test/fixtures/grid-agents.ts";
import { gridSuite } from "../../test/fixtures/grid-suite.ts";
import { defineAgent } from "../core/index.ts";
import {
  agentNames,
  agentOptionInfo,
  coerceAgentOptions,
  createAgent,
  llmAgent,
  randomAgent,
} from "./index.ts";

describe("agent registry", () => {
  it("lists a suite's own agents first, then the built-ins; a suite's agent shadows a built-in", () => {
    expect(agentNames()).toEqual(["random", "replay", "llm", "http"]);
    expect(agentNames(gridSuite())).toEqual([
      "greedy",
      "thrower",
      "random",
      "replay",
      "llm",
      "http",
    ]);
    const own = defineAgent({
      name: "random",
      description: "the suite's own",
      options: z.object({}).strict(),
      create: () => greedyAgent(),
    });
    expect(agentNames({ agents: [own] })).toEqual(["random", "replay", "llm", "http"]);
  });

  it("creates agents from validated options and records their public config", async () => {
    const suite = gridSuite();
    const greedy = await createAgent("greedy", { delayMs: 5 }, suite);
    expect(greedy.agent.id).toBe("greedy");
    expect(greedy.config).toEqual({ name: "greedy", delayMs: 5 });
    // Defaults are filled in, so the run id does not depend on whether a default was typed.
    expect((await createAgent("thrower", {}, suite)).config).toEqual({ name: "thrower", at: 1 });
    expect((await createAgent("random", {}, suite)).config).toEqual({ name: "random" });
  });

  it("rejects unknown names with a suggestion and bad options with the path and the choices", async () => {
    const suite = gridSuite();
    await expect(createAgent("gredy", {}, suite)).rejects.toMatchObject({
      code: "USAGE",
      message:
        'unknown agent "gredy"; did you mean "greedy"? known agents: greedy, thrower, random, replay, llm, http (suite grid)',
    });
    await expect(createAgent("greedy", { delayMs: -1 }, suite)).rejects.toMatchObject({
      code: "USAGE",
      message: expect.stringMatching(
        /^invalid greedy agent options: delayMs: .*its options: delayMs/,
      ),
    });
    await expect(createAgent("greedy", { speed: 2 }, suite)).rejects.toThrow(/speed/);
  });

  it("validates llm options before loading a provider, and never records the key", async () => {
    const suite = gridSuite();
    await expect(createAgent("llm", { model: "nonsense" }, suite)).rejects.toMatchObject({
      code: "USAGE",
      message: expect.stringMatching(/model: expected "provider:NAME"/),
    });
    const { agent, config } = await createAgent(
      "llm",
      { model: "openai:m", apiKey: "sk-secret", baseUrl: "http://127.0.0.1:9/v1" },
      suite,
    );
    expect(agent).toMatchObject({ id: "llm:openai:m", provider: "openai:m" });
    expect(JSON.stringify(config)).not.toMatch(/sk-secret/);
    expect(config).toMatchObject({ name: "llm", model: "openai:m" });
  });

  it("drops fields marked secret from the default public config", async () => {
    const keyed = defineAgent({
      name: "keyed",
      description: "takes a token",
      options: z
        .object({ token: z.string().meta({ secret: true }), depth: z.number().optional() })
        .strict(),
      create: () => greedyAgent(),
    });
    const suite = { ...gridSuite(), agents: [keyed] };
    const { config } = await createAgent("keyed", { token: "t0ps3cret", depth: 2 }, suite);
    expect(config).toEqual({ name: "keyed", depth: 2 });
  });
});

describe("agent options", () => {
  it("describes each option with its type, default and description", () => {
    const llm = new Map(agentOptionInfo(llmAgent).map((o) => [o.name, o]));
    expect(llm.get("model")).toMatchObject({ type: "string", required: true });
    expect(llm.get("output")).toMatchObject({ type: "auto|tools|json", default: "auto" });
    expect(llm.get("maxRetries")).toMatchObject({ type: "integer", default: 4, required: false });
    expect(llm.get("apiKey")).toMatchObject({ secret: true });
    expect(llm.get("temperature")?.description).toBe("sampling temperature");
    expect(agentOptionInfo(randomAgent)).toEqual([
      {
        name: "robots",
        type: "string[]",
        required: false,
        description: "robot names for tools addressed to a robot (one is drawn per call)",
      },
    ]);
  });

  it("types command-line text by the option's schema; what does not fit stays text", () => {
    expect(
      coerceAgentOptions(llmAgent, {
        temperature: "0.5",
        maxTokens: "128",
        output: "json",
        model: "openai:7",
        seed: "x",
        colour: "12",
      }),
    ).toEqual({
      temperature: 0.5,
      maxTokens: 128,
      output: "json",
      model: "openai:7",
      seed: "x",
      colour: "12",
    });
    expect(coerceAgentOptions(randomAgent, { robots: "r1,r2" })).toEqual({ robots: ["r1", "r2"] });
    expect(coerceAgentOptions(randomAgent, { robots: '["a,b"]' })).toEqual({ robots: ["a,b"] });
  });
});
