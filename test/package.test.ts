/**
 * The npm package as users get it: `npm pack` (which builds through `prepare`), installed into
 * a fresh project offline (from the npm cache, with a lockfile derived from the repository's,
 * since tests never reach the network), then the installed `longhaul` executable as a real
 * process (exit codes, lazy loading, Ctrl-C) and the library API from a TypeScript script
 * compiled against the package's type declarations.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOpenAiStub } from "./stubs/index.ts";

const REPO = join(import.meta.dirname, "..");
/** A run of the first two 4K transduction documents. */
const TWO_DOCUMENTS = ["run", "transduction", "--subset", "4k", "--limit", "2"];
let dir = "";
let project = "";
let bin = "";

/** A project depending on the tarball; its lockfile pins every dependency as the repo's does. */
function writeProject(dir: string, tarball: string): void {
  const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8"));
  const lock = JSON.parse(readFileSync(join(REPO, "package-lock.json"), "utf8"));
  const spec = `file:${tarball}`;
  const packages: Record<string, unknown> = {
    "": { name: "consumer", dependencies: { longhaul: spec } },
    "node_modules/longhaul": {
      version: pkg.version,
      resolved: spec,
      license: pkg.license,
      dependencies: pkg.dependencies,
      bin: pkg.bin,
      engines: pkg.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages as Record<string, { dev?: boolean }>)) {
    if (path !== "" && !entry.dev) packages[path] = entry;
  }
  const manifest = {
    name: "consumer",
    private: true,
    type: "module",
    dependencies: { longhaul: spec },
  };
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest));
  writeFileSync(
    join(dir, "package-lock.json"),
    JSON.stringify({ name: "consumer", lockfileVersion: 3, requires: true, packages }),
  );
}

function run(args: string[], options: { nodeArgs?: string[]; env?: NodeJS.ProcessEnv } = {}) {
  const r = spawnSync(process.execPath, [...(options.nodeArgs ?? []), bin, ...args], {
    cwd: project,
    encoding: "utf8",
    env: { ...process.env, ...options.env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "lh-package-"));
  const packed = JSON.parse(
    execFileSync("npm", ["pack", "--pack-destination", dir, "--json"], {
      cwd: REPO,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }),
  ) as { filename: string }[];
  project = join(dir, "consumer");
  mkdirSync(project);
  writeProject(project, join(dir, packed[0]!.filename));
  execFileSync("npm", ["ci", "--offline", "--no-audit", "--no-fund"], {
    cwd: project,
    stdio: "ignore",
  });
  bin = join(project, "node_modules", ".bin", "longhaul");
}, 240_000);

// The installed project holds every runtime dependency (tens of thousands of files): removing
// it takes more than the default hook timeout on a loaded machine.
afterAll(() => rm(dir, { recursive: true, force: true }), 240_000);

describe("the installed package", () => {
  it("runs the executable with meaningful exit codes", () => {
    expect(run(["--version"])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d/) });
    expect(run(["--help"]).stdout).toMatch(/^Usage: longhaul/);
    const usage = run(["run", "robgraph"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/did you mean "robograph"/);
    const out = join(project, "runs", "oracle");
    const ok = run([...TWO_DOCUMENTS, "--agent", "oracle", "--out", out, "--json"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ran: 2, score: 1 });
    expect(run(["report", out]).code).toBe(0);
    // The viewer's page ships bundled: its static export needs no build tool.
    const site = join(project, "site");
    const view = run(["view", out, "--export", site]);
    expect(view.code, view.stderr).toBe(0);
    expect(readFileSync(join(site, "app.js"), "utf8")).toMatch(/longhaulData/);
    expect(readFileSync(join(out, "report.html"), "utf8")).toContain("<figure");
  });

  it("loads no suite and no schema library for --help; a warm list loads no suite", () => {
    const hooks = join(project, "trace-loads.mjs");
    writeFileSync(
      hooks,
      `import { register } from "node:module";
register("data:text/javascript," + encodeURIComponent(\`
import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.TRACE_FILE, resolved.url + "\\\\n");
  return resolved;
}\`));
`,
    );
    const loads = (args: string[]) => {
      const file = join(mkdtempSync(join(tmpdir(), "lh-trace-")), "loads.txt");
      writeFileSync(file, "");
      const r = run(args, { nodeArgs: ["--import", hooks], env: { TRACE_FILE: file } });
      expect(r.code, r.stderr).toBe(0);
      return readFileSync(file, "utf8").trim().split("\n");
    };
    const help = loads(["--help"]);
    expect(help.some((url) => url.includes("/dist/cli/main.js"))).toBe(true);
    expect(
      help.filter((url) =>
        /\/suites\/\w+\/|\/node_modules\/(zod|openai|@anthropic-ai)\//.test(url),
      ),
    ).toEqual([]);
    loads(["list"]);
    const warm = loads(["list"]);
    expect(
      warm.filter((url) => /\/suites\/(robograph|transduction|playground)\//.test(url)),
    ).toEqual([]);
    expect(help.filter((url) => /mujoco-js|quickjs-emscripten|\/physics\//.test(url))).toEqual([]);
  });

  it("runs a playground episode: MuJoCo and the QuickJS sandbox load from the installed package", () => {
    const out = join(project, "runs", "playground");
    const solved = run([
      "run",
      "playground",
      "--agent",
      "reference",
      "--task",
      "Launch-02/c1",
      "--out",
      out,
      "--json",
    ]);
    expect(solved.code, solved.stderr).toBe(0);
    expect(JSON.parse(solved.stdout)).toMatchObject({ ran: 1, score: 1 });
    // The scene files ship beside the compiled code.
    const shown = run(["show", "playground", "Launch-15/c1", "--json"]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout).card.instructions).toMatch(/glass/i);
    // A code-mode program runs in the QuickJS WebAssembly sandbox, through the library export.
    writeFileSync(
      join(project, "program.mjs"),
      `import { playgroundSuite } from "longhaul/suites/playground";
const spec = playgroundSuite.compile().find((s) => s.id === "Launch-02/c1");
const env = await playgroundSuite.make(spec, {
  access: { level: "observe", privileged: false, grants: [] },
});
await env.reset();
const code = "step({}, 3); return observe().launcher.loaded";
const r = env.step({ kind: "tool", calls: [{ tool: "run_program", args: { code } }] });
console.log(JSON.stringify(r.observation.events[0].data));
await env.close();
`,
    );
    const program = spawnSync(process.execPath, [join(project, "program.mjs")], {
      cwd: project,
      encoding: "utf8",
    });
    expect(program.status, program.stderr).toBe(0);
    expect(JSON.parse(program.stdout)).toMatchObject({ ok: true, value: true, calls: 2 });
  });

  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "stops cleanly on %s during a run: interrupted, partial report, exit %i",
    async (signal, exitCode) => {
      const stub = await startOpenAiStub({ latencyMs: 10_000, reply: { text: "late" } });
      try {
        const out = join(project, "runs", `interrupted-${signal}`);
        const child = spawn(
          process.execPath,
          [
            bin,
            ...TWO_DOCUMENTS,
            "--model",
            "openai:slow",
            "--base-url",
            stub.baseUrl,
            "--out",
            out,
            "--agent-opt",
            "maxRetries=0",
          ],
          { cwd: project, stdio: ["ignore", "ignore", "pipe"] },
        );
        let stderr = "";
        child.stderr?.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        const exited = once(child, "exit");
        while (stub.requests.length === 0) await sleep(50);
        child.kill(signal);
        const [code] = await exited;
        expect(code).toBe(exitCode);
        expect(JSON.parse(readFileSync(join(out, "run.json"), "utf8")).status).toBe("interrupted");
        expect(readFileSync(join(out, "report.md"), "utf8")).toMatch(/run interrupted/);
        expect(stderr).toContain(
          `to resume: longhaul ${TWO_DOCUMENTS.join(" ")} --model openai:slow`,
        );
      } finally {
        await stub.close();
      }
    },
  );

  it("compiles a TypeScript script against the package's types and runs it", () => {
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "nodenext",
          target: "es2022",
          strict: true,
          skipLibCheck: true,
          outDir: "out",
          types: ["node"],
          typeRoots: [join(REPO, "node_modules", "@types")],
        },
        files: ["library.ts"],
      }),
    );
    copyFileSync(join(REPO, "docs", "examples", "library.ts"), join(project, "library.ts"));
    const tsc = spawnSync(join(REPO, "node_modules", ".bin", "tsc"), ["-p", project], {
      encoding: "utf8",
    });
    expect(tsc.status, tsc.stdout).toBe(0);
    const script = spawnSync(
      process.execPath,
      [join(project, "out", "library.js"), join(project, "runs", "lib")],
      {
        cwd: project,
        encoding: "utf8",
      },
    );
    expect(script.status, script.stderr).toBe(0);
    expect(script.stdout).toMatch(/^finisher: finished, failure failure$/m);
    expect(script.stdout).toMatch(/^echo via the CLI: exit 0$/m);
    const echo = readFileSync(join(project, "runs", "lib", "echo", "episodes.jsonl"), "utf8");
    expect(
      echo
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).status),
    ).toEqual(["success", "success", "success"]);
  });
});
