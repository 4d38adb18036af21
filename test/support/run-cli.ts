/** Run the CLI in process, as `longhaul ...args`, and capture what it prints. */
import { main } from "../../src/cli/main.ts";

/** One invocation's exit code and output. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `longhaul ...args` in this process, with stdout and stderr captured. */
export async function longhaul(...args: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
  });
  return { code, stdout: out.join(""), stderr: err.join("") };
}
