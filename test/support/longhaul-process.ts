/** The CLI as a real process (from the TypeScript sources, through tsx), for tests and benches. */
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** `longhaul ...args` as a child process in the repository root; stdout is piped. */
export function spawnLonghaul(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; stderr?: "pipe" | "inherit" } = {},
): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", join(ROOT, "src/cli/bin.ts"), ...args], {
    cwd: ROOT,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", options.stderr ?? "pipe"],
  });
}

/** The arguments of `longhaul worker` on `queueName` at `url`, with more flags after. */
export function workerArgs(url: string, queueName: string, ...more: string[]): string[] {
  return ["worker", "--queue", url, "--queue-name", queueName, ...more];
}
