/** `longhaul dataset magma --out DIR`: MAGMA-Bench's training set from expert traces (§4.4). */
import { resolve } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import { nonNegativeNumber, positiveInt, rowFormats } from "../args.ts";
import type { CliContext } from "../context.ts";

interface DatasetFlags {
  out: string;
  seed?: string;
  tasks?: number;
  scale?: number;
  format: string;
  valFraction: number;
  workers: number;
  json?: boolean;
}

function fraction(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n >= 1)
    throw new InvalidArgumentError("expected a number in [0, 1)");
  return n;
}

function positiveNumber(value: string): number {
  const n = nonNegativeNumber(value);
  if (n === 0) throw new InvalidArgumentError("expected a number > 0");
  return n;
}

/** Register `longhaul dataset`. */
export function register(program: Command, ctx: CliContext): void {
  const dataset = program
    .command("dataset")
    .description("generate training datasets (see docs/training.md)");
  dataset
    .command("magma")
    .description(
      "MAGMA-Bench's training set: expert traces of 11 families as augmented next-decision rows",
    )
    .requiredOption("--out <dir>", "output directory (magma*.jsonl and magma.manifest.json)")
    .option("--seed <seed>", "training seed, never the evaluation's (default: magma-train-1)")
    .option("--tasks <n>", "exactly n tasks (small sets; default: the paper's scale)", positiveInt)
    .option(
      "--scale <f>",
      "share of the paper's 275,220 rows to reach (default 1; ignored with --tasks)",
      positiveNumber,
    )
    .option("--format <format>", "openai, authors or both", "both")
    .option("--val-fraction <f>", "share of task groups held out for validation", fraction, 0.05)
    .option(
      "--workers <n>",
      "worker threads building and rendering tasks (same files; default 1)",
      positiveInt,
      1,
    )
    .option("--json", "machine-readable output (no progress)")
    .action(async (flags: DatasetFlags) => {
      const formats = rowFormats(flags.format);
      const { getSuite } = await import("../../suites/index.ts");
      const { checkTrainingSeed, DEFAULT_DATASET_SEED, generateMagmaDataset } = await import(
        "../../suites/magma/dataset/index.ts"
      );
      checkTrainingSeed(flags.seed ?? DEFAULT_DATASET_SEED);
      const suite = await getSuite("magma", ctx.suiteOptions);
      const evaluation = suite.compile() as Parameters<
        typeof generateMagmaDataset
      >[0]["evaluation"];
      const stderr = ctx.io.stderr;
      const started = Date.now();
      let lastLine = 0;
      const result = await generateMagmaDataset({
        outDir: resolve(flags.out),
        ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
        ...(flags.tasks !== undefined ? { tasks: flags.tasks } : {}),
        ...(flags.scale !== undefined ? { scale: flags.scale } : {}),
        formats,
        valFraction: flags.valFraction,
        workers: flags.workers,
        evaluation,
        onProgress: flags.json
          ? undefined
          : (p) => {
              const total = p.tasksTotal ?? p.targetRows ?? 0;
              const done = p.tasksTotal !== null ? p.tasks : p.rows;
              const pct = total ? Math.min(100, (100 * done) / total) : 0;
              const text = `dataset magma: ${p.tasks} tasks, ${p.rows} rows (${pct.toFixed(1)}%) ${((Date.now() - started) / 1000).toFixed(0)}s`;
              if (stderr.isTTY) stderr.write(`\r${text}\x1b[K`);
              else if (Date.now() - lastLine >= 10_000) {
                lastLine = Date.now();
                stderr.write(`${text}\n`);
              }
            },
      });
      if (!flags.json && stderr.isTTY) stderr.write("\n");
      if (flags.json) return ctx.printJson(result);
      ctx.println(
        `${result.tasks.total} tasks (decisions ${result.decisions.min}-${result.decisions.max}, mean ${result.decisions.mean.toFixed(1)}) -> ${result.rows.train} training and ${result.rows.validation} validation rows`,
      );
      for (const file of result.files)
        ctx.println(`  ${file.path} (${file.rows} rows, sha256 ${file.sha256.slice(0, 12)}…)`);
      ctx.println(`  manifest: ${result.manifest}`);
    });
}
