/** `longhaul run <suite>`: play an agent against a suite's episodes, then write the report. */
import { resolve } from "node:path";
import type { Command } from "commander";
// The errors file, not the core index: declaring the command must not load the wire schemas.
import { LonghaulError } from "../../core/errors.ts";
import {
  agentOptions,
  agentOptionText,
  type BudgetFlags,
  budgetOptions,
  budgetsOf,
  collect,
  nonNegativeNumber,
  parseFilters,
  positiveInt,
  redactArgv,
  scoreOf,
} from "../args.ts";
import type { CliContext } from "../context.ts";
import { printRepair, runData } from "./report.ts";

interface RunFlags extends BudgetFlags {
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
  failUnder?: number;
  maxErrors?: number;
  progressEvery: number;
  repair?: boolean;
  queue?: string;
  queueName: string;
  report: boolean;
  json?: boolean;
  [agentFlag: string]: unknown;
}

/** Register the command. */
export function register(program: Command, ctx: CliContext): void {
  const cmd: Command = program
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
    .option(
      "--out <dir>",
      "run directory; an existing one resumes (default: a new runs/<suite>-<agent-or-model>-<time>)",
    )
    .option("--concurrency <n>", "episodes at once", positiveInt, 4)
    .option("--epochs <n>", "attempts per task", positiveInt, 1)
    .option("--seed <s>", "root seed of the run", "0")
    .option("--limit <n>", "run only the first n planned tasks", positiveInt)
    .option("--retry-errors", "rerun episodes that ended invalid (provider or runtime faults)");
  budgetOptions(cmd)
    .option("--fail-under <x>", "exit 1 when the success rate is below x (0..1)", nonNegativeNumber)
    .option("--max-errors <n>", "stop the run (exit 1) after n invalid episodes", positiveInt)
    .option(
      "--progress-every <s>",
      "when stderr is not a terminal: a progress line every s seconds (0: none)",
      nonNegativeNumber,
      30,
    )
    .option("--repair", "resuming: drop unreadable lines of episodes.jsonl first, keeping a backup")
    .option(
      "--queue <url>",
      "play the episodes on `longhaul worker`s through this Redis (redis://HOST:PORT)",
    )
    .option("--queue-name <name>", "queue name (as the workers')", "longhaul")
    .option("--no-report", "skip writing report.md / report.html")
    .option("--json", "print the run summary as JSON (no progress bar)");
  agentOptions(cmd).action(async (suiteId: string, flags: RunFlags) => {
    const { agentOptionInfo, coerceAgentOptions, createAgent, findAgentFactory, withoutSecrets } =
      await import("../../agents/index.ts");
    const { buildReport, renderSummary, writeReport } = await import("../../report/index.ts");
    const { checkRunDirectory, defaultRunDirectory } = await import("../../log/index.ts");
    const { progressBar, progressLines, runSuite } = await import("../../run/index.ts");
    const { getSuite } = await import("../../suites/index.ts");
    // Everything that applies to the whole run is checked before anything is written.
    if (flags.out !== undefined) checkRunDirectory(flags.out);
    const suite = await getSuite(suiteId, ctx.suiteOptions);
    const text = agentOptionText(flags);
    const agentName =
      flags.agent ?? ("model" in text ? "llm" : "trace" in text ? "replay" : "random");
    const factory = findAgentFactory(agentName, suite);
    const secretKeys = new Set(agentOptionInfo(factory).flatMap((o) => (o.secret ? [o.name] : [])));
    const { argv: command, secrets } = redactArgv(ctx.argv, secretKeys);
    ctx.redactor.add(...secrets);
    const budgets = budgetsOf(flags);
    if (budgets.maxCostUsd !== undefined && agentName === "llm" && !("prices" in text)) {
      throw new LonghaulError(
        "USAGE",
        "--max-cost does not apply without a price table: every cost is unknown; give --prices",
      );
    }
    const agentOptions = coerceAgentOptions(factory, text);
    const { agent, config } = await createAgent(agentName, agentOptions, suite);
    const outDir = resolve(
      flags.out ?? defaultRunDirectory("runs", suite.id, text.model ?? agentName, new Date()),
    );
    // SIGINT (Ctrl-C) and SIGTERM (CI cancel, docker stop) stop the run the same way: the log
    // is finished, the run marked interrupted and the partial report written.
    const controller = new AbortController();
    let signalled: NodeJS.Signals | undefined;
    const onSignal = (name: NodeJS.Signals) => {
      if (controller.signal.aborted) process.exit(exitCodeOfSignal(name));
      signalled = name;
      ctx.io.stderr.write(
        `\ninterrupted (${name}): finishing the log (${name === "SIGINT" ? "Ctrl-C" : "the signal"} again to quit at once)\n`,
      );
      controller.abort();
    };
    const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM"];
    for (const name of signals) process.on(name, onSignal);
    const stderr = ctx.io.stderr;
    // A TTY stderr is the process's own stream: a redrawn bar. Anything else (CI, a pipe, a
    // file) gets a plain line every --progress-every seconds.
    const bar = !flags.json && stderr.isTTY ? progressBar(stderr as NodeJS.WriteStream) : undefined;
    const lines =
      !stderr.isTTY && flags.progressEvery > 0
        ? progressLines((line) => stderr.write(line), flags.progressEvery * 1000)
        : undefined;
    const compile = parseFilters(flags.compile, "--compile");
    // With --queue, workers play the episodes; --concurrency then bounds the jobs in flight.
    const queue = flags.queue
      ? await (await import("../../serve/queue/index.ts")).openCoordinator({
          url: flags.queue,
          queueName: flags.queueName,
          agent: { name: agentName, options: withoutSecrets(factory, agentOptions) },
          compile,
        })
      : undefined;
    const concurrency =
      queue && cmd.getOptionValueSource("concurrency") === "default" ? 256 : flags.concurrency;
    const summary = await runSuite({
      suite,
      agent,
      agentConfig: config,
      outDir,
      seed: flags.seed,
      epochs: flags.epochs,
      concurrency,
      compile,
      subset: flags.subset,
      filters: parseFilters(flags.filter, "--filter"),
      taskIds: flags.task.length ? flags.task : undefined,
      limit: flags.limit,
      budgets,
      retryErrors: flags.retryErrors,
      maxErrors: flags.maxErrors,
      repair: flags.repair,
      command,
      redact: (t) => ctx.redactor.text(t),
      signal: controller.signal,
      onProgress: bar ?? lines?.update,
      ...(queue ? { execute: queue.execute } : {}),
    }).finally(async () => {
      lines?.stop();
      for (const name of signals) process.off(name, onSignal);
      await queue?.close();
    });
    if (flags.repair) printRepair(ctx, summary.repaired ?? { dropped: [] });
    const report = buildReport(await runData(outDir), suite);
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
    const resumeCommand = [...command, ...(flags.out === undefined ? ["--out", outDir] : [])];
    const resume = () => {
      const notes = [
        ...(resumeCommand.some((w) => w.includes("***"))
          ? ["give your secrets again in place of ***"]
          : []),
        ...(report.run.invalid > 0 && !flags.retryErrors
          ? ["add --retry-errors to rerun the invalid ones"]
          : []),
      ];
      return `to resume: longhaul ${resumeCommand.map(shellWord).join(" ")}${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`;
    };
    if (summary.status === "interrupted") {
      ctx.exitCode =
        summary.stoppedBy === "max-errors" ? 1 : exitCodeOfSignal(signalled ?? "SIGINT");
      if (summary.stoppedBy === "max-errors") {
        stderr.write(
          `stopped after ${summary.errors} invalid episodes (--max-errors ${flags.maxErrors}); the most frequent error: ${report.failures.errors[0]?.error ?? "-"}\n`,
        );
      }
      stderr.write(`${resume()}\n`);
    } else if (report.run.recorded > 0 && report.run.invalid === report.run.recorded) {
      ctx.exitCode = 1;
      stderr.write(
        `every episode was invalid; the most frequent error: ${report.failures.errors[0]?.error ?? "-"}\n`,
      );
    } else if (flags.failUnder !== undefined && score < flags.failUnder) {
      stderr.write(`success rate ${score.toFixed(4)} is below --fail-under ${flags.failUnder}\n`);
      ctx.exitCode = 1;
    }
  });
}

/** The conventional exit code of a process stopped by a signal: 128 + its number. */
function exitCodeOfSignal(name: NodeJS.Signals): number {
  return name === "SIGTERM" ? 143 : 130;
}

/** A command-line word quoted for a POSIX shell when it needs quoting. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
