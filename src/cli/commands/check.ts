/** `longhaul check <suite>`: the conformance checker, for people authoring suites and families. */
import type { Command } from "commander";
import { collect, parseFilters, positiveInt } from "../args.ts";
import type { CliContext } from "../context.ts";

interface CheckFlags {
  compile: string[];
  limit: number;
  task: string[];
  seed: string;
  maxSteps: number;
  json?: boolean;
}

/** Register the command. */
export function register(program: Command, ctx: CliContext): void {
  program
    .command("check")
    .description(
      "check a suite against the protocol: deterministic compile, schema-valid cards and observations, invalid actions as feedback, no privileged leaks, stable rescoring, close() twice, seeded determinism (exit 1 on a failed check)",
    )
    .argument("<suite>", "suite id (see `longhaul list`)")
    .option(
      "--compile <k=v>",
      "suite compile option, e.g. familyFile=my.yaml (repeatable)",
      collect,
      [],
    )
    .option("--limit <n>", "tasks to play, spread over the compiled ones", positiveInt, 3)
    .option("--task <id>", "play this task id instead of a spread sample (repeatable)", collect, [])
    .option("--seed <s>", "root seed of the played episodes", "check")
    .option("--max-steps <n>", "decisions per played episode at most", positiveInt, 40)
    .option("--json", "print the check report as JSON")
    .action(async (suiteId: string, flags: CheckFlags) => {
      const { checkSuite } = await import("../../check/index.ts");
      const { getSuite } = await import("../../suites/index.ts");
      // Never through the compile cache: the check compiles the suite itself, twice.
      const report = await checkSuite(await getSuite(suiteId), {
        compile: parseFilters(flags.compile, "--compile"),
        limit: flags.limit,
        ...(flags.task.length > 0 ? { taskIds: flags.task } : {}),
        seed: flags.seed,
        maxSteps: flags.maxSteps,
      });
      const failed = report.results.filter((r) => !r.ok);
      if (failed.length > 0) ctx.exitCode = 1;
      if (flags.json) return ctx.printJson(report);
      ctx.println(
        `check ${report.suite} ${report.version} (hash ${report.hash}, ${report.tasks} tasks; played ${report.played.join(", ")})`,
      );
      for (const r of report.results) {
        ctx.println(`  ${r.ok ? "ok  " : "FAIL"} ${r.title}${r.covered ? ` (${r.covered})` : ""}`);
        for (const problem of r.problems) ctx.println(`         - ${problem}`);
      }
      ctx.println(
        `${report.results.length - failed.length} of ${report.results.length} checks passed`,
      );
    });
}
