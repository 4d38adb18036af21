/** `longhaul export sft <run-dir> --out FILE`: a run's decisions as training rows (src/training). */
import { resolve } from "node:path";
import type { Command } from "commander";
import { nonNegativeNumber, positiveInt, rowFormats } from "../args.ts";
import type { CliContext } from "../context.ts";

interface SftFlags {
  out: string;
  status: string;
  minScore?: string;
  splitKey?: string;
  valFraction: number;
  seed: string;
  format: string;
  workers: number;
  json?: boolean;
}

/** Register `sft` under the `export` command. */
export function registerExportSft(exportCommand: Command, ctx: CliContext): void {
  exportCommand
    .command("sft")
    .description(
      "a run's episodes as next-decision SFT rows (OpenAI chat JSONL and the MAGMA authors' rows)",
    )
    .argument("<run-dir>", "a directory written by `longhaul run`")
    .requiredOption(
      "--out <file>",
      "OpenAI chat rows (training split); other files are named after it",
    )
    .option("--status <status>", "episodes of this status: success, failure or any", "success")
    .option(
      "--min-score <metric=value>",
      "only episodes whose metric is at least value, e.g. ssal=0.8",
    )
    .option(
      "--split-key <key>",
      "what groups rows for the split: task, family, episode or a tag (default: the suite's)",
    )
    .option(
      "--val-fraction <f>",
      "share of groups held out for validation (0: none)",
      nonNegativeNumber,
      0,
    )
    .option("--seed <seed>", "seed of the split", "0")
    .option("--format <format>", "openai, authors or both", "both")
    .option(
      "--workers <n>",
      "worker threads rendering rows (same files; default 1)",
      positiveInt,
      1,
    )
    .option("--json", "machine-readable output")
    .action(async (dir: string, flags: SftFlags) => {
      const { LonghaulError } = await import("../../core/errors.ts");
      const { loadRun } = await import("../../log/index.ts");
      const { loadSuite, suiteEntry } = await import("../../suites/index.ts");
      const { exportSft, parseMinScore } = await import("../../training/index.ts");
      const formats = rowFormats(flags.format);
      if (!["success", "failure", "invalid", "any"].includes(flags.status)) {
        throw new LonghaulError(
          "USAGE",
          `--status must be success, failure, invalid or any, got "${flags.status}"`,
        );
      }
      const runDir = resolve(dir);
      const suite = await loadSuite(suiteEntry(loadRun(runDir).header.suite.id));
      const result = await exportSft({
        runDir,
        suite,
        out: resolve(flags.out),
        status: flags.status as "success",
        ...(flags.minScore ? { minScore: parseMinScore(flags.minScore) } : {}),
        ...(flags.splitKey ? { splitKey: flags.splitKey } : {}),
        valFraction: flags.valFraction,
        seed: flags.seed,
        formats,
        workers: flags.workers,
      });
      if (flags.json) return ctx.printJson(result);
      const { episodes, rows } = result;
      ctx.println(
        `${episodes.exported} of ${episodes.run} episodes -> ${rows.train} training and ${rows.validation} validation rows`,
      );
      for (const file of result.files)
        ctx.println(`  ${file.path} (${file.rows} rows, sha256 ${file.sha256.slice(0, 12)}…)`);
      ctx.println(`  manifest: ${result.manifest}`);
    });
}
