/** `longhaul report <run-dir>` and `longhaul compare <run-a> <run-b>`. */
import { resolve } from "node:path";
import type { Command } from "commander";
import type { RepairResult } from "../../log/index.ts";
import type { RunData } from "../../report/index.ts";
import { positiveInt } from "../args.ts";
import type { CliContext } from "../context.ts";

/** A run directory as the report layer's input, naming the model the agent prompted. */
export async function runData(dir: string): Promise<RunData> {
  const { loadRun } = await import("../../log/index.ts");
  const { header, records } = loadRun(resolve(dir));
  const { model, baseUrl, memory, memoryModel } = header.agent.config;
  return {
    runId: header.runId,
    suite: header.suite.id,
    agent: header.agent.id,
    planned: header.planned,
    status: header.status,
    ...(typeof model === "string" ? { model } : {}),
    ...(typeof baseUrl === "string" ? { endpoint: hostOf(baseUrl) } : {}),
    ...(typeof memory === "string"
      ? {
          memory:
            typeof memoryModel === "string" ? `${memory} (state manager ${memoryModel})` : memory,
        }
      : {}),
    records,
  };
}

/** The host of a URL (no credentials, path or query), or the text when it is no URL. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** Repair a run's episodes.jsonl (see repairEpisodes) and say what was dropped. */
async function repair(ctx: CliContext, dir: string): Promise<void> {
  const { repairEpisodes } = await import("../../log/index.ts");
  printRepair(ctx, await repairEpisodes(dir));
}

/** What a repair dropped, and where the original went. */
export function printRepair(ctx: CliContext, { dropped, backup }: RepairResult): void {
  if (dropped.length === 0) {
    ctx.io.stderr.write("repair: episodes.jsonl has no unreadable line\n");
    return;
  }
  for (const d of dropped) {
    ctx.io.stderr.write(`repair: dropped line ${d.line} (${d.problem}): "${d.excerpt}"\n`);
  }
  ctx.io.stderr.write(
    `repair: kept the original as ${backup}; rerun the run command with the same --out to replay the dropped episodes\n`,
  );
}

/** Register both commands. */
export function register(program: Command, ctx: CliContext): void {
  program
    .command("report")
    .description("write report.md and report.html into a run directory and print a summary")
    .argument("<run-dir>", "a directory written by `longhaul run`")
    .option("--figures <dir>", "also write every figure as SVG and PNG files into <dir>")
    .option("--json", "print the report model as JSON")
    .option(
      "--repair",
      "drop unreadable lines of episodes.jsonl first, keeping a backup (episodes.jsonl.bak)",
    )
    .action(async (dir: string, opts: { figures?: string; json?: boolean; repair?: boolean }) => {
      const { buildReport, renderFigures, renderSummary, writeFigureFiles, writeReport } =
        await import("../../report/index.ts");
      const { getSuite } = await import("../../suites/index.ts");
      if (opts.repair) await repair(ctx, resolve(dir));
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
        if (model.paired === 0) {
          // Nothing to compare is a failed comparison, not an empty table.
          ctx.exitCode = 1;
          ctx.io.stderr.write(
            `no paired episodes: ${a} (${model.a.suite}, ${model.a.episodes} episodes) and ${b} (${model.b.suite}, ${model.b.episodes} episodes) share no task and epoch; compare runs of the same suite and selection\n`,
          );
          if (opts.json) ctx.printJson(model);
          return;
        }
        if (opts.json) return ctx.printJson(model);
        ctx.println(renderCompare(model, opts.markdown ? "markdown" : "text"));
      },
    );
}
