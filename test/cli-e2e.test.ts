/** The CLI as a user runs it: exit codes, --json, a run read back from its log, resume. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "..", "bin", "longhaul.js");

function longhaul(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function records(dir: string): { episodeId: string; status: string }[] {
  return readFileSync(join(dir, "episodes.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("longhaul CLI", () => {
  it("exits 2 with one clear line on usage errors", () => {
    const unknown = longhaul("run", "no-such-suite");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toMatch(
      /^longhaul: unknown suite "no-such-suite"; known suites: /,
    );
    expect(unknown.stderr).not.toMatch(/\n\s+at /);
    expect(longhaul("run").code).toBe(2);
    expect(longhaul("run", "transduction", "--filter", "nokey").code).toBe(2);
    expect(longhaul("schema", "Nope").code).toBe(2);
  });

  it("prints --help for every command and exits 0", () => {
    for (const cmd of ["list", "run", "report", "compare", "show", "stats", "schema", "score"]) {
      const r = longhaul(cmd, "--help");
      expect(r.code, cmd).toBe(0);
      expect(r.stdout).toMatch(/^Usage: longhaul /);
    }
  });

  it("lists suites as JSON with hashes and episode counts", () => {
    const r = longhaul("list", "--json");
    expect(r.code).toBe(0);
    const suites = JSON.parse(r.stdout) as { id: string; episodes: number; hash: string }[];
    const t = suites.find((s) => s.id === "transduction");
    expect(t?.episodes).toBe(1440);
    expect(t?.hash).toMatch(/^[0-9a-f]{16}$/);
  });

  it("runs a suite, writes the log and report, resumes without duplicates, honours --fail-under", () => {
    const out = mkdtempSync(join(tmpdir(), "lh-cli-"));
    const args = ["run", "transduction", "--subset", "4k", "--limit", "3", "--out", out];
    const first = longhaul(...args, "--agent", "oracle", "--json");
    expect(first.code, first.stderr).toBe(0);
    const summary = JSON.parse(first.stdout) as { ran: number; score: number; status: string };
    expect(summary).toMatchObject({ ran: 3, score: 1, status: "finished" });
    expect(records(out).map((r) => r.status)).toEqual(["success", "success", "success"]);
    expect(readFileSync(join(out, "report.md"), "utf8")).toMatch(/success rate/);

    const again = longhaul(...args, "--agent", "oracle", "--json");
    expect(JSON.parse(again.stdout)).toMatchObject({ ran: 0, skipped: 3 });
    expect(records(out)).toHaveLength(3);

    // A different agent in the same directory is a different run: refused, nothing lost.
    const clash = longhaul(...args, "--agent", "truncate-half");
    expect(clash.code).toBe(2);
    expect(records(out)).toHaveLength(3);

    const failing = mkdtempSync(join(tmpdir(), "lh-cli-"));
    const low = longhaul(
      "run",
      "transduction",
      "--subset",
      "4k",
      "--limit",
      "2",
      "--out",
      failing,
      "--agent",
      "truncate-half",
      "--fail-under",
      "0.5",
      "--json",
    );
    expect(low.code).toBe(1);
    expect(JSON.parse(low.stdout).score).toBe(0);

    const report = longhaul("report", out, "--json");
    expect(report.code).toBe(0);
    expect(JSON.parse(report.stdout).generic.episodes).toBe(3);

    // The two runs share their first two episodes: the oracle solved both, truncate-half none.
    const compare = longhaul("compare", out, failing, "--json", "--resamples", "200");
    expect(compare.code, compare.stderr).toBe(0);
    const model = JSON.parse(compare.stdout) as {
      paired: number;
      onlyA: string[];
      outcomes: { retained: number; lost: number; gained: number; unsolved: number };
    };
    expect(model.paired).toBe(2);
    expect(model.onlyA).toHaveLength(1);
    expect(model.outcomes).toMatchObject({ retained: 0, lost: 2, gained: 0, unsolved: 0 });
  });
});
