/**
 * The `longhaul` command line: parse, call a module, print. `main` runs one invocation with
 * injected output streams and returns its exit code: 0 ok, 1 runtime error, 2 usage error,
 * 130 interrupted. Commands import their heavy modules (wire schemas, suites, runner) when
 * they run, so `longhaul --help` loads none of them.
 */
import { Command, CommanderError } from "commander";
// The errors file, not the core index: the index loads every wire schema.
import { LonghaulError } from "../core/errors.ts";
import { printable, Redactor } from "../core/redact.ts";
import { environmentSecrets, redactArgv } from "./args.ts";
import { register as registerAgents } from "./commands/agents.ts";
import { register as registerCheck } from "./commands/check.ts";
import { register as registerDataset } from "./commands/dataset.ts";
import { register as registerList } from "./commands/list.ts";
import { register as registerMcp } from "./commands/mcp.ts";
import { register as registerReport } from "./commands/report.ts";
import { register as registerRescore } from "./commands/rescore.ts";
import { register as registerRun } from "./commands/run.ts";
import { register as registerSchema } from "./commands/schema.ts";
import { register as registerServe } from "./commands/serve.ts";
import { register as registerShow } from "./commands/show.ts";
import { register as registerStats } from "./commands/stats.ts";
import { register as registerSuiteCommands, suiteVerbTarget } from "./commands/suite-commands.ts";
import { register as registerView } from "./commands/view.ts";
import { register as registerWorker } from "./commands/worker.ts";
import { CliContext, type CliIo, redactingWriter } from "./context.ts";
import { VERSION } from "./version.ts";

export { CliContext, type CliIo, type Writer } from "./context.ts";

const PROCESS_IO: CliIo = { stdout: process.stdout, stderr: process.stderr };

/**
 * Run one invocation (`argv` without node and script) and return its exit code. `relaunch` is
 * given by the executable only (see CliContext).
 */
export async function main(
  argv: readonly string[],
  processIo: CliIo = PROCESS_IO,
  relaunch?: CliContext["relaunch"],
): Promise<number> {
  const debug = argv.includes("--debug");
  // Everything printed passes through the redactor: secrets given on the command line or held
  // in key variables never reach the terminal, whatever message would carry them.
  const redactor = new Redactor([...redactArgv(argv).secrets, ...environmentSecrets(process.env)]);
  const redact = (text: string) => redactor.text(text);
  const io: CliIo = {
    stdout: redactingWriter(processIo.stdout, redact),
    stderr: redactingWriter(processIo.stderr, redact),
  };
  try {
    const program = new Command("longhaul")
      .description("evaluate long-horizon embodied agents on published benchmarks")
      .version(VERSION)
      .option("--debug", "print stack traces on errors")
      .option("--no-cache", "compile suites afresh instead of reading the compile cache")
      .configureOutput({
        writeOut: (text) => io.stdout.write(text),
        writeErr: (text) => io.stderr.write(text),
      })
      .showHelpAfterError("(add --help for usage)")
      .exitOverride();
    const ctx = new CliContext(io, argv, program, redactor, relaunch);
    // A suite verb (score, compile, export) declares the options of the suite it names.
    const target = await suiteVerbTarget(argv);
    for (const register of [
      registerList,
      registerRun,
      registerReport,
      registerRescore,
      registerShow,
      registerStats,
      registerAgents,
      registerSchema,
      registerCheck,
      registerServe,
      registerMcp,
      registerWorker,
      registerView,
      registerDataset,
    ]) {
      register(program, ctx);
    }
    registerSuiteCommands(program, ctx, target);
    await program.parseAsync(argv, { from: "user" });
    return ctx.exitCode;
  } catch (error) {
    return exitCodeOf(error, io, debug);
  }
}

function exitCodeOf(error: unknown, io: CliIo, debug: boolean): number {
  if (error instanceof CommanderError) {
    // Help and version exit 0; commander has already printed the usage problem.
    return error.exitCode === 0 ? 0 : 2;
  }
  // One printable line: no raw bytes from a corrupt file or a provider's body reach the terminal.
  const message = printable(error instanceof Error ? error.message : String(error), 2000);
  io.stderr.write(`longhaul: ${message.replace(/\n/g, " ")}\n`);
  if (debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  if (error instanceof LonghaulError) return error.code === "USAGE" ? 2 : 1;
  return 1;
}
