/**
 * The frozen Long-Transduction grid (appendix D): 4 tasks x 3 formats x 4 difficulties x
 * 6 horizons x 5 samples = 1,440 documents, and the parameters that generate one document.
 */
import { z } from "zod";
import { LonghaulError } from "../../core/index.ts";

/** Bumped whenever generated documents change; the suite version, so the suite hash covers it. */
export const GENERATOR_VERSION = "1.0.0";

/** Task families (§2, appendix A). */
export const TASKS = ["arith", "uuid", "lookup", "table"] as const;
/** A task family. */
export type TaskName = (typeof TASKS)[number];

/** Input formats (§2): numbered in order, numbered but shuffled, unnumbered. */
export const FORMATS = ["ordered", "shuffled", "unnumbered"] as const;
/** An input format. */
export type FormatName = (typeof FORMATS)[number];

/** Difficulty levels, 1 (easiest) to 4 (hardest). */
export const DIFFICULTIES = [1, 2, 3, 4] as const;

/** Nominal horizons of input + required output tokens, in K (1K = 1,024 tokens). */
export const HORIZONS_K = [4, 8, 16, 32, 64, 128] as const;

/** Samples per cell. */
export const SAMPLES = [1, 2, 3, 4, 5] as const;

/** BPE encodings the budgets can be measured with. */
export const TOKENIZERS = ["o200k_base", "cl100k_base"] as const;
/** A BPE encoding name. */
export type TokenizerName = (typeof TOKENIZERS)[number];

/** The default root seed of the frozen grid. */
export const DEFAULT_SEED = "long-transduction";

/** Everything that determines one document; the generator is a pure function of it. */
export const DocumentParams = z
  .object({
    task: z.enum(TASKS),
    format: z.enum(FORMATS),
    difficulty: z.number().int().min(1).max(4),
    horizonK: z.number().int().positive(),
    sample: z.number().int().positive(),
    seed: z.string(),
    tokenizer: z.enum(TOKENIZERS),
  })
  .strict();
/** Generator parameters of one document (the TaskSpec payload). */
export type DocumentParams = z.infer<typeof DocumentParams>;

/** Nominal input + required output tokens of a horizon. */
export function horizonTokens(horizonK: number): number {
  return horizonK * 1024;
}

/**
 * Output allowance: 1.5x the target input budget (appendix D), the input budget being half
 * the nominal horizon.
 */
export function outputAllowance(horizonK: number): number {
  return Math.ceil((1.5 * horizonTokens(horizonK)) / 2);
}

/** Stable, readable task id, e.g. `arith/ordered/d2/16k/s3`. */
export function taskId(
  p: Pick<DocumentParams, "task" | "format" | "difficulty" | "horizonK" | "sample">,
): string {
  return `${p.task}/${p.format}/d${p.difficulty}/${p.horizonK}k/s${p.sample}`;
}

const TASK_ID = /^([a-z]+)\/([a-z]+)\/d(\d+)\/(\d+)k\/s(\d+)$/;

/** The grid coordinates of a task id; a USAGE error when it is not one. */
export function parseTaskId(
  id: string,
): Pick<DocumentParams, "task" | "format" | "difficulty" | "horizonK" | "sample"> {
  const m = TASK_ID.exec(id);
  const parsed = m
    ? z
        .object({
          task: z.enum(TASKS),
          format: z.enum(FORMATS),
          difficulty: z.coerce.number().int().min(1).max(4),
          horizonK: z.coerce.number().int().positive(),
          sample: z.coerce.number().int().positive(),
        })
        .safeParse({ task: m[1], format: m[2], difficulty: m[3], horizonK: m[4], sample: m[5] })
    : undefined;
  if (!parsed?.success) {
    throw new LonghaulError(
      "USAGE",
      `"${id}" is not a transduction task id (expected e.g. arith/ordered/d2/16k/s3)`,
    );
  }
  return parsed.data;
}

/** Every document of the frozen grid, in a stable order. */
export function gridParams(seed: string, tokenizer: TokenizerName): DocumentParams[] {
  const out: DocumentParams[] = [];
  for (const horizonK of HORIZONS_K)
    for (const task of TASKS)
      for (const format of FORMATS)
        for (const difficulty of DIFFICULTIES)
          for (const sample of SAMPLES)
            out.push({ task, format, difficulty, horizonK, sample, seed, tokenizer });
  return out;
}
