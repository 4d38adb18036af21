/** `longhaul rescore <run-dir>`: score a run's traces again with the current scorer. */
import { resolve } from "node:path";
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { runData } from "./report.ts";

/** Changes listed on the terminal before "... and N more". */
const SHOWN_CHANGES = 20;

/** Register the command. */
export function register(program: Command, ctx: CliContext): void {
  program
    .command("rescore")
    .description(
      "score every episode of a run again from its trace with the current scorer, into a new run directory",
    )
    .argument("<run-dir>", "a directory written by `longhaul run` (never modified)")
    .option("--out <dir>", "where the rescored run goes (default <run-dir>-rescored)")
    .option("--no-report", "skip writing report.md / report.html")
    .option("--json", "print the summary as JSON")
    .action(async (dir: string, flags: { out?: string; report: boolean; json?: boolean }) => {
      const { loadRun } = await import("../../log/index.ts");
      const { buildReport, renderSummary, writeReport } = await import("../../report/index.ts");
      const { progressBar, rescoreRun } = await import("../../run/index.ts");
      const { getSuite } = await import("../../suites/index.ts");
      const source = resolve(dir);
      const suite = await getSuite(loadRun(source).header.suite.id, ctx.suiteOptions);
      const out = resolve(flags.out ?? `${source}-rescored`);
      const stderr = ctx.io.stderr;
      // A TTY stderr is the process's own stream.
      const bar =
        !flags.json && stderr.isTTY ? progressBar(stderr as NodeJS.WriteStream) : undefined;
      const summary = await rescoreRun(suite, source, out, bar);
      const report = buildReport(await runData(out), suite);
      const files = flags.report ? await writeReport(out, report) : undefined;
      if (flags.json) return ctx.printJson({ ...summary, report: files });
      ctx.println(
        `rescored ${summary.rescored} of ${summary.episodes} episodes with ${suite.id} ${suite.version}` +
          ` (${summary.kept} kept as logged: play failed or no outcome); ${summary.changed} records changed`,
      );
      const verdict = (v: { status: string; category?: string }) =>
        v.category ? `${v.status} ${v.category}` : v.status;
      for (const c of summary.changes.slice(0, SHOWN_CHANGES)) {
        ctx.println(`  ${c.episodeId}: ${verdict(c.before)} -> ${verdict(c.after)}`);
      }
      if (summary.changes.length > SHOWN_CHANGES) {
        ctx.println(`  ... and ${summary.changes.length - SHOWN_CHANGES} more`);
      }
      ctx.println(renderSummary(report));
      ctx.println(`rescored run: ${out}${files ? `\nreport: ${files.markdown}` : ""}`);
    });
}
