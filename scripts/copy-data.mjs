// Build step after tsc: copy every non-TypeScript file under src/ (suite data such as YAML
// task families and JSON tables) to the same place under dist/, and make the CLI executable.
import { chmodSync, cpSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");
const dist = join(root, "dist");

for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
  // The page script's tsconfig.json only type-checks it; the build bundles the script itself.
  if (!entry.isFile() || entry.name.endsWith(".ts") || entry.name === "tsconfig.json") continue;
  const from = join(entry.parentPath, entry.name);
  cpSync(from, join(dist, relative(src, from)));
}
chmodSync(join(dist, "cli", "bin.js"), 0o755);
