/** `longhaul run <suite>`: play an agent against a suite's episodes, then write the report. */
import { resolve } from "node:path";
import type { Command } from "commander";
import { createAgent } from "../../agents/index.ts";
import { publicConfig } from "../../agents/llm/index.ts";
import { type Budgets, LonghaulError } from "../../core/index.ts";
import { loadRun } from "../../log/index.ts";
import { buildReport, renderSummary, writeReport } from "../../report/index.ts";
import { progressBar, runSuite } from "../../run/index.ts";
import { getSuite } from "../../suites/registry.ts";
import {
  collect,
  llmOptions,
  nonNegativeNumber,
  parseFilters,
  positiveInt,
  scoreOf,
} from "../args.ts";
import { printJson, println } from "../output.ts";

interface RunFlags {
  compile: string[];
  subset?: string;
  filter: string[];
  task: string[];
  agent?: string;
  model?: string;
  trace?: string;
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
  [llmFlag: string]: unknown;
}

/** Register the command. */
export function register(program: Command): void {
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
    .option("--agent <name>", "agent: random, replay, llm, or one the suite provides")
    .option("--model <provider:name>", "model for the llm agent, e.g. openai:gpt-4o-mini")
    .option("--trace <file>", "trace file or run dir for the replay agent")
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
  llmOptions(cmd).action(async (suiteId: string, flags: RunFlags) => {
    const suite = getSuite(suiteId);
    const agentName = flags.agent ?? (flags.model ? "llm" : "random");
    const llm = agentName === "llm" ? llmConfig(flags) : undefined;
    const agentOptions = llm ?? (flags.trace ? { trace: resolve(flags.trace) } : {});
    const agent = createAgent(agentName, agentOptions, suite);
    const outDir = resolve(flags.out ?? `runs/${suite.id}-${agentName}`);
    const controller = new AbortController();
    const onSigint = () => {
      if (controller.signal.aborted) process.exit(130);
      process.stderr.write("\ninterrupting: finishing the log (Ctrl-C again to quit at once)\n");
      controller.abort();
    };
    process.on("SIGINT", onSigint);
    const showBar = !flags.json && process.stderr.isTTY;
    const summary = await runSuite({
      suite,
      agent,
      agentConfig: { name: agentName, ...(llm ? publicConfig(llm) : agentOptions) },
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
      command: process.argv.slice(2),
      signal: controller.signal,
      onProgress: showBar ? progressBar(process.stderr) : undefined,
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
    const files = flags.report ? writeReport(outDir, report) : undefined;
    const score = scoreOf(report);
    if (flags.json) printJson({ ...summary, records: undefined, score, report: files });
    else {
      println(renderSummary(report));
      println(
        `run ${summary.status}: ${summary.ran} ran, ${summary.skipped} resumed from ${outDir}`,
      );
      if (files) println(`report: ${files.markdown}`);
    }
    if (summary.status === "interrupted") process.exitCode = 130;
    else if (flags.failUnder !== undefined && score < flags.failUnder) {
      process.stderr.write(
        `success rate ${score.toFixed(4)} is below --fail-under ${flags.failUnder}\n`,
      );
      process.exitCode = 1;
    }
  });
}

function llmConfig(flags: RunFlags) {
  if (!flags.model) throw new LonghaulError("USAGE", "--agent llm needs --model provider:name");
  return {
    model: flags.model,
    baseUrl: flags.baseUrl as string | undefined,
    apiKey: flags.apiKey as string | undefined,
    temperature: flags.temperature as number | undefined,
    maxTokens: flags.maxOutputTokens as number | undefined,
    reasoningEffort: flags.reasoningEffort as "minimal" | "low" | "medium" | "high" | undefined,
    seed: flags.modelSeed as number | undefined,
    maxRetries: flags.maxRetries as number | undefined,
    timeoutMs: flags.timeoutMs as number | undefined,
    cacheDir: flags.cache ? resolve(flags.cache as string) : undefined,
    prices: flags.prices ? resolve(flags.prices as string) : undefined,
    output: flags.output as "auto" | "tools" | "json" | undefined,
  };
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
