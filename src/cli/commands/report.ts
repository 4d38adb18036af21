/** `longhaul report <run-dir>` and `longhaul compare <run-a> <run-b>`. */
import { resolve } from "node:path";
import type { Command } from "commander";
import { loadRun } from "../../log/index.ts";
import {
  buildReport,
  compareRuns,
  type RunData,
  renderCompare,
  renderSummary,
  writeReport,
} from "../../report/index.ts";
import { getSuite } from "../../suites/registry.ts";
import { positiveInt } from "../args.ts";
import { printJson, println } from "../output.ts";

/** A run directory as the report layer's input. */
export function runData(dir: string): RunData {
  const { header, records } = loadRun(resolve(dir));
  return {
    runId: header.runId,
    suite: header.suite.id,
    agent: header.agent.id,
    planned: header.planned,
    status: header.status,
    records,
  };
}

/** Register both commands. */
export function register(program: Command): void {
  program
    .command("report")
    .description("write report.md and report.html into a run directory and print a summary")
    .argument("<run-dir>", "a directory written by `longhaul run`")
    .option("--json", "print the report model as JSON")
    .action((dir: string, opts: { json?: boolean }) => {
      const run = runData(dir);
      const report = buildReport(run, getSuite(run.suite));
      const files = writeReport(resolve(dir), report);
      if (opts.json) return printJson(report);
      println(renderSummary(report));
      println(`report: ${files.markdown}\n        ${files.html}`);
    });

  program
    .command("compare")
    .description("per-metric differences between two runs on their paired episodes, with intervals")
    .argument("<run-a>", "baseline run directory")
    .argument("<run-b>", "run directory compared against it")
    .option("--resamples <n>", "bootstrap resamples", positiveInt, 10_000)
    .option("--markdown", "print Markdown instead of plain text")
    .option("--json", "print the comparison model as JSON")
    .action(
      (a: string, b: string, opts: { resamples: number; markdown?: boolean; json?: boolean }) => {
        const model = compareRuns(runData(a), runData(b), { resamples: opts.resamples });
        if (opts.json) return printJson(model);
        println(renderCompare(model, opts.markdown ? "markdown" : "text"));
      },
    );
}
