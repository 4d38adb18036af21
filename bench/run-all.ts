/**
 * `npm run bench`: runs every bench/*.bench.ts in its own process, one after another, so each
 * measures on a quiet machine. `npm run bench -- world` runs only files whose name contains "world".
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { cpus, totalmem } from "node:os";

const only = process.argv[2];
const files = readdirSync(new URL(".", import.meta.url))
  .filter((f) => f.endsWith(".bench.ts") && (!only || f.includes(only)))
  .sort();
const cpu = cpus()[0]?.model ?? "unknown cpu";
process.stdout.write(
  `machine: ${cpu}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}\n`,
);
let failed = 0;
for (const file of files) {
  process.stdout.write(`\n== ${file}\n`);
  const result = spawnSync(process.execPath, ["--import", "tsx", `bench/${file}`], {
    stdio: "inherit",
  });
  if (result.status !== 0) failed++;
}
process.exitCode = failed > 0 ? 1 : 0;
