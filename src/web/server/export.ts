/**
 * `longhaul view --export DIR`: the viewer as a static site that opens from disk. The page and
 * every data document the server would answer are written as files (data/<key>.js), which the
 * page loads with script tags: browsers refuse fetch() on file:// but not scripts.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { LonghaulError } from "../../core/index.ts";
import { dataKeys, dataScript } from "../model/index.ts";
import type { RunCatalog } from "./catalog.ts";
import { pageFiles } from "./client-bundle.ts";

/** What an export wrote. */
export interface ExportSummary {
  dir: string;
  runs: number;
  episodes: number;
  files: number;
}

/**
 * Write the site into `dir`, which must be empty, missing or a previous export (it is then
 * overwritten file by file). `onEpisode` is called after each episode document.
 */
export async function exportSite(
  catalog: RunCatalog,
  dir: string,
  onEpisode?: (done: number, total: number) => void,
): Promise<ExportSummary> {
  if (existsSync(dir) && readdirSync(dir).length > 0 && !existsSync(join(dir, "data", "runs.js"))) {
    throw new LonghaulError(
      "USAGE",
      "is not empty and holds no previous export; choose another directory",
      dir,
    );
  }
  let files = 0;
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    files++;
  };
  const writeDoc = (key: string, doc: unknown) => write(`data/${key}.js`, dataScript(key, doc));
  const page = await pageFiles();
  for (const name of ["index.html", "style.css", "app.js"] as const) write(name, page[name]);
  writeDoc(dataKeys.runs, catalog.summaries());
  const indexes = Array.from({ length: catalog.size }, (_, run) => catalog.index(run)!);
  const total = indexes.reduce((n, index) => n + index.rows.length, 0);
  let done = 0;
  for (const [run, index] of indexes.entries()) {
    write(`data/${dataKeys.index(run)}.js`, catalog.indexScript(run)!);
    writeDoc(dataKeys.report(run), await catalog.report(run));
    for (const row of index.rows) {
      writeDoc(dataKeys.episode(run, row.file), await catalog.episode(run, row.file));
      onEpisode?.(++done, total);
    }
  }
  return { dir, runs: catalog.size, episodes: total, files };
}
