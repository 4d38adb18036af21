/**
 * `longhaul view` without a browser: the catalog's documents (index, report with figures,
 * episodes with their inspection), the HTTP server's refusals (paths outside the runs, foreign
 * Host headers, other methods) and the static export.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRun, safeFileName } from "../src/log/index.ts";
import {
  DATA_CALLBACK,
  type EpisodeDoc,
  findRunDirs,
  RunCatalog,
  startViewer,
  type ViewerServer,
} from "../src/web/index.ts";
import { longhaul } from "./support/run-cli.ts";
import { makeViewerRuns, type ViewerRuns } from "./support/viewer-runs.ts";

let runs: ViewerRuns;
let catalog: RunCatalog;
let viewer: ViewerServer;

beforeAll(async () => {
  runs = await makeViewerRuns();
  catalog = new RunCatalog(findRunDirs([runs.parent]));
  viewer = await startViewer(catalog);
});
afterAll(async () => {
  await viewer?.close();
});

/** A raw GET (no URL normalisation by a client library), with an optional Host header. */
function get(path: string, host?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: viewer.port, path, method: "GET", headers: host ? { host } : {} },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** The document a data script delivers. */
function documentOf(script: string): { key: string; doc: unknown } {
  const m = new RegExp(`^${DATA_CALLBACK}\\(("[^"]*"),(.*)\\);\\n$`, "s").exec(script);
  if (!m) throw new Error(`not a data script: ${script.slice(0, 80)}`);
  return { key: JSON.parse(m[1]!), doc: JSON.parse(JSON.parse(m[2]!)) };
}

describe("the run catalog", () => {
  it("finds the run directories under a parent, in name order", () => {
    expect(catalog.summaries().map((s) => [s.name.split("/").at(-1), s.suite, s.agent])).toEqual([
      ["rg-explorer", "robograph", "explorer"],
      ["rg-random", "robograph", "random"],
      ["td-drop-one", "transduction", "drop-one"],
    ]);
    expect(() => findRunDirs([join(runs.parent, "rg-explorer", "traces")])).toThrow(
      /no run directory/,
    );
  });

  it("indexes every recorded episode with its trace file stem", () => {
    const index = catalog.index(0)!;
    const { records } = loadRun(runs.explorer);
    expect(index.rows.map((r) => r.id).sort()).toEqual(records.map((r) => r.episodeId).sort());
    for (const row of index.rows) expect(row.file).toBe(safeFileName(row.id));
    expect(index.dimensions.map((d) => d.name)).toContain("condition");
    expect(catalog.index(7)).toBeUndefined();
  });

  it("replays a RoboGraph episode into one scene graph per observation", async () => {
    const row = catalog.index(0)!.rows[0]!;
    const { trace, inspection } = (await catalog.episode(0, row.file)) as EpisodeDoc;
    const graphs = inspection?.graphs ?? [];
    expect(graphs).toHaveLength(trace.steps.length + 1);
    // Visibility follows the logged observation at each step.
    trace.steps.forEach((step, i) => {
      const view = step.observation.view as {
        current_observation: { visible_nodes: { id: string }[] };
      };
      const seen = new Set(view.current_observation.visible_nodes.map((n) => n.id));
      const visible = graphs[i]!.nodes.filter((n) => n.visible && n.kind !== "robot").map(
        (n) => n.id,
      );
      expect(new Set(visible)).toEqual(seen);
    });
    // The latent graph holds more than the first view shows (the scene is partially observable).
    expect(graphs[0]!.nodes.some((n) => !n.visible)).toBe(true);
  });

  it("marks the transduction records the verifier found wrong", async () => {
    for (const row of catalog.index(2)!.rows) {
      const { inspection } = (await catalog.episode(2, row.file)) as EpisodeDoc;
      const rows = inspection?.comparison?.rows ?? [];
      const marks = rows.flatMap((r) => r.marks);
      expect(marks.length).toBe(row.metrics.records);
      expect(marks.filter(Boolean).length).toBe(row.metrics.correct);
      expect(marks.filter((m) => !m).length).toBeGreaterThan(0);
    }
  });

  it("builds the report with its figures drawn", async () => {
    const doc = await catalog.report(2)!;
    expect(doc.report.suite?.title).toBe("Long-Transduction");
    expect(doc.figures.map((f) => f.id)).toContain("fig2a-accuracy-by-context-length");
    expect(doc.figures.every((f) => f.svg.startsWith("<svg"))).toBe(true);
  });
});

describe("the viewer's HTTP server", () => {
  it("serves the page and the data documents", async () => {
    const page = await get("/");
    expect(page.status).toBe(200);
    expect(page.body).toContain('<script src="app.js"></script>');
    expect((await get("/app.js")).body.length).toBeGreaterThan(1000);
    const runsDoc = documentOf((await get("/data/runs.js")).body);
    expect(runsDoc.key).toBe("runs");
    expect((runsDoc.doc as unknown[]).length).toBe(3);
    const file = catalog.index(1)!.rows[0]!.file;
    const episode = documentOf((await get(`/data/run/1/episode/${file}.js`)).body);
    expect(episode.key).toBe(`run/1/episode/${file}`);
  });

  it("sends a run's index compressed to clients that accept gzip", async () => {
    const plain = await get("/data/run/0/index.js");
    const zipped = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: viewer.port,
          path: "/data/run/0/index.js",
          headers: { "accept-encoding": "gzip, br" },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }),
          );
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(zipped.encoding).toBe("gzip");
    expect(gunzipSync(zipped.body).toString("utf8")).toBe(plain.body);
  });

  it("refuses every path outside the given runs", async () => {
    const attempts = [
      "/../../../etc/passwd",
      "/data/../../etc/passwd",
      "/data/run/0/episode/..%2F..%2Frun.json.js",
      "/data/run/0/episode/%2e%2e%2frun.js",
      "/data/run/0/episode/../run.js",
      "/data/run/0/episode/run.js",
      "/data/run/0/../../run.json",
      "/data/run/9/index.js",
      "/data/run/0/traces.js",
      "/run.json",
      "/episodes.jsonl",
      "/server.ts",
      "/assets/../catalog.ts",
      `/${runs.explorer}/run.json`,
      "//etc/passwd",
    ];
    for (const path of attempts) {
      const r = await get(path);
      expect({ path, status: r.status }).toEqual({ path, status: 404 });
      expect(r.body).not.toContain("runId");
    }
  });

  it("refuses foreign Host headers and methods other than GET", async () => {
    expect((await get("/data/runs.js", "evil.example:80")).status).toBe(403);
    expect((await get("/data/runs.js", `localhost:${viewer.port}`)).status).toBe(200);
    const post = await new Promise<number>((resolve) => {
      const req = request(
        { host: "127.0.0.1", port: viewer.port, path: "/", method: "POST" },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.end();
    });
    expect(post).toBe(405);
  });

  it("listens on 127.0.0.1 by default", () => {
    expect(viewer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });
});

describe("longhaul view (serving)", () => {
  it("prints its address on 127.0.0.1, serves, and stops cleanly on Ctrl-C", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "src/cli/bin.ts", "view", runs.explorer, "--port", "0"],
      { cwd: join(import.meta.dirname, ".."), stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout.setEncoding("utf8");
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: string) => {
        out += chunk;
        const m = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once("exit", (code) => reject(new Error(`view exited ${code}: ${out}`)));
    });
    const runsDoc = await (await fetch(`${url}data/runs.js`)).text();
    expect(runsDoc).toContain("rg-explorer");
    child.kill("SIGINT");
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  });
});

describe("longhaul view --export", () => {
  it("writes the page and one data file per document", async () => {
    const out = join(runs.parent, "..", `${runs.parent.split("/").at(-1)}-site`);
    const r = await longhaul("view", runs.explorer, runs.transduction, "--export", out, "--json");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    const episodes = catalog.index(0)!.rows.length + catalog.index(2)!.rows.length;
    expect(summary).toMatchObject({ runs: 2, episodes, files: 3 + 1 + 2 * 2 + episodes });
    expect(readdirSync(out).sort()).toEqual(["app.js", "data", "index.html", "style.css"]);
    const index = documentOf(readFileSync(join(out, "data", "run", "1", "index.js"), "utf8"));
    expect(index.key).toBe("run/1/index");
    // A second export over the first is fine; a directory holding other files is refused.
    expect((await longhaul("view", runs.explorer, "--export", out)).code).toBe(0);
    const refused = await longhaul("view", runs.explorer, "--export", runs.explorer);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not empty/);
  });
});
