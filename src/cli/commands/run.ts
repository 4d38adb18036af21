/** `longhaul run <suite>`: play an agent against a suite's episodes, then write the report. */
import { resolve } from "node:path";
import type { Command } from "commander";
import type { Budgets } from "../../core/index.ts";
import {
  agentOptions,
  agentOptionText,
  collect,
  nonNegativeNumber,
  parseFilters,
  positiveInt,
  scoreOf,
} from "../args.ts";
import type { CliContext } from "../context.ts";

interface RunFlags {
  compile: string[];
  subset?: string;
  filter: string[];
  task: string[];
  agent?: string;
  agentOpt: string[];
  out?: string;
  concurrency: number;
  epochs: number;
  seed: string;
  limit?: number;
  retryErrors?: boolean;
  maxSteps?: number;
  maxSimTime?: number;
  maxWallMs?: number;
  maxTokens?: number;
  maxCost?: number;
  failUnder?: number;
  report: boolean;
  json?: boolean;
  [agentFlag: string]: unknown;
}

/** Register the command. */
export function register(program: Command, ctx: CliContext): void {
  const cmd = program
    .command("run")
    .description("run an agent on a suite's episodes (resumes when --out already holds the run)")
    .argument("<suite>", "suite id (see `longhaul list`)")
    .option(
      "--compile <k=v>",
      "suite compile option, e.g. familyFile=my.yaml (repeatable)",
      collect,
      [],
    )
    .option("--subset <name>", "named subset or split of the suite")
    .option(
      "--filter <k=v>",
      "keep tasks whose tag, family or id equals v (repeatable)",
      collect,
      [],
    )
    .option("--task <id>", "run only this task id (repeatable)", collect, [])
    .option("--out <dir>", "run directory (default runs/<suite>-<agent>)")
    .option("--concurrency <n>", "episodes at once", positiveInt, 4)
    .option("--epochs <n>", "attempts per task", positiveInt, 1)
    .option("--seed <s>", "root seed of the run", "0")
    .option("--limit <n>", "run only the first n planned tasks", positiveInt)
    .option("--retry-errors", "rerun episodes that ended invalid (provider or runtime faults)")
    .option("--max-steps <n>", "decision budget per episode", positiveInt)
    .option("--max-sim-time <s>", "simulated-time budget per episode (seconds)", nonNegativeNumber)
    .option("--max-wall-ms <ms>", "wall-time budget per episode", positiveInt)
    .option("--max-tokens <n>", "token budget per episode", positiveInt)
    .option("--max-cost <usd>", "cost budget per episode", nonNegativeNumber)
    .option("--fail-under <x>", "exit 1 when the success rate is below x (0..1)", nonNegativeNumber)
    .option("--no-report", "skip writing report.md / report.html")
    .option("--json", "print the run summary as JSON (no progress bar)");
  agentOptions(cmd).action(async (suiteId: string, flags: RunFlags) => {
    const { coerceAgentOptions, createAgent, findAgentFactory } = await import(
      "../../agents/index.ts"
    );
    const { buildReport, renderSummary, writeReport } = await import("../../report/index.ts");
    const { loadRun } = await import("../../log/index.ts");
    const { progressBar, runSuite } = await import("../../run/index.ts");
    const { getSuite } = await import("../../suites/index.ts");
    const suite = await getSuite(suiteId, ctx.suiteOptions);
    const text = agentOptionText(flags);
    const agentName =
      flags.agent ?? ("model" in text ? "llm" : "trace" in text ? "replay" : "random");
    const factory = findAgentFactory(agentName, suite);
    const { agent, config } = await createAgent(
      agentName,
      coerceAgentOptions(factory, text),
      suite,
    );
    const outDir = resolve(flags.out ?? `runs/${suite.id}-${agentName}`);
    const controller = new AbortController();
    const onSigint = () => {
      if (controller.signal.aborted) process.exit(130);
      ctx.io.stderr.write("\ninterrupting: finishing the log (Ctrl-C again to quit at once)\n");
      controller.abort();
    };
    process.on("SIGINT", onSigint);
    const showBar = !flags.json && ctx.io.stderr.isTTY;
    const summary = await runSuite({
      suite,
      agent,
      agentConfig: config,
      outDir,
      seed: flags.seed,
      epochs: flags.epochs,
      concurrency: flags.concurrency,
      compile: parseFilters(flags.compile, "--compile"),
      subset: flags.subset,
      filters: parseFilters(flags.filter, "--filter"),
      taskIds: flags.task.length ? flags.task : undefined,
      limit: flags.limit,
      budgets: budgetsOf(flags),
      retryErrors: flags.retryErrors,
      command: [...ctx.argv],
      signal: controller.signal,
      // A TTY stderr is the process's own stream.
      onProgress: showBar ? progressBar(ctx.io.stderr as NodeJS.WriteStream) : undefined,
    }).finally(() => process.off("SIGINT", onSigint));
    const run = loadRun(outDir);
    const report = buildReport(
      {
        runId: run.header.runId,
        suite: suite.id,
        agent: agentName,
        planned: run.header.planned,
        records: run.records,
      },
      suite,
    );
    const files = flags.report ? await writeReport(outDir, report) : undefined;
    const score = scoreOf(report);
    if (flags.json) ctx.printJson({ ...summary, records: undefined, score, report: files });
    else {
      ctx.println(renderSummary(report));
      ctx.println(
        `run ${summary.status}: ${summary.ran} ran, ${summary.skipped} resumed from ${outDir}`,
      );
      if (files) ctx.println(`report: ${files.markdown}`);
    }
    if (summary.status === "interrupted") ctx.exitCode = 130;
    else if (flags.failUnder !== undefined && score < flags.failUnder) {
      ctx.io.stderr.write(
        `success rate ${score.toFixed(4)} is below --fail-under ${flags.failUnder}\n`,
      );
      ctx.exitCode = 1;
    }
  });
}

function budgetsOf(flags: RunFlags): Budgets {
  const budgets: Budgets = {};
  if (flags.maxSteps) budgets.maxSteps = flags.maxSteps;
  if (flags.maxSimTime) budgets.maxSimTime = flags.maxSimTime;
  if (flags.maxWallMs) budgets.maxWallMs = flags.maxWallMs;
  if (flags.maxTokens) budgets.maxTokens = flags.maxTokens;
  if (flags.maxCost) budgets.maxCostUsd = flags.maxCost;
  return budgets;
}
