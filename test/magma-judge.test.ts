/**
 * MAGMA's optional pinned LLM judge (`--compile judge=provider:model`) against a local
 * OpenAI-compatible stub: one call per open answer with the question, the rule and the answer;
 * a malformed verdict is asked again; the verdict replaces the deterministic rule; calls and
 * their cost are counted in the outcome.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ACCESS, type TaskSpec } from "../src/core/index.ts";
import {
  compileSuite,
  Expert,
  FAMILIES,
  type MagmaEnvironment,
  type MagmaLatent,
  type MagmaOutcome,
  type MagmaPayload,
  magmaSuite,
  type Stage,
} from "../src/suites/magma/index.ts";
import { Renamer } from "../src/suites/magma/realize.ts";
import { type OpenAiReply, startOpenAiStub } from "./stubs/index.ts";
import type { StubServer } from "./stubs/scripted-server.ts";
import { longhaul } from "./support/run-cli.ts";

let stub: StubServer<OpenAiReply>;
let spec: TaskSpec<MagmaPayload>;
beforeAll(async () => {
  stub = await startOpenAiStub({
    script: [
      { text: "I think it is fine." },
      { text: '```json\n{"verdict": false, "reason": "the count is wrong"}\n```' },
    ],
  });
  const specs = compileSuite({
    families: "packaging",
    judge: "openai:gpt-oss-20b",
    judgeBaseUrl: stub.baseUrl,
  });
  spec = specs.find((s) =>
    s.payload.stages.some((st) => st.type === "answer" && st.rule?.kind === "count"),
  ) as TaskSpec<MagmaPayload>;
}, 120_000);
afterAll(() => stub.close());

describe("the pinned LLM judge", () => {
  it("asks again on a malformed verdict and its verdict replaces the rule's", async () => {
    expect(spec.payload.judge?.model).toBe("openai:gpt-oss-20b");
    const env = (await magmaSuite.make(spec, { access: DEFAULT_ACCESS })) as MagmaEnvironment;
    await env.reset();
    const family = FAMILIES[spec.family]?.family;
    if (!family) throw new Error("no family");
    const expert = new Expert(family, spec.payload, new Renamer(spec.payload.names));
    const latent = () => env.latent() as unknown as MagmaLatent;
    let stage = spec.payload.stages[0] as Stage;
    for (let i = 0; i < 500; i++) {
      stage = spec.payload.stages[latent().stage] as Stage;
      if (stage.type === "answer") break;
      await env.step(expert.decide(latent()));
    }
    // The expert's answer satisfies the deterministic rule; the judge says no.
    const result = await env.step({ kind: "say", text: stage.answer ?? "" });
    expect(result.terminated).toBe(true);
    const outcome = (await env.outcome()).data as unknown as MagmaOutcome;
    expect(outcome.label).toBe("answer-rejected");
    expect(outcome.judgeCalls).toBe(2);
    expect(stub.requests).toHaveLength(2);
    const body = JSON.stringify(stub.requests[0]?.body);
    expect(body).toContain(stage.instruction?.slice(0, 20) ?? "?");
    expect(body).toContain(stage.answer?.slice(0, 20) ?? "?");
    expect(body).toContain("gpt-oss-20b");
  });
});

describe("longhaul run --judge", () => {
  it("refuses a suite without a judge before any run directory exists", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "longhaul-judge-")), "run");
    const r = await longhaul("run", "robograph", "--judge", "openai:m", "--out", out);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--judge does not apply: suite robograph has no LLM judge");
    expect(existsSync(out)).toBe(false);
  });

  it("pins the judge as magma's judge compile option, recorded in the run", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "longhaul-judge-")), "run");
    const args = ["run", "magma", "--agent", "oracle", "--compile", "families=packaging"];
    const clash = await longhaul(...args, "--judge", "openai:a", "--compile", "judge=openai:b");
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain("name different judges");
    const agrees = await startOpenAiStub({ reply: { text: '{"verdict": true, "reason": "ok"}' } });
    const r = await longhaul(
      ...args,
      "--compile",
      `judgeBaseUrl=${agrees.baseUrl}`,
      "--judge",
      "openai:gpt-oss-20b",
      "--task",
      spec.id,
      "--out",
      out,
      "--json",
    );
    expect(r.code, r.stderr).toBe(0);
    const run = JSON.parse(readFileSync(join(out, "run.json"), "utf8")) as {
      config: { compile?: Record<string, string> };
    };
    expect(run.config.compile?.judge).toBe("openai:gpt-oss-20b");
    expect(JSON.parse(r.stdout)).toMatchObject({ ran: 1, score: 1 });
    // The open answer went to the pinned judge, which agreed.
    expect(agrees.requests.length).toBeGreaterThan(0);
    expect(JSON.stringify(agrees.requests[0]?.body)).toContain("gpt-oss-20b");
    await agrees.close();
  }, 180_000);
});
