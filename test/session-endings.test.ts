/**
 * The session's own endings keep their category through every suite's scorer: three unusable
 * replies in a row stay FORMAT, a spent token or cost budget stays BUDGET, a fault stays ERR,
 * whatever the suite would say about the state the episode was left in (RoboGraph: never
 * stopped, TIME; Transduction: no answer, NO_OUTPUT).
 */
import { describe, expect, it } from "vitest";
import { type Decision, emptyUsage, type Suite } from "../src/core/index.ts";
import { EpisodeSession } from "../src/run/index.ts";
import { getSuite } from "../src/suites/index.ts";
import { gridSuite } from "./fixtures/grid-suite.ts";

const UNUSABLE: Decision = { formatError: "no JSON in reply", raw: "hmm" };

/** A decision that spends `tokens` and does something harmless for its suite. */
function spending(suite: Suite, tokens: number): Decision {
  const action: Decision["action"] =
    suite.id === "transduction" ? { kind: "say", text: "a" } : { kind: "wait" };
  return { action, usage: { ...emptyUsage(), calls: 1, inputTokens: tokens, costUsd: 1 } };
}

async function play(suite: Suite, decide: () => Decision, budgets = {}) {
  const spec = suite.compile()[0]!;
  const session = await EpisodeSession.open({ suite, spec, agent: "scripted", seed: "0", budgets });
  for (let i = 0; i < 10 && !session.ended; i++) await session.submit(decide());
  return (await session.finish()).record;
}

const SUITES: [string, () => Promise<Suite>][] = [
  ["robograph", () => getSuite("robograph", { cache: true })],
  ["transduction", () => getSuite("transduction", { cache: true })],
  ["grid fixture", async () => gridSuite() as Suite],
];

describe.each(SUITES)("%s scoring keeps the session's ending", (_name, load) => {
  it("FORMAT after three unusable replies in a row", async () => {
    // Transduction allows one decision: room for three unusable replies in a row.
    const record = await play(await load(), () => UNUSABLE, { maxSteps: 10 });
    expect(record).toMatchObject({ status: "failure", endedBy: "format", category: "FORMAT" });
  });

  it("BUDGET when the token or the cost budget is spent", async () => {
    const suite = await load();
    const tokens = await play(suite, () => spending(suite, 100), { maxTokens: 50 });
    expect(tokens).toMatchObject({ status: "failure", endedBy: "maxTokens", category: "BUDGET" });
    const cost = await play(suite, () => spending(suite, 1), { maxCostUsd: 0.5 });
    expect(cost).toMatchObject({ status: "failure", endedBy: "maxCostUsd", category: "BUDGET" });
  });

  it("ERR when the driver reports a fault", async () => {
    const suite = await load();
    const spec = suite.compile()[0]!;
    const session = await EpisodeSession.open({ suite, spec, agent: "scripted", seed: "0" });
    const { record } = await session.finish({ endedBy: "error", error: "the agent crashed" });
    expect(record).toMatchObject({ status: "invalid", endedBy: "error", category: "ERR" });
  });
});
