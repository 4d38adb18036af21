// Build step after copy-data: bundle the viewer's page script (src/web/client/main.ts) into
// dist/web/assets/app.js with esbuild. The options match bundleClient() in
// src/web/server/client-bundle.ts, which bundles in memory when running from the sources.

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
await build({
  entryPoints: [join(root, "src", "web", "client", "main.ts")],
  outfile: join(root, "dist", "web", "assets", "app.js"),
  bundle: true,
  format: "iife",
  target: "es2022",
  minify: true,
  legalComments: "none",
});
