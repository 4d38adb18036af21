/**
 * Once per test run: a fresh compile cache shared by the run's test files (the CLI caches
 * compiled suites there instead of the user's home), and no user config file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "longhaul-test-"));
  process.env.LONGHAUL_CACHE_DIR = join(dir, "cache");
  process.env.LONGHAUL_CONFIG = join(dir, "no-config.json");
  return () => rmSync(dir, { recursive: true, force: true });
}
