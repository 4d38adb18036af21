/**
 * The llm agent's state-tracking strategies (`--memory`) through the runner against a local
 * OpenAI-wire stub: each strategy's prompts hold exactly what they should, both models' calls
 * are logged, counted and priced, and the run directory records the strategy.
 */
import { afterEach, describe, expect, it } from "vitest";
import { defaultRenderer } from "../src/agents/llm/index.ts";
import {
  DISPATCHER_INSTRUCTIONS,
  MANAGER_INSTRUCTIONS,
  STATE_TOOLS,
} from "../src/agents/llm/memory/index.ts";
import type { Observation, Suite, TaskCard, Trace } from "../src/core/index.ts";
import { loadRun, readTrace } from "../src/log/index.ts";
import { buildReport, renderMarkdown } from "../src/report/index.ts";
import { atomText, robographSuite } from "../src/suites/robograph/index.ts";
import type { GoalAtom } from "../src/world/index.ts";
import { gridSuite } from "./fixtures/grid-suite.ts";
import { type OpenAiReply, type RecordedRequest, startOpenAiStub } from "./stubs/index.ts";
import { runLlm } from "./support/run-llm.ts";

const suite = gridSuite(1);
const spec = suite.compile()[0]!;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()?.();
});

const MAIN = "openai:main-model";
const MANAGER = "openai:manager-model";
const prices = {
  [MAIN]: { input: 1, output: 2 },
  [MANAGER]: { input: 10, output: 20 },
};
const move: OpenAiReply = {
  toolCalls: [{ name: "move", arguments: { direction: "north" } }],
  usage: { prompt: 100, completion: 10 },
};
const finish: OpenAiReply = {
  toolCalls: [{ name: "finish", arguments: {} }],
  usage: { prompt: 100, completion: 10 },
};

interface Body {
  model: string;
  messages: { role: string; content?: string | null; tool_call_id?: string }[];
  tools?: { function: { name: string } }[];
}

/** Run one grid episode (move, move, finish) with `memory`; manager replies come from `manager`. */
async function play(
  memory: Record<string, unknown>,
  manager: (index: number) => OpenAiReply = () => ({ text: "" }),
) {
  const dispatcher = [move, move, finish];
  let decisions = 0;
  let managed = 0;
  const stub = await startOpenAiStub({
    reply: (request: RecordedRequest) =>
      (request.body as Body).model === "manager-model"
        ? manager(managed++)
        : (dispatcher[decisions++] ?? finish),
  });
  closers.push(() => stub.close());
  const options = { model: MAIN, baseUrl: stub.baseUrl, retryBaseMs: 1, prices, ...memory };
  const outDir = await runLlm(suite, options, [spec.id]);
  const run = loadRun(outDir);
  const trace = (await readTrace(outDir, run.records[0]!.episodeId)) as Trace;
  const bodies = stub.requests.map((r) => r.body as Body);
  return {
    outDir,
    run,
    trace,
    bodies,
    dispatcher: bodies.filter((b) => b.model === "main-model"),
    manager: bodies.filter((b) => b.model === "manager-model"),
  };
}

const roles = (body: Body) => body.messages.map((m) => m.role).join(" ");
const system = (card: TaskCard) => defaultRenderer.system(card);
const observed = (o: Observation) => JSON.stringify(o);

describe("--memory full (the default)", () => {
  it("sends the whole conversation and records no memory in the run", async () => {
    const { dispatcher, trace, run } = await play({});
    expect(dispatcher).toHaveLength(3);
    const third = dispatcher[2]!;
    expect(roles(third)).toBe("system user assistant tool user assistant tool user");
    expect(third.messages[0]!.content).toBe(system(trace.card));
    const users = third.messages.filter((m) => m.role === "user").map((m) => m.content);
    expect(users).toEqual(trace.steps.map((s) => observed(s.observation)));
    expect(run.header.agent.config.memory).toBeUndefined();
    expect(run.header.access.level).toBe("observe");
  });
});

describe("--memory last-k:K", () => {
  it("keeps only the last K messages, starting at an observation", async () => {
    const { dispatcher, trace, run } = await play({ memory: "last-k:2" });
    const third = dispatcher[2]!;
    // The window is observation 2 and the reply to it; observation 1's tool result is cut.
    expect(roles(third)).toBe("system user assistant tool user");
    expect(third.messages[1]!.content).toBe(observed(trace.steps[1]!.observation));
    expect(third.messages[4]!.content).toBe(observed(trace.steps[2]!.observation));
    // A windowed request is logged whole, never as a continuation of the previous one.
    const logged = trace.steps[2]!.calls![0]!.request as Body & { priorMessages?: number };
    expect(logged.priorMessages).toBeUndefined();
    expect(logged.messages).toEqual(third.messages);
    expect(run.header.agent.config.memory).toBe("last-k:2");
  });
});

describe("--memory reflection", () => {
  it("a state manager writes a paragraph each step; the dispatcher sees it instead of the history", async () => {
    const paragraphs = ["P0: just started.", "P1: moved north once.", "P2: moved twice."];
    const { bodies, dispatcher, manager, trace, run } = await play(
      { memory: "reflection", memoryModel: MANAGER },
      (i) => ({ text: paragraphs[i] ?? "", usage: { prompt: 50, completion: 20 } }),
    );
    // Manager first, then dispatcher, at every step.
    expect(bodies.map((b) => b.model)).toEqual([
      "manager-model",
      "main-model",
      "manager-model",
      "main-model",
      "manager-model",
      "main-model",
    ]);
    const base = system(trace.card);
    for (const [i, body] of manager.entries()) {
      expect(body.tools ?? []).toEqual([]);
      expect(body.messages.map((m) => m.role)).toEqual(["system", "user"]);
      expect(body.messages[0]!.content).toBe(`${base}\n\n${MANAGER_INSTRUCTIONS.reflection}`);
      const last =
        i === 0
          ? []
          : [`The dispatcher's last decision: ${JSON.stringify(trace.steps[i - 1]!.action)}`];
      expect(body.messages[1]!.content).toBe(
        [
          `Task state so far:\n${i === 0 ? "(empty: the episode has just started)" : paragraphs[i - 1]}`,
          ...last,
          `New observation:\n${observed(trace.steps[i]!.observation)}`,
        ].join("\n\n"),
      );
    }
    for (const [i, body] of dispatcher.entries()) {
      expect(body.messages.map((m) => m.role)).toEqual(["system", "user"]);
      expect(body.messages[0]!.content).toBe(`${base}\n\n${DISPATCHER_INSTRUCTIONS.reflection}`);
      expect(body.messages[1]!.content).toBe(
        `Task state:\n${paragraphs[i]}\n\n${observed(trace.steps[i]!.observation)}`,
      );
    }
    // Both models' calls are logged per step, counted and priced with their own prices.
    for (const step of trace.steps) {
      expect(step.calls!.map((c) => c.model)).toEqual(["manager-model", "main-model"]);
      expect(step.usage!.calls).toBe(2);
    }
    const usage = run.records[0]!.usage;
    expect(usage.calls).toBe(6);
    expect(usage.inputTokens).toBe(3 * 50 + 3 * 100);
    // 3 x (50 x $10 + 20 x $20) + 3 x (100 x $1 + 10 x $2), per million tokens.
    expect(usage.costUsd).toBeCloseTo((3 * (500 + 400) + 3 * (100 + 20)) / 1e6, 12);
    expect(usage.unpricedCalls).toBeUndefined();
    expect(run.header.agent.config).toMatchObject({
      memory: "reflection",
      memoryModel: MANAGER,
    });
  });
});

describe("--memory explicit", () => {
  it("the manager keeps facts and goals through tools; the dispatcher sees the state", async () => {
    const ops: OpenAiReply[] = [
      {
        toolCalls: [
          { name: "add_goal", arguments: { text: "reach the goal cell" } },
          { name: "add_fact", arguments: { text: "started on the grid" } },
        ],
      },
      { toolCalls: [{ name: "complete_goal", arguments: { id: "g7" } }] },
      { toolCalls: [{ name: "complete_goal", arguments: { id: "g1" } }] },
    ];
    const { dispatcher, manager, trace } = await play(
      { memory: "explicit", memoryModel: MANAGER },
      (i) => ops[i] ?? {},
    );
    expect(manager).toHaveLength(3);
    for (const body of manager) {
      expect(body.tools!.map((t) => t.function.name)).toEqual(STATE_TOOLS.map((t) => t.name));
      expect(body.messages[0]!.content).toBe(
        `${system(trace.card)}\n\n${MANAGER_INSTRUCTIONS.explicit}`,
      );
    }
    const state1 =
      "Facts:\n- [f1] started on the grid\nRemaining goals:\n- [g1] reach the goal cell\nCompleted goals:\n- (none)";
    // A failed operation is told to the manager on its next call, and changes nothing.
    expect(manager[2]!.messages[1]!.content).toContain(
      'Your last operations that failed: calls[0] complete_goal: no goal "g7"',
    );
    expect(manager[1]!.messages[1]!.content).toContain(`Task state so far:\n${state1}`);
    expect(dispatcher[1]!.messages[1]!.content).toBe(
      `Task state:\n${state1}\n\n${observed(trace.steps[1]!.observation)}`,
    );
    expect(dispatcher[2]!.messages[1]!.content).toBe(
      "Task state:\nFacts:\n- [f1] started on the grid\nRemaining goals:\n- (none)\nCompleted goals:\n- [g1] reach the goal cell" +
        `\n\n${observed(trace.steps[2]!.observation)}`,
    );
    expect(dispatcher[0]!.messages[0]!.content).toBe(
      `${system(trace.card)}\n\n${DISPATCHER_INSTRUCTIONS.explicit}`,
    );
  });
});

describe("--memory oracle-state", () => {
  it("shows the suite's revealed goals, grants goal-state access and says so in the report", async () => {
    const { bodies, dispatcher, trace, run, outDir } = await play({ memory: "oracle-state" });
    // No state manager: the oracle replaces the first model.
    expect(bodies.every((b) => b.model === "main-model")).toBe(true);
    const [x, y] = spec.payload.goal;
    for (const [i, body] of dispatcher.entries()) {
      expect(body.messages.map((m) => m.role)).toEqual(["system", "user"]);
      expect(body.messages[1]!.content).toBe(
        `Task state:\nRemaining goals:\n- reach cell [${x}, ${y}] and finish there\nCompleted goals:\n- (none)` +
          `\n\n${observed(trace.steps[i]!.observation)}`,
      );
    }
    expect(run.header.access).toEqual({
      level: "goal-state",
      privileged: false,
      grants: ["goal-state"],
    });
    expect(run.header.agent.config.memory).toBe("oracle-state");
    const { runData } = await import("../src/cli/commands/report.ts");
    const markdown = renderMarkdown(buildReport(await runData(outDir)));
    expect(markdown).toContain("memory oracle-state: privileged, the suite's revealed goals");
  });

  it("is refused on a suite that states no goals", async () => {
    const { goalState: _none, ...plain } = suite;
    const options = { model: MAIN, baseUrl: "http://127.0.0.1:9/v1", memory: "oracle-state" };
    await expect(runLlm(plain, options, [spec.id])).rejects.toThrow(/states no goal state/);
  });
});

describe("--memory with a stateless harness (RoboGraph's appendix B payload)", () => {
  const robograph = robographSuite as unknown as Suite;
  const task = robograph.compile()[0]!.id;
  const observe = { text: JSON.stringify({ reason: "look", action: { name: "observe" } }) };

  async function playRobograph(memory: string) {
    const stub = await startOpenAiStub({ reply: observe });
    closers.push(() => stub.close());
    const options = { model: MAIN, baseUrl: stub.baseUrl, retryBaseMs: 1, memory: memory };
    const outDir = await runLlm(robograph, { ...options }, [task]);
    const run = loadRun(outDir);
    const trace = readTrace(outDir, run.records[0]!.episodeId) as Trace;
    return { trace, bodies: stub.requests.map((r) => r.body as Body).slice(0, 4) };
  }

  it("last-k:K hands the renderer only the last K steps of history", async () => {
    const { trace, bodies } = await playRobograph("last-k:1");
    // The session's history holds what the agent knew at each step: no step results.
    const known = trace.steps.map(({ step, observation, raw, action }) => ({
      step,
      observation,
      ...(raw !== undefined ? { raw } : {}),
      ...(action ? { action } : {}),
    }));
    for (const [i, body] of bodies.entries()) {
      const history = known.slice(Math.max(0, i - 1), i);
      expect(body.messages[1]!.content).toBe(
        robograph.renderer!.user(trace.steps[i]!.observation, { card: trace.card, history }),
      );
    }
    expect(JSON.parse(bodies[3]!.messages[1]!.content!).recent_history).toHaveLength(1);
  });

  it("oracle-state shows the goal atoms instead of the recent history", async () => {
    const { trace, bodies } = await playRobograph("oracle-state");
    const atoms = (
      trace.steps[0]!.observation.view as { success_criterion: { all: GoalAtom[] } }
    ).success_criterion.all.map(atomText);
    const text = bodies[2]!.messages[1]!.content!;
    const [state, payload] = [
      text.slice(0, text.indexOf("\n\n{")),
      text.slice(text.indexOf("\n\n{") + 2),
    ];
    expect(state.startsWith("Task state:\nRemaining goals:\n")).toBe(true);
    for (const atom of atoms) expect(state).toContain(atom);
    expect(JSON.parse(payload).recent_history).toEqual([]);
    expect(payload).toBe(
      robograph.renderer!.user(trace.steps[2]!.observation, { card: trace.card, history: [] }),
    );
  });
});
