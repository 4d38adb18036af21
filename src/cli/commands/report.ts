/** `longhaul report <run-dir>` and `longhaul compare <run-a> <run-b>`. */
import { resolve } from "node:path";
import type { Command } from "commander";
import type { RunData } from "../../report/index.ts";
import { positiveInt } from "../args.ts";
import type { CliContext } from "../context.ts";

/** A run directory as the report layer's input. */
export async function runData(dir: string): Promise<RunData> {
  const { loadRun } = await import("../../log/index.ts");
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
export function register(program: Command, ctx: CliContext): void {
  program
    .command("report")
    .description("write report.md and report.html into a run directory and print a summary")
    .argument("<run-dir>", "a directory written by `longhaul run`")
    .option("--figures <dir>", "also write every figure as SVG and PNG files into <dir>")
    .option("--json", "print the report model as JSON")
    .action(async (dir: string, opts: { figures?: string; json?: boolean }) => {
      const { buildReport, renderFigures, renderSummary, writeFigureFiles, writeReport } =
        await import("../../report/index.ts");
      const { getSuite } = await import("../../suites/index.ts");
      const run = await runData(dir);
      const report = buildReport(run, await getSuite(run.suite, ctx.suiteOptions));
      const figures = await renderFigures(report);
      const files = await writeReport(resolve(dir), report, figures);
      const written = opts.figures ? await writeFigureFiles(resolve(opts.figures), figures) : [];
      if (opts.json) return ctx.printJson(report);
      ctx.println(renderSummary(report));
      ctx.println(`report: ${files.markdown}\n        ${files.html}`);
      if (opts.figures) ctx.println(`figures: ${written.length} files in ${resolve(opts.figures)}`);
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
      async (
        a: string,
        b: string,
        opts: { resamples: number; markdown?: boolean; json?: boolean },
      ) => {
        const { compareRuns, renderCompare } = await import("../../report/index.ts");
        const model = compareRuns(await runData(a), await runData(b), {
          resamples: opts.resamples,
        });
        if (opts.json) return ctx.printJson(model);
        ctx.println(renderCompare(model, opts.markdown ? "markdown" : "text"));
      },
    );
}
