/** `longhaul check` and `longhaul rescore` in process: arguments, output, exit codes. */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent } from "../src/agents/index.ts";
import { runSuite } from "../src/run/index.ts";
import { transductionSuite } from "../src/suites/transduction/index.ts";
import { longhaul } from "./support/run-cli.ts";

const LAUNDRY = join(import.meta.dirname, "..", "src/suites/robograph/examples/laundry.yaml");

describe("longhaul check", () => {
  it("checks a user family file and reports every check as JSON", async () => {
    const { stdout: out, code } = await longhaul(
      "check",
      "robograph",
      "--compile",
      `familyFile=${LAUNDRY}`,
      "--limit",
      "2",
      "--json",
    );
    expect(code).toBe(0);
    const report = JSON.parse(out) as { ok: boolean; played: string[]; results: unknown[] };
    expect(report.ok).toBe(true);
    expect(report.results).toHaveLength(12);
    expect(report.played).toHaveLength(2);
    expect(report.played.every((id) => id.startsWith("laundry-"))).toBe(true);
  });
});

describe("longhaul rescore", () => {
  it("rescores a run next to it, writes the report, and never into its source", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lh-rescore-cli-"));
    await runSuite({
      suite: transductionSuite,
      agent: (await createAgent("oracle", {}, transductionSuite)).agent,
      agentConfig: { name: "oracle" },
      outDir: dir,
      seed: "0",
      epochs: 1,
      concurrency: 2,
      subset: "4k",
      limit: 2,
    });
    const { stdout: out, code } = await longhaul("rescore", dir, "--json");
    expect(code).toBe(0);
    const summary = JSON.parse(out) as Record<string, unknown>;
    expect(summary).toMatchObject({ episodes: 2, rescored: 2, changed: 0, out: `${dir}-rescored` });
    expect(readFileSync(join(`${dir}-rescored`, "episodes.jsonl"), "utf8")).toBe(
      readFileSync(join(dir, "episodes.jsonl"), "utf8"),
    );
    expect(existsSync(join(`${dir}-rescored`, "report.md"))).toBe(true);
    const refused = await longhaul("rescore", dir, "--out", dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^longhaul: rescore never overwrites its source run/);
    expect((await longhaul("check", "robograph", "--help")).stdout).toMatch(
      /^Usage: longhaul check/,
    );
  });
});
