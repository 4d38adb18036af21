/**
 * The CLI in process, as a user runs it: exit codes, one-line errors, --help everywhere,
 * --json, a run read back from its log, resume, --fail-under, report and compare, the agent
 * listing, and a provider declared in the config file. (test/package.test.ts runs the built
 * executable as a real process.)
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type OpenAiReply, type StubServer, startOpenAiStub } from "./stubs/index.ts";
import { longhaul } from "./support/run-cli.ts";

const tmp = () => mkdtempSync(join(tmpdir(), "lh-cli-"));

function records(dir: string): { episodeId: string; status: string }[] {
  return readFileSync(join(dir, "episodes.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("longhaul CLI", () => {
  it("exits 2 with one clear line on usage errors, suggesting the closest name", async () => {
    const unknown = await longhaul("run", "transdution");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'longhaul: unknown suite "transdution"; did you mean "transduction"? known suites: robograph, magma, continual, transduction, playground\n',
    );
    expect((await longhaul("run")).code).toBe(2);
    expect((await longhaul("run", "transduction", "--filter", "nokey")).code).toBe(2);
    expect((await longhaul("schema", "Nope")).code).toBe(2);
    const agent = await longhaul("run", "transduction", "--agent", "orcale");
    expect(agent.code).toBe(2);
    expect(agent.stderr).toMatch(/unknown agent "orcale"; did you mean "oracle"\?/);
    const option = await longhaul("run", "transduction", "--agent", "oracle", "--agent-opt", "x=1");
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/invalid oracle agent options: .*"x".*it takes no options/);
    const twice = await longhaul(
      "run",
      "transduction",
      "--model",
      "openai:a",
      "--agent-opt",
      "model=b",
    );
    expect(twice.stderr).toMatch(/agent option "model" is given twice/);
    const score = await longhaul("score", "robgraph");
    expect(score.code).toBe(2);
    expect(score.stderr).toMatch(/did you mean "robograph"/);
  });

  it("prints --help for every command and --version, exiting 0", async () => {
    for (const cmd of [
      "list",
      "run",
      "report",
      "compare",
      "show",
      "stats",
      "agents",
      "schema",
      "score",
      "compile",
      "export",
    ]) {
      const r = await longhaul(cmd, "--help");
      expect(r.code, cmd).toBe(0);
      expect(r.stdout, cmd).toMatch(/^Usage: longhaul /);
    }
    const run = await longhaul("run", "--help");
    expect(run.stdout).toMatch(/--agent-opt <key=value>/);
    expect(run.stdout).toMatch(/--model <provider:name>/);
    expect(run.stdout).not.toMatch(/--cache <dir>/);
    const version = await longhaul("--version");
    expect(version).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) });
  });

  it("declares the options of the suite a suite verb names, in its help", async () => {
    const score = await longhaul("score", "transduction", "--help");
    expect(score.stdout).toMatch(/--doc <file>/);
    const pddl = await longhaul("export", "pddl", "robograph", "--help");
    expect(pddl.stdout).toMatch(/--out <dir>\s+output directory/);
    const transduction = await longhaul("export", "doc", "transduction", "--help");
    expect(transduction.stdout).toMatch(/--seed <seed>\s+root seed \(default [\w-]+\)\n/);
    expect(transduction.stdout).toMatch(/doc: write it here[^;]*; nemo-gym:\s+the\s+JSONL/);
    const generic = await longhaul("score", "--help");
    expect(generic.stdout).toMatch(/longhaul score <suite> --help/);
    const missing = await longhaul("score", "transduction");
    expect(missing.code).toBe(2);
  });

  it("lists suites as JSON with hashes and episode counts, the same with --no-cache", async () => {
    const r = await longhaul("list", "--json");
    expect(r.code).toBe(0);
    const suites = JSON.parse(r.stdout) as { id: string; episodes: number; hash: string }[];
    const t = suites.find((s) => s.id === "transduction");
    expect(t?.episodes).toBe(1440);
    expect(t?.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(suites.find((s) => s.id === "robograph")?.episodes).toBe(588);
    const fresh = await longhaul("--no-cache", "list", "transduction", "--json");
    expect(JSON.parse(fresh.stdout)).toEqual([t]);
  });

  it("lists every agent with its options", async () => {
    const r = await longhaul("agents", "--suite", "robograph", "--json");
    expect(r.code).toBe(0);
    const agents = JSON.parse(r.stdout) as {
      name: string;
      suite: string | null;
      privileged: boolean;
      options: { name: string; type: string; default?: unknown }[];
    }[];
    expect(agents.map((a) => a.name)).toEqual([
      "oracle",
      "explorer",
      "explorer-window",
      "random",
      "replay",
      "llm",
      "http",
    ]);
    expect(agents[0]).toMatchObject({ suite: "robograph", privileged: true, options: [] });
    const llm = agents.find((a) => a.name === "llm");
    expect(llm?.options.find((o) => o.name === "output")).toMatchObject({
      type: "auto|tools|json",
      default: "auto",
    });
    const text = await longhaul("agents");
    expect(text.stdout).toMatch(/^truncate-half \(transduction, privileged\): /m);
    expect(text.stdout).toMatch(/^ {2}trace \(string, required\): /m);
  });

  it("runs a suite, writes the log and report, resumes without duplicates, honours --fail-under", async () => {
    const out = tmp();
    const args = ["run", "transduction", "--subset", "4k", "--limit", "3", "--out", out];
    const first = await longhaul(...args, "--agent", "oracle", "--json");
    expect(first.code, first.stderr).toBe(0);
    const summary = JSON.parse(first.stdout) as { ran: number; score: number; status: string };
    expect(summary).toMatchObject({ ran: 3, score: 1, status: "finished" });
    expect(records(out).map((r) => r.status)).toEqual(["success", "success", "success"]);
    expect(readFileSync(join(out, "report.md"), "utf8")).toMatch(/success rate/);
    const header = JSON.parse(readFileSync(join(out, "run.json"), "utf8"));
    expect(header.agent).toEqual({ id: "oracle", config: { name: "oracle" } });

    const again = await longhaul(...args, "--agent", "oracle", "--json");
    expect(JSON.parse(again.stdout)).toMatchObject({ ran: 0, skipped: 3 });
    expect(records(out)).toHaveLength(3);

    // A different agent in the same directory is a different run: refused, nothing lost.
    const clash = await longhaul(...args, "--agent", "truncate-half");
    expect(clash.code).toBe(2);
    expect(records(out)).toHaveLength(3);

    const failing = tmp();
    // The same selection, limited to two documents.
    const low = await longhaul(
      ...args.slice(0, 5),
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
    expect(low.stderr).toMatch(/below --fail-under 0.5/);

    const report = await longhaul("report", out, "--json");
    expect(report.code).toBe(0);
    expect(JSON.parse(report.stdout).generic.episodes).toBe(3);

    // The two runs share their first two episodes: the oracle solved both, truncate-half none.
    const compare = await longhaul("compare", out, failing, "--json", "--resamples", "200");
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

  it("shows a task card and the suite's statistics", async () => {
    const show = await longhaul("show", "robograph", "cosmetics-t03/i5", "--json");
    expect(show.code, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout).card.id).toBe("cosmetics-t03/i5");
    const stats = await longhaul("stats", "robograph", "--json");
    expect(JSON.parse(stats.stdout)).toMatchObject({ suite: "robograph" });
  });
});

describe("a provider declared in the config file", () => {
  let stub: StubServer<OpenAiReply> | undefined;
  afterEach(async () => {
    vi.unstubAllEnvs();
    await stub?.close();
  });

  it("runs the llm agent against its endpoint with the key from its variable", async () => {
    stub = await startOpenAiStub({ reply: { text: "no idea" } });
    const config = join(tmp(), "config.json");
    writeFileSync(
      config,
      JSON.stringify({
        providers: { stubbed: { baseUrl: stub.baseUrl, apiKeyEnv: "STUBBED_KEY" } },
      }),
    );
    vi.stubEnv("LONGHAUL_CONFIG", config);
    vi.stubEnv("STUBBED_KEY", "sk-from-env");
    const out = tmp();
    const r = await longhaul(
      "run",
      "transduction",
      "--subset",
      "4k",
      "--limit",
      "1",
      "--model",
      "stubbed:tiny-model",
      "--agent-opt",
      "maxRetries=0",
      "--out",
      out,
      "--json",
    );
    expect(r.code, r.stderr).toBe(0);
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]?.body).toMatchObject({ model: "tiny-model" });
    expect(stub.requests[0]?.headers.authorization).toBe("Bearer sk-from-env");
    expect(records(out)).toHaveLength(1);
    const header = readFileSync(join(out, "run.json"), "utf8");
    expect(JSON.parse(header).agent.config).toMatchObject({
      name: "llm",
      model: "stubbed:tiny-model",
    });
    expect(header).not.toMatch(/sk-from-env/);

    vi.stubEnv("STUBBED_KEY", undefined);
    const keyless = await longhaul("run", "transduction", "--model", "stubbed:m", "--out", tmp());
    expect(keyless.stderr).toBe(
      "longhaul: no API key for stubbed: set STUBBED_KEY or pass an API key\n",
    );
    const typo = await longhaul("run", "transduction", "--model", "stubed:m", "--out", tmp());
    expect(typo.stderr).toMatch(
      /unknown provider "stubed"; did you mean "stubbed"\? known providers: openai, anthropic, stubbed/,
    );
  });
});
