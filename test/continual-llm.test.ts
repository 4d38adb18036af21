/**
 * The continual suite with the generic llm agent against a local OpenAI stub: the suite's
 * harness reaches the wire, and stream memory works for a curriculum: in-context learning
 * carries the learning episodes' full trajectories into the test episode; skill learning
 * distills them into a Markdown note with one extra call, and only the note goes on.
 */
import { afterEach, describe, expect, it } from "vitest";
import { SKILL_WRITER_SYSTEM } from "../src/agents/llm/stream-memory.ts";
import { loadRun, readCheckpoint, readTrace } from "../src/log/index.ts";
import { getSuite } from "../src/suites/index.ts";
import {
  type OpenAiReply,
  type RecordedRequest,
  type StubServer,
  startOpenAiStub,
} from "./stubs/index.ts";
import { runLlm } from "./support/run-llm.ts";

let stub: StubServer<OpenAiReply> | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

type Body = { messages: { role: string; content: string | null }[] };
const systemOf = (r: RecordedRequest) => String((r.body as Body).messages[0]?.content ?? "");
const NOTE = "## Skill note\n- Face an object, walk up to it, then operate it.";

/** A model that always picks A, and writes the note when asked for one. */
function model(request: RecordedRequest): OpenAiReply {
  if (systemOf(request) === SKILL_WRITER_SYSTEM) return { text: NOTE };
  return {
    toolCalls: [{ name: "select_option", arguments: { option: "A", reason: "first listed" } }],
  };
}

async function runStream(setting: "icl" | "skill", memory?: "off") {
  stub = await startOpenAiStub({ reply: model });
  const options = {
    model: "openai:stub",
    baseUrl: stub.baseUrl,
    apiKey: "k",
    maxRetries: 0,
    ...(memory ? { streamMemory: memory } : {}),
  };
  const suite = await getSuite("continual");
  const stream = `${setting}/L4-child-001`;
  const outDir = await runLlm(suite, options, [
    `${stream}/learn-1`,
    `${stream}/learn-2`,
    `${stream}/test`,
  ]);
  const { records } = loadRun(outDir);
  return { outDir, records, requests: stub.requests, stream };
}

describe("the llm agent on continual streams", () => {
  it("ICL: the test episode's prompt holds both learning trajectories in full", async () => {
    const { records, requests } = await runStream("icl");
    expect(records.map((r) => r.stream?.phase)).toEqual(["learn", "learn", "test"]);
    const [learn1, learn2, test] = records;
    const first = requests.slice(0, learn1?.steps);
    const last = requests.slice(requests.length - (test?.steps ?? 0));
    for (const r of first) expect(systemOf(r)).not.toContain("Experience from your earlier tasks");
    for (const r of last) {
      const system = systemOf(r);
      expect(system).toContain("Experience from your earlier tasks in this sequence");
      expect(system).toContain("### Earlier task 1 (learn)");
      expect(system).toContain("### Earlier task 2 (learn)");
      expect(system).not.toContain("### Earlier task 3");
      // Full trajectories: every step of both learning episodes, as the model saw and answered it.
      expect(system.split("Your reply:").length - 1).toBe(
        (learn1?.steps ?? 0) + (learn2?.steps ?? 0),
      );
      expect(system).toContain("Outcome: the task was");
      expect(system).toContain('Your reply: select_option {"option":"A","reason":"first listed"}');
    }
    // The harness reached the wire: the scene and the four choices.
    const user = (last[0]?.body as Body | undefined)?.messages.at(-1)?.content ?? "";
    expect(user).toMatch(/Current scene: .*\nChoices:\nA\. .*\nB\. .*\nC\. .*\nD\. /s);
    expect(requests).toHaveLength(records.reduce((n, r) => n + r.steps, 0));
  });

  it("skill learning: one call distills the trajectories; only the note is in the test prompt", async () => {
    const { outDir, records, requests, stream } = await runStream("skill");
    const writes = requests.filter((r) => systemOf(r) === SKILL_WRITER_SYSTEM);
    expect(writes).toHaveLength(1);
    const ask = String((writes[0]?.body as Body | undefined)?.messages[1]?.content);
    expect(ask).toContain("concise skill summary in Markdown");
    expect(ask).toContain("### Earlier task 1 (learn)");
    expect(ask).toContain("### Earlier task 2 (learn)");
    const test = records[2];
    const after = requests.slice(requests.indexOf(writes[0] as RecordedRequest) + 1);
    expect(after).toHaveLength(test?.steps ?? -1);
    for (const r of after) {
      expect(systemOf(r)).toContain(`<skill>\n${NOTE}\n</skill>`);
      expect(systemOf(r)).not.toContain("### Earlier task");
    }
    // The distillation call is logged with the test episode's first decision.
    const trace = readTrace(outDir, test?.episodeId as string);
    expect(trace.steps[0]?.calls).toHaveLength(2);
    expect(test?.usage.calls).toBe((test?.steps ?? 0) + 1);
    // Memory checkpoints: trajectories after learning, only the note after the test.
    const afterLearning = await readCheckpoint(outDir, `${stream}@0`, 1);
    expect(
      (afterLearning?.memory as { trajectories: unknown[] } | undefined)?.trajectories,
    ).toHaveLength(2);
    const afterTest = await readCheckpoint(outDir, `${stream}@0`, 2);
    expect(afterTest?.memory).toEqual({ trajectories: [], note: NOTE });
  });

  it("streamMemory=off ignores the stream's memory (the zero-shot harness on a stream)", async () => {
    const { requests } = await runStream("skill", "off");
    expect(requests.some((r) => systemOf(r) === SKILL_WRITER_SYSTEM)).toBe(false);
    expect(requests.every((r) => !systemOf(r).includes("<skill>"))).toBe(true);
  });
});
