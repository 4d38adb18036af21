/**
 * `--memory oracle-state` end to end on MAGMA, EmbodiedCLBench and Playground: the llm agent
 * against a local OpenAI stub sees each suite's revealed goals, remaining and completed, at the
 * head of its user message, updated as the episode goes.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { CompileOptions } from "../src/core/index.ts";
import { loadRun } from "../src/log/index.ts";
import { getSuite } from "../src/suites/index.ts";
import { type OpenAiReply, type StubServer, startOpenAiStub } from "./stubs/index.ts";
import { runLlm } from "./support/run-llm.ts";

let stub: StubServer<OpenAiReply> | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

type Body = { messages: { role: string; content: string | null }[] };

/** Play one task with oracle-state; the user messages sent, in order, and the record. */
async function play(
  suiteId: string,
  taskId: string,
  script: OpenAiReply[],
  compile?: CompileOptions,
) {
  stub = await startOpenAiStub({ script });
  const options = {
    model: "openai:stub",
    baseUrl: stub.baseUrl,
    apiKey: "k",
    maxRetries: 0,
    memory: "oracle-state",
  };
  const outDir = await runLlm(await getSuite(suiteId), options, [taskId], compile);
  const { records, header } = loadRun(outDir);
  const users = stub.requests.map(
    (r) => (r.body as Body).messages.findLast((m) => m.role === "user")?.content ?? "",
  );
  return { record: records[0]!, users, header };
}

const say = (text: string): OpenAiReply => ({ toolCalls: [{ name: "say", arguments: { text } }] });

const state = (remaining: string[], completed: string[]) =>
  [
    "Task state:",
    "Remaining goals:",
    ...(remaining.length ? remaining.map((g) => `- ${g}`) : ["- (none)"]),
    "Completed goals:",
    ...(completed.length ? completed.map((g) => `- ${g}`) : ["- (none)"]),
  ].join("\n");

describe("--memory oracle-state on the suites of issue 12", () => {
  it("magma: the stated rule, then the request it opens once acknowledged", async () => {
    const rule = 'Acknowledge: "The default tray recipe is soda, apple and pasta."';
    const { users, record, header } = await play(
      "magma",
      "packaging-01/IN/r0",
      [say("Understood."), say("Done.")],
      { families: "packaging" },
    );
    expect(header.access.grants).toEqual(["goal-state"]);
    expect(users).toHaveLength(2);
    expect(users[0]?.startsWith(`${state([rule], [])}\n\n`)).toBe(true);
    // Not the interruption nor the resumption: neither has been said yet.
    expect(users[0]).not.toMatch(/Stop what you are doing|Resume:/);
    expect(users[1]).toContain(
      state(['Do: "More food just arrived on the table. Prepare two standard trays."'], [rule]),
    );
    // A message where an action is due ends the episode (Figure 4's text-for-action).
    expect(record).toMatchObject({ status: "failure", category: "text-for-action" });
  }, 120_000);

  it("continual: the goal predicates of the instruction, none holding yet", async () => {
    const pick = {
      toolCalls: [{ name: "select_option", arguments: { option: "A", reason: "r" } }],
    };
    const { users } = await play("continual", "zero-shot/L2-child-001", [pick, pick]);
    expect(users.length).toBeGreaterThan(1);
    expect(
      users[0]?.startsWith(
        `${state(["powered_on(ceiling_light)", "powered_on(desk_lamp)"], [])}\n\n`,
      ),
    ).toBe(true);
    for (const user of users) expect(user).toMatch(/^Task state:\nRemaining goals:\n/);
  });

  it("playground: the card's required target, remaining while nothing has been shot", async () => {
    const { users } = await play("playground", "Launch-02/c1", [
      { toolCalls: [{ name: "wait", arguments: { seconds: 0.5 } }] },
      { toolCalls: [{ name: "finish", arguments: {} }] },
    ]);
    expect(users).toHaveLength(2);
    for (const user of users) expect(user.startsWith(`${state(["clear T1"], [])}\n\n`)).toBe(true);
  });
});
