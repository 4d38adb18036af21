/**
 * MAGMA end to end: `longhaul run magma` with the oracle on a small filter, read back from the
 * run directory (and resumed without duplicates); `longhaul check magma` (hidden-state
 * conformance and the protocol checks); and the magma-http agent against a local agent server
 * speaking the authors' protocol v2, including its failures.
 */
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../src/agents/index.ts";
import { loadRun } from "../src/log/index.ts";
import { runSuite } from "../src/run/index.ts";
import { magmaSuite } from "../src/suites/magma/index.ts";
import {
  type MagmaAgentStub,
  type StubInput,
  type StubReply,
  startMagmaAgentStub,
} from "./stubs/magma-agent-stub.ts";
import { longhaul } from "./support/run-cli.ts";

const tmp = () => mkdtempSync(join(tmpdir(), "longhaul-magma-"));

describe("longhaul run magma (end to end)", () => {
  it("runs the oracle on a filter, logs every episode, and resumes without duplicates", async () => {
    const out = tmp();
    const args = [
      "run",
      "magma",
      "--agent",
      "oracle",
      "--compile",
      "families=bi-robot-sorting",
      "--filter",
      "realization=0",
      "--out",
      out,
      "--json",
    ];
    const first = await longhaul(...args);
    expect(first.code, first.stderr).toBe(0);
    const summary = JSON.parse(first.stdout) as { planned: number; ran: number; score: number };
    // Bi-Robot Sorting: 10 specs; CE and SE each, MU and CO where a rule is stated (5 specs).
    expect(summary.planned).toBe(30);
    expect(summary.ran).toBe(30);
    expect(summary.score).toBe(1);
    const { records } = loadRun(out);
    expect(records).toHaveLength(30);
    expect(records.every((r) => r.status === "success" && r.tags.realization === 0)).toBe(true);
    expect(records.some((r) => r.tags.condition === "SE" && (r.metrics.faults ?? 0) > 0)).toBe(
      true,
    );
    expect(records.every((r) => r.tags.multi === "multi" && r.metrics.gc === 1)).toBe(true);
    expect(readdirSync(join(out, "traces")).length).toBeGreaterThan(0);
    const again = await longhaul(...args);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ ran: 0, skipped: 30 });
    expect(loadRun(out).records).toHaveLength(30);
  }, 180_000);

  it("passes `longhaul check` (hidden state never reaches the agent)", async () => {
    const r = await longhaul(
      "check",
      "magma",
      "--compile",
      "families=delivery",
      "--limit",
      "4",
      "--max-steps",
      "60",
      "--json",
    );
    const report = JSON.parse(r.stdout) as {
      ok: boolean;
      results: { name: string; ok: boolean }[];
    };
    expect(report.results.filter((x) => !x.ok)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(r.code).toBe(0);
  }, 180_000);
});

describe("magma-http against a local agent server (protocol v2)", () => {
  let stub: MagmaAgentStub;
  let policy: (input: StubInput, n: number) => StubReply = () => ({ say: "ok" });
  beforeAll(async () => {
    stub = await startMagmaAgentStub((input, n) => policy(input, n));
  });
  afterAll(() => stub.close());

  async function run(taskId: string) {
    const out = tmp();
    const { agent } = await createAgent("magma-http", { url: stub.url }, magmaSuite);
    const summary = await runSuite({
      suite: magmaSuite,
      agent,
      agentConfig: { name: "magma-http" },
      outDir: out,
      seed: "0",
      epochs: 1,
      concurrency: 1,
      compile: { families: "packaging" },
      taskIds: [taskId],
    });
    return summary.records[0];
  }

  it("sends instructions, tools, attributes and memory; runs the agent's calls", async () => {
    stub.requests.length = 0;
    policy = (_input, n) => {
      const memory = { turn: n + 1 };
      if (n === 0) return { say: "Understood.", memory };
      if (n === 1)
        return {
          tool_calls: [{ name: "detect", arguments: {}, target_robot_name: "packer" }],
          memory,
        };
      return { say: "Here is your tray.", memory };
    };
    const record = await run("packaging-01/CE/r0");
    const [first, second, third] = stub.requests.map((r) => r.inputs[0]);
    expect(first?.instruction.type).toBe("user");
    expect(first?.instruction.content).toMatch(/recipe/);
    expect(first?.memory).toEqual({});
    expect(first?.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["detect", "take", "put", "valid_plate"]),
    );
    expect(first?.attributes).toHaveProperty("locations");
    expect(second?.memory).toEqual({ turn: 1 });
    expect(second?.instruction.type).toBe("user");
    // The detection ran on the simulator and came back as an environment report.
    expect(third?.instruction.type).toBe("env");
    expect(third?.instruction.content).toMatch(/table contains/);
    expect(third?.instruction.content).toMatch(/previous_tool_call/);
    expect(third?.memory).toEqual({ turn: 2 });
    // Text while the tray is due: the episode fails with the paper's label.
    expect(record).toMatchObject({ status: "failure", category: "text-for-action" });
  });

  it("rejects a reply with both say and tool calls, and ends on repeated unusable outputs", async () => {
    policy = () => ({
      say: "Done.",
      tool_calls: [{ name: "detect", arguments: {}, target_robot_name: "packer" }],
    });
    const record = await run("packaging-01/CE/r1");
    expect(record?.formatErrors).toBeGreaterThanOrEqual(3);
    expect(record?.endedBy).toBe("format");
    // The session ended it (three unusable replies in a row); Figure 4 counts it as invalid format.
    expect(record?.category).toBe("FORMAT");
  });

  it("records a server failure as an invalid episode without taking the run down", async () => {
    policy = () => ({ http: 500, body: "boom" });
    const record = await run("packaging-01/CE/r2");
    expect(record?.status).toBe("invalid");
    expect(record?.error).toMatch(/HTTP 500/);
  });
});
