import { afterEach, describe, expect, it } from "vitest";
import type { Json } from "../../core/index.ts";
import { loadSandbox, runProgram } from "./code-mode.ts";
import type { PlaygroundEnvironment } from "./environment.ts";
import { envFor, tool } from "./test-support.ts";

const far = () => Date.now() + 10_000;

describe("code mode sandbox (QuickJS in WebAssembly)", () => {
  it("runs loops over bridge calls and returns the program's value and log", async () => {
    const qjs = await loadSandbox();
    const calls: string[] = [];
    const r = runProgram(
      qjs,
      `let t = 0; for (let i = 0; i < 3; i++) { t = step({ n: i }).time; console.log("t", t); } return { t, seen: observe().ok };`,
      (name, args) => {
        calls.push(`${name}:${JSON.stringify(args)}`);
        const result: Json = name === "observe" ? { ok: true } : { time: calls.length };
        return { result };
      },
      { deadlineMs: far() },
    );
    expect(r).toMatchObject({
      ok: true,
      value: { t: 3, seen: true },
      log: ["t 1", "t 2", "t 3"],
      bridgeCalls: 4,
    });
    expect(calls[0]).toBe('step:{"n":0}');
  });

  it("has no host access and interrupts a runaway program at the wall deadline", async () => {
    const qjs = await loadSandbox();
    const hostAccess = runProgram(
      qjs,
      `return typeof process + typeof require + typeof fetch;`,
      () => ({}),
      { deadlineMs: far() },
    );
    expect(hostAccess.value).toBe("undefinedundefinedundefined");
    const spin = runProgram(qjs, `while (true) {}`, () => ({}), { deadlineMs: Date.now() + 200 });
    expect(spin).toMatchObject({ ok: false, error: expect.stringMatching(/wall-clock/) });
  });

  it("surfaces bridge refusals as exceptions the program can catch, and fatal ends as a stop", async () => {
    const qjs = await loadSandbox();
    const caught = runProgram(
      qjs,
      `try { tool("nope", {}); } catch (e) { return "caught: " + e.message; }`,
      () => ({ error: "unknown-tool: no such tool" }),
      { deadlineMs: far() },
    );
    expect(caught.value).toBe("caught: unknown-tool: no such tool");
    const fatal = runProgram(
      qjs,
      `for (;;) { step({}); }`,
      () => ({ error: "the episode ended (TIME)", fatal: true }),
      {
        deadlineMs: far(),
      },
    );
    expect(fatal).toMatchObject({ ok: false, error: "the episode ended (TIME)", bridgeCalls: 1 });
  });
});

describe("run_program in an episode", () => {
  let env: PlaygroundEnvironment | undefined;
  afterEach(() => env?.close());

  it("a program aims and fires through step(); every control period counts against the budgets", async () => {
    env = envFor("Launch-02", 0, "L0");
    await env.reset();
    const code = `
      step({ launcher: { brake: false } });
      step({ launcher: { elevationRate: -0.2 } }, 10);   // 0.3 rad -> 0.26 rad
      step({ launcher: { elevationRate: 0, brake: true, drawRate: 0.15 } }, 40);
      step({ launcher: { drawRate: 0 } }, 5);
      const before = observe();
      step({ launcher: { fire: true } });
      let v = observe();
      for (let i = 0; i < 200 && v.cleared.length === 0; i++) { step({}, 5); v = observe(); }
      return { drawn: before.launcher.draw, cleared: v.cleared, actions: v.actions };`;
    const r = env.step(tool("run_program", { code }));
    const data = r.observation.events[0]?.data as {
      ok: boolean;
      value: { drawn: number; cleared: string[]; actions: number };
    };
    expect(data.ok).toBe(true);
    expect(data.value.drawn).toBeGreaterThan(0.09);
    expect(r.info.actions).toBe(data.value.actions);
    expect(r.observation.simTime).toBeCloseTo(data.value.actions / 50, 6);
  });
});
