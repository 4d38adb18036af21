/**
 * Runs a user can trust and follow (issue 8), through the CLI in process against local stub
 * providers: no secret in any file or line printed, setup errors refused before anything is
 * written, visible failures (errors grouped, --max-errors, all-invalid runs), usage errors for
 * selections and options that do not apply, comparisons without pairs, and a corrupt log line
 * reported printably and repaired.
 */
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import {
  type OpenAiReply,
  type StubServer,
  type StubStep,
  startOpenAiStub,
} from "./stubs/index.ts";
import { type CliResult, longhaul } from "./support/run-cli.ts";

const tmp = () => mkdtempSync(join(tmpdir(), "lh-robust-"));
/** One 4K transduction document: one model call per episode. */
const ONE_DOC = ["run", "transduction", "--subset", "4k", "--limit", "1"];

let stub: StubServer<OpenAiReply> | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

async function openAi(reply: (authorization: string) => StubStep<OpenAiReply>) {
  stub = await startOpenAiStub({
    reply: (request) => reply(String(request.headers.authorization ?? "")) as OpenAiReply,
  });
  return stub;
}

/** Every file of a directory as text, traces gunzipped. */
function everything(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const bytes = readFileSync(path);
        out.push(
          path.endsWith(".gz") ? gunzipSync(bytes).toString("utf8") : bytes.toString("utf8"),
        );
      }
    }
  };
  walk(dir);
  return out.join("\n");
}

describe("secrets", () => {
  const KEY = "sk-live-0123456789abcdef";
  const PASSWORD = "hunter2-pw-4242";

  it("never reach run.json, records, traces, reports or the terminal", async () => {
    // The provider echoes the credentials it got in its error, as real ones sometimes do.
    const server = await openAi((authorization) => {
      const [scheme, value = ""] = authorization.split(" ");
      const given = scheme === "Basic" ? Buffer.from(value, "base64").toString() : value;
      return { status: 400, message: `invalid credentials ${given}` };
    });
    const withUser = server.baseUrl.replace("http://", `http://alice:${PASSWORD}@`);
    const runs: [string[], CliResult][] = [];
    for (const args of [
      ["--base-url", server.baseUrl, "--api-key", KEY],
      ["--base-url", server.baseUrl, `--api-key=${KEY}`],
      ["--base-url", server.baseUrl, "--agent-opt", `apiKey=${KEY}`],
      ["--base-url", withUser],
      [`--base-url=${withUser}`, "--agent-opt=maxRetries=0"],
    ]) {
      const out = tmp();
      const r = await longhaul(...ONE_DOC, "--model", "openai:m", ...args, "--out", out);
      runs.push([args, r]);
      expect(r.code, r.stderr).toBe(1); // the one episode is invalid
      const all = `${everything(out)}\n${r.stdout}\n${r.stderr}`;
      expect(all).toMatch(/invalid credentials (\*\*\*|alice:\*\*\*)/);
      expect(all).not.toContain(KEY);
      expect(all).not.toContain(PASSWORD);
      const header = JSON.parse(readFileSync(join(out, "run.json"), "utf8"));
      expect(header.command.join(" ")).toMatch(/\*\*\*/);
    }
    const [, first] = runs[0]!;
    expect(first.stderr).toMatch(/every episode was invalid; the most frequent error: /);
    // The basic credentials reached the server as a header, the URL went without them.
    expect(server.requests.at(-1)?.headers.authorization).toBe(
      `Basic ${Buffer.from(`alice:${PASSWORD}`).toString("base64")}`,
    );
  });
});

describe("setup errors", () => {
  it("are refused with exit 2 and one line before any directory exists", async () => {
    const root = tmp();
    const out = join(root, "run");
    const bad = join(root, "prices.yaml");
    writeFileSync(bad, "openai:m: { input: [oops\n");
    const file = join(root, "a-file");
    writeFileSync(file, "x");
    const busy = join(root, "busy");
    mkdirSync(busy);
    writeFileSync(join(busy, "notes.txt"), "mine");
    const cases: [string[], RegExp][] = [
      [
        [
          "--model",
          "openai:m",
          "--base-url",
          "http://127.0.0.1:9/v1",
          "--prices",
          join(root, "none.yaml"),
        ],
        /cannot read price table/,
      ],
      [
        ["--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1", "--prices", bad],
        /price table .* is not valid YAML\/JSON/,
      ],
      [["--model", "gpt-4o"], /model: expected "provider:NAME"/],
      [
        ["--agent", "oracle", "--compile", "tokeniser=x"],
        /unknown compile option\(s\) for suite transduction: tokeniser; it takes: seed, tokenizer, strict/,
      ],
      [
        ["--agent", "oracle", "--filter", "difficulty=impossible"],
        /^longhaul: filter difficulty=impossible selects no task of suite transduction \(difficulty is one of: /,
      ],
      [
        ["--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1", "--max-cost", "1"],
        /--max-cost does not apply without a price table/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await longhaul(...ONE_DOC, ...args, "--out", out);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toMatch(message);
      expect(r.stderr.trimEnd().split("\n"), args.join(" ")).toHaveLength(1);
      expect(existsSync(out), args.join(" ")).toBe(false);
    }
    const onFile = await longhaul(...ONE_DOC, "--agent", "oracle", "--out", file);
    expect(onFile).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/is a file, not a run directory/),
    });
    const onBusy = await longhaul(...ONE_DOC, "--agent", "oracle", "--out", busy);
    expect(onBusy.code).toBe(2);
    expect(onBusy.stderr).toMatch(/is not empty and holds no run/);
    expect(readdirSync(busy)).toEqual(["notes.txt"]);
  });

  it("stops the run on a key the provider refuses, leaving no directory", async () => {
    await openAi(() => ({ status: 401, message: "Incorrect API key provided" }));
    const out = join(tmp(), "run");
    const r = await longhaul(
      "run",
      "transduction",
      "--subset",
      "4k",
      "--limit",
      "3",
      "--model",
      "openai:m",
      "--base-url",
      stub!.baseUrl,
      "--out",
      out,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^longhaul: openai:m at 127\.0\.0\.1:\d+: the provider refused the API key \(HTTP 401: /,
    );
    expect(existsSync(out)).toBe(false);
  });

  it("refuses an option that does not apply, saying why", async () => {
    const r = await longhaul(
      "run",
      "robograph",
      "--limit",
      "1",
      "--model",
      "openai:m",
      "--base-url",
      "http://127.0.0.1:9/v1",
      "--output",
      "tools",
      "--out",
      join(tmp(), "x"),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /output "tools" \(--output\) does not apply: this suite's renderer answers in json/,
    );
  });
});

describe("visible failures", () => {
  it("stops after --max-errors invalid episodes and says how to resume", async () => {
    await openAi(() => ({ status: 500, message: "upstream down" }));
    const out = tmp();
    const args = [
      "run",
      "transduction",
      "--subset",
      "4k",
      "--limit",
      "5",
      "--concurrency",
      "1",
      "--model",
      "openai:m",
      "--base-url",
      stub!.baseUrl,
      "--agent-opt",
      "maxRetries=0",
      "--out",
      out,
    ];
    const r = await longhaul(...args, "--max-errors", "2");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /stopped after 2 invalid episodes \(--max-errors 2\); the most frequent error: LonghaulError: openai:m: HTTP 500: /,
    );
    expect(r.stderr).toContain(
      `to resume: longhaul ${args.join(" ")} --max-errors 2 (add --retry-errors to rerun the invalid ones)`,
    );
    expect(r.stdout).toMatch(
      /^invalid episodes by error:\n {2}2x LonghaulError: openai:m: HTTP 500: .* \(first: .*@0\)$/m,
    );
    expect(r.stdout).toMatch(/^failures by category: ERR 2$/m);
    expect(JSON.parse(readFileSync(join(out, "run.json"), "utf8")).status).toBe("interrupted");
    expect(readFileSync(join(out, "episodes.jsonl"), "utf8").trim().split("\n")).toHaveLength(2);
    const md = readFileSync(join(out, "report.md"), "utf8");
    expect(md).toMatch(
      /### Invalid episodes by error[\s\S]*\| LonghaulError: openai:m: HTTP 500: .* \| 2 \| /,
    );
  });

  it("says compare found no paired episodes, exit 1", async () => {
    const a = tmp();
    const b = tmp();
    expect((await longhaul(...ONE_DOC, "--agent", "oracle", "--out", a)).code).toBe(0);
    const other = [...ONE_DOC, "--filter", "format=unnumbered"];
    const rb = await longhaul(...other, "--agent", "oracle", "--out", b);
    expect(rb.code, rb.stderr).toBe(0);
    const r = await longhaul("compare", a, b);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^no paired episodes: .* share no task and epoch/);
  });
});

describe("a corrupt episodes.jsonl", () => {
  it("is reported with its line number and a printable excerpt, and --repair fixes it", async () => {
    const out = tmp();
    const args = ["run", "transduction", "--subset", "4k", "--limit", "3", "--agent", "oracle"];
    expect((await longhaul(...args, "--out", out)).code).toBe(0);
    const log = join(out, "episodes.jsonl");
    const lines = readFileSync(log, "utf8").trimEnd().split("\n");
    writeFileSync(log, `${lines[0]}\n{"episodeId":"x\u0000\u001b[31m\udc00 garbage\n${lines[2]}\n`);
    const r = await longhaul("report", out);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${log}:2: invalid episode record: not JSON (`);
    // The lone surrogate reached the file as U+FFFD; every unprintable character is escaped.
    expect(r.stderr).toContain('the line reads "{"episodeId":"x\\x00\\x1b[31m\\ufffd garbage"');
    expect(r.stderr).toMatch(/`longhaul report <run-dir> --repair`/);
    for (const raw of ["\u0000", "\u001b", "\ufffd"]) expect(r.stderr).not.toContain(raw);

    const fixed = await longhaul("report", out, "--repair");
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stderr).toMatch(/^repair: dropped line 2 \(not JSON/m);
    expect(readFileSync(`${log}.bak`, "utf8")).toContain("garbage");
    expect(readFileSync(log, "utf8").trimEnd().split("\n")).toEqual([lines[0], lines[2]]);
    // Resuming replays the dropped episode.
    const again = await longhaul(...args, "--out", out, "--json");
    expect(JSON.parse(again.stdout)).toMatchObject({ ran: 1, skipped: 2 });
  });
});

describe("resume after a kill", () => {
  it("removes the temporary files of a killed run's atomic writes", async () => {
    const out = tmp();
    const args = [...ONE_DOC, "--agent", "oracle", "--out", out, "--json"];
    expect((await longhaul(...args)).code).toBe(0);
    appendFileSync(join(out, "traces", "half.json.gz.tmp-4242"), "partial");
    writeFileSync(join(out, "run.json.tmp-4242"), "{");
    const again = await longhaul(...args);
    expect(JSON.parse(again.stdout)).toMatchObject({ ran: 0, leftovers: 2 });
    expect(readdirSync(join(out, "traces")).filter((f) => f.includes(".tmp-"))).toEqual([]);
    expect(existsSync(join(out, "run.json.tmp-4242"))).toBe(false);
  });
});
