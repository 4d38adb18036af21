import { describe, expect, it } from "vitest";
import { gridSuite } from "../../test/fixtures/grid-suite.ts";
import { AdaptiveLimiter, DEFAULT_ACCESS, Rng } from "../core/index.ts";
import { agentNames, createAgent } from "./index.ts";

describe("agent registry", () => {
  it("lists a suite's own agents first, then the built-ins", () => {
    expect(agentNames()).toEqual(["random", "replay", "llm"]);
    expect(agentNames(gridSuite())).toEqual(["greedy", "thrower", "random", "replay", "llm"]);
  });

  it("creates suite agents and built-ins by name and rejects unknown names", () => {
    const suite = gridSuite();
    expect(createAgent("greedy", {}, suite).id).toBe("greedy");
    expect(createAgent("random", {}, suite).id).toBe("random");
    expect(() => createAgent("oracle", {}, suite)).toThrow(
      /unknown agent "oracle" for suite grid; choose one of: greedy, thrower, random, replay, llm/,
    );
  });

  it("loads the llm agent lazily; its option errors surface as usage errors on start", async () => {
    const suite = gridSuite();
    const agent = createAgent("llm", { model: "nonsense" }, suite);
    expect(agent).toMatchObject({ id: "llm:nonsense", provider: "nonsense" });
    const [spec] = suite.compile();
    const card = (await suite.make(spec!, { access: DEFAULT_ACCESS })).describe();
    const context = {
      episodeId: "e",
      epoch: 0,
      rng: new Rng("s"),
      signal: new AbortController().signal,
      budgets: {},
      access: DEFAULT_ACCESS,
      gate: new AdaptiveLimiter(1),
    };
    await expect(Promise.resolve(agent.start(card, context))).rejects.toMatchObject({
      code: "USAGE",
      message: expect.stringMatching(/model/),
    });
  });
});
