/**
 * Run directories for the viewer's tests, made by the CLI in process: two RoboGraph runs of the
 * same tasks (the explorer and the random agent: a diff with divergences) and a transduction
 * run whose reference agent drops a row (per-record errors to mark).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { longhaul } from "./run-cli.ts";

/** The three runs' directories, under one parent directory. */
export interface ViewerRuns {
  parent: string;
  explorer: string;
  random: string;
  transduction: string;
}

/** Run the three (about ten seconds); throws when a run fails. */
export async function makeViewerRuns(): Promise<ViewerRuns> {
  const parent = mkdtempSync(join(tmpdir(), "longhaul-viewer-"));
  const runs = {
    parent,
    explorer: join(parent, "rg-explorer"),
    random: join(parent, "rg-random"),
    transduction: join(parent, "td-drop-one"),
  };
  const tasks = ["buffet-t01/base", "buffet-t01/i1", "buffet-i01/base"].flatMap((t) => [
    "--task",
    t,
  ]);
  for (const [agent, out] of [
    ["explorer", runs.explorer],
    ["random", runs.random],
  ] as const) {
    const r = await longhaul(
      "run",
      "robograph",
      "--agent",
      agent,
      ...tasks,
      "--out",
      out,
      "--json",
    );
    if (r.code !== 0) throw new Error(`robograph ${agent} run failed: ${r.stderr}`);
  }
  const docs = ["arith/unnumbered/d1/4k/s1", "table/kv/d1/4k/s1", "uuid/ordered/d2/4k/s1"];
  const t = await longhaul(
    "run",
    "transduction",
    "--agent",
    "drop-one",
    ...docs.flatMap((d) => ["--task", d]),
    "--out",
    runs.transduction,
    "--json",
  );
  if (t.code !== 0) throw new Error(`transduction run failed: ${t.stderr}`);
  return runs;
}
