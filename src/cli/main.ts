/** The `longhaul` command line: parse, call a module, print. Exit 0 ok, 1 runtime error, 2 usage. */
import { Command, CommanderError } from "commander";
import { LonghaulError } from "../core/index.ts";
import { register as registerCheck } from "./commands/check.ts";
import { register as registerList } from "./commands/list.ts";
import { register as registerReport } from "./commands/report.ts";
import { register as registerRescore } from "./commands/rescore.ts";
import { register as registerRun } from "./commands/run.ts";
import { register as registerSchema } from "./commands/schema.ts";
import { register as registerShow } from "./commands/show.ts";
import { register as registerStats } from "./commands/stats.ts";
import { register as registerSuiteCommands } from "./commands/suite-commands.ts";
import { VERSION } from "./version.ts";

const program = new Command("longhaul")
  .description("evaluate long-horizon embodied agents on published benchmarks")
  .version(VERSION)
  .option("--debug", "print stack traces on errors")
  .showHelpAfterError("(add --help for usage)")
  .exitOverride();
for (const register of [
  registerList,
  registerRun,
  registerReport,
  registerRescore,
  registerShow,
  registerStats,
  registerSchema,
  registerSuiteCommands,
  registerCheck,
]) {
  register(program);
}
program.commands.forEach((c) => {
  c.exitOverride();
});

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = exitCodeOf(error, process.argv.includes("--debug"));
}

function exitCodeOf(error: unknown, debug: boolean): number {
  if (error instanceof CommanderError) {
    // Help and version exit 0; commander has already printed the usage problem.
    return error.exitCode === 0 ? 0 : 2;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`longhaul: ${message}\n`);
  if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  if (error instanceof LonghaulError) return error.code === "USAGE" ? 2 : 1;
  return 1;
}
