/** `longhaul dataset magma` end to end: files, manifest, JSON summary and usage errors. */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AuthorsRow, OpenAiChatRow } from "../src/training/index.ts";
import { longhaul } from "./support/run-cli.ts";

const outDir = () => mkdtempSync(join(tmpdir(), "lh-dataset-cli-"));

describe("longhaul dataset magma", () => {
  it("writes both formats, a manifest and a JSON summary", { timeout: 180_000 }, async () => {
    const dir = outDir();
    const r = await longhaul("dataset", "magma", "--out", dir, "--tasks", "3", "--json");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.tasks.total).toBe(3);
    expect(summary.decisions.min).toBeGreaterThan(40);
    expect(summary.rows.train + summary.rows.validation).toBe(
      3 * Math.round(summary.decisions.mean * summary.tasks.total),
    );
    const manifest = JSON.parse(readFileSync(join(dir, "magma.manifest.json"), "utf8"));
    expect(manifest.disjointness).toMatchObject({ evaluationSpecs: 1254, checked: 3, overlaps: 0 });
    expect(manifest.seed).toBe("magma-train-1");
    for (const f of manifest.files) expect(existsSync(join(dir, f.path))).toBe(true);
    const first = (name: string) =>
      JSON.parse(readFileSync(join(dir, name), "utf8").split("\n")[0] as string);
    OpenAiChatRow.parse(first("magma.jsonl"));
    AuthorsRow.parse(first("magma.authors.jsonl"));
  });

  it("prints a summary with the files", { timeout: 180_000 }, async () => {
    const r = await longhaul(
      "dataset",
      "magma",
      "--out",
      outDir(),
      "--tasks",
      "1",
      "--format",
      "authors",
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /1 tasks \(decisions \d+-\d+, mean [\d.]+\) -> \d+ training and \d+ validation rows/,
    );
    expect(r.stdout).toContain("magma.authors.jsonl");
    expect(r.stdout).not.toContain("magma.jsonl (");
  });

  it("rejects bad flags and the evaluation seed with exit code 2", async () => {
    const dir = outDir();
    expect((await longhaul("dataset", "magma", "--out", dir, "--format", "xml")).code).toBe(2);
    expect((await longhaul("dataset", "magma", "--out", dir, "--val-fraction", "1.5")).code).toBe(
      2,
    );
    expect((await longhaul("dataset", "magma", "--out", dir, "--tasks", "0")).code).toBe(2);
    const seed = await longhaul("dataset", "magma", "--out", dir, "--seed", "magma-bench-1");
    expect(seed.code).toBe(2);
    expect(seed.stderr).toMatch(/evaluation set's seed/);
    expect((await longhaul("dataset", "magma")).code).toBe(2);
    expect((await longhaul("dataset", "magma", "--help")).code).toBe(0);
  });
});
