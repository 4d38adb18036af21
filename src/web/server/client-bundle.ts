/**
 * The page's files: index.html and style.css from assets/, and the client script. The build
 * bundles the client into assets/app.js (scripts/bundle-web.mjs); run from the sources (tests,
 * `npm run longhaul`), the script is bundled in memory with esbuild, a development dependency.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ASSETS = new URL("../assets/", import.meta.url);

/** The static files of the page by name (the only files the server and the export serve). */
export interface PageFiles {
  "index.html": string;
  "style.css": string;
  "app.js": string;
}

let cached: Promise<PageFiles> | undefined;

/** The page's files, read (and the script bundled) once per process. */
export function pageFiles(): Promise<PageFiles> {
  cached ??= load();
  return cached;
}

async function load(): Promise<PageFiles> {
  const read = (name: string) => readFileSync(new URL(name, ASSETS), "utf8");
  const built = new URL("app.js", ASSETS);
  const script = existsSync(built) ? readFileSync(built, "utf8") : await bundleClient();
  return { "index.html": read("index.html"), "style.css": read("style.css"), "app.js": script };
}

/** Bundle src/web/client/main.ts into one browser script (also the build's bundling step). */
export async function bundleClient(): Promise<string> {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [fileURLToPath(new URL("../client/main.ts", import.meta.url))],
    bundle: true,
    format: "iife",
    target: "es2022",
    minify: true,
    write: false,
    legalComments: "none",
  });
  return result.outputFiles[0]?.text ?? "";
}
