/** `longhaul rescore <run-dir>`: score a run's traces again with the current scorer. */
import { resolve } from "node:path";
import type { Command } from "commander";
import { loadRun } from "../../log/index.ts";
import { buildReport, renderSummary, writeReport } from "../../report/index.ts";
import { progressBar, rescoreRun } from "../../run/index.ts";
import { getSuite } from "../../suites/registry.ts";
import { printJson, println } from "../output.ts";
import { runData } from "./report.ts";

/** Changes listed on the terminal before "... and N more". */
const SHOWN_CHANGES = 20;

/** Register the command. */
export function register(program: Command): void {
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
      const source = resolve(dir);
      const suite = getSuite(loadRun(source).header.suite.id);
      const out = resolve(flags.out ?? `${source}-rescored`);
      const bar = !flags.json && process.stderr.isTTY ? progressBar(process.stderr) : undefined;
      const summary = await rescoreRun(suite, source, out, bar);
      const report = buildReport(runData(out), suite);
      const files = flags.report ? writeReport(out, report) : undefined;
      if (flags.json) return printJson({ ...summary, report: files });
      println(
        `rescored ${summary.rescored} of ${summary.episodes} episodes with ${suite.id} ${suite.version}` +
          ` (${summary.kept} kept as logged: play failed or no outcome); ${summary.changed} records changed`,
      );
      for (const c of summary.changes.slice(0, SHOWN_CHANGES)) {
        const verdict = (v: { status: string; category?: string }) =>
          v.category ? `${v.status} ${v.category}` : v.status;
        println(`  ${c.episodeId}: ${verdict(c.before)} -> ${verdict(c.after)}`);
      }
      if (summary.changes.length > SHOWN_CHANGES) {
        println(`  ... and ${summary.changes.length - SHOWN_CHANGES} more`);
      }
      println(renderSummary(report));
      println(`rescored run: ${out}${files ? `\nreport: ${files.markdown}` : ""}`);
    });
}
