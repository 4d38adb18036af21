/**
 * CLI startup: wall time of the built `longhaul` executable as a fresh process, the way a user
 * pays it (hyperfine-style: a warm-up, then N spawns; min and median). Goals (issue 7):
 * `--help` < 0.3 s, `list` < 1 s with a warm compile cache; `stats transduction` reads the
 * cache instead of regenerating 1,440 documents. Builds dist/ first; the cache is a temp dir.
 * Run: npx tsx bench/cli-startup.bench.ts [runs]
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const RUNS = Number(process.argv[2] ?? 10);
const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "dist", "cli", "bin.js");
const cacheDir = mkdtempSync(join(tmpdir(), "longhaul-bench-cache-"));
const env = { ...process.env, LONGHAUL_CACHE_DIR: cacheDir };

execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" });

/** Wall milliseconds of one `command ...args` process; throws if it fails. */
function once(command: string, args: string[]): number {
  const started = performance.now();
  const r = spawnSync(command, args, { cwd: ROOT, env, stdio: ["ignore", "ignore", "pipe"] });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return ms;
}

/** Min and median of `runs` timed spawns after one warm-up. */
function timed(label: string, command: string, args: string[], runs = RUNS): void {
  once(command, args);
  const times = Array.from({ length: runs }, () => once(command, args)).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  console.log(
    `${label}: min ${times[0]!.toFixed(0)} ms, median ${median.toFixed(0)} ms (${runs} runs)`,
  );
}

/** One timed spawn on a cold cache (the first run of a user). */
function cold(label: string, args: string[]): void {
  rmSync(cacheDir, { recursive: true, force: true });
  console.log(
    `${label}: ${once(process.execPath, [BIN, ...args]).toFixed(0)} ms (one run, cold cache)`,
  );
}

timed("node -e 0 (process floor)", process.execPath, ["-e", "0"]);
timed("longhaul --help", process.execPath, [BIN, "--help"]);
timed("longhaul --version", process.execPath, [BIN, "--version"]);
cold("longhaul list", ["list"]);
timed("longhaul list (warm cache)", process.execPath, [BIN, "list"]);
timed("longhaul list --no-cache", process.execPath, [BIN, "--no-cache", "list"], 3);
cold("longhaul stats transduction", ["stats", "transduction"]);
timed("longhaul stats transduction (warm cache)", process.execPath, [BIN, "stats", "transduction"]);
timed("longhaul show robograph cosmetics-t03/i5 (warm cache)", process.execPath, [
  BIN,
  "show",
  "robograph",
  "cosmetics-t03/i5",
]);
timed(
  "tsx src/cli/bin.ts --help (development, no build)",
  process.execPath,
  ["--import", "tsx", join(ROOT, "src", "cli", "bin.ts"), "--help"],
  3,
);
rmSync(cacheDir, { recursive: true, force: true });
