/**
 * Running this invocation again in a child Node process started with more Node flags. Some V8
 * flags take effect only on Node's command line (not in NODE_OPTIONS, not at run time), and
 * `longhaul serve` wants one of them by default (src/serve/node-flags.ts).
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";

/** Set in the child's environment: it must not relaunch again. */
const RELAUNCHED = "LONGHAUL_RELAUNCHED";

/** Whether this process is a relaunched child. */
export function isRelaunched(): boolean {
  return process.env[RELAUNCHED] === "1";
}

/** The flags of `wanted` whose name this process was not started with. */
export function missingNodeFlags(wanted: readonly string[]): string[] {
  const named = (flag: string) => flag.split("=")[0];
  return wanted.filter((flag) => !process.execArgv.some((given) => named(given) === named(flag)));
}

/**
 * Run this process's command line again under `flags`, with the same streams, and resolve with
 * the child's exit code (128 + the signal's number if a signal ended it). SIGINT, SIGTERM and
 * SIGHUP are passed on; the child runs in its own process group so that a terminal's Ctrl-C
 * reaches it once, through here, and not twice. The child is connected by an IPC channel,
 * which closes if this process dies, so a child can stop itself then (`onParentGone`).
 */
export function relaunchWithNodeFlags(flags: readonly string[]): Promise<number> {
  const [script, ...args] = process.argv.slice(1);
  const child = spawn(process.execPath, [...process.execArgv, ...flags, script ?? "", ...args], {
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    env: { ...process.env, [RELAUNCHED]: "1" },
    detached: process.platform !== "win32",
  });
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of signals) process.on(signal, forward);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      for (const s of signals) process.off(s, forward);
      resolve(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  });
}

/**
 * In a relaunched child: call `stop` once if the parent process goes away. The channel is
 * unreferenced: it must not keep the child alive once its work is done.
 */
export function onParentGone(stop: () => void): void {
  if (!isRelaunched() || !process.channel) return;
  process.channel.unref();
  process.once("disconnect", stop);
}
