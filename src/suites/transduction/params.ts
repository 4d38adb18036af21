/**
 * The frozen Long-Transduction grid (appendix D): 4 tasks x 3 formats x 4 difficulties x
 * 6 horizons x 5 samples = 1,440 documents, and the parameters that generate one document.
 * The line tasks take the three ID formats of §2; the table task takes its three variants in
 * their place, as the authors' reference implementation does (its twelve task types are
 * three per family), which is how the grid still counts 3 x 4 x 6 x 5 documents per task.
 */
import { z } from "zod";
import { LonghaulError } from "../../core/index.ts";

/**
 * Bumped whenever generated documents or their scoring change; the suite version, so the
 * suite hash covers it and a run directory of an older version refuses to resume.
 */
export const GENERATOR_VERSION = "2.0.0";

/** Task families (§2, appendix A). */
export const TASKS = ["arith", "uuid", "lookup", "table"] as const;
/** A task family. */
export type TaskName = (typeof TASKS)[number];

/** Input formats of the line tasks (§2): numbered in order, numbered but shuffled, unnumbered. */
export const FORMATS = ["ordered", "shuffled", "unnumbered"] as const;
/** An input format. */
export type FormatName = (typeof FORMATS)[number];

/** The table task's variants (appendix A), which take the place of formats in the grid. */
export const TABLE_VARIANTS = ["permute-int", "permute-hex", "kv"] as const;
/** A table variant. */
export type TableVariant = (typeof TABLE_VARIANTS)[number];

/** Difficulty levels, 1 (easiest) to 4 (hardest). */
export const DIFFICULTIES = [1, 2, 3, 4] as const;

/** Nominal horizons of input + required output tokens, in K (1K = 1,024 tokens). */
export const HORIZONS_K = [4, 8, 16, 32, 64, 128] as const;

/** Samples per cell. */
export const SAMPLES = [1, 2, 3, 4, 5] as const;

/** BPE encodings the budgets can be measured with; the paper and the reference use cl100k. */
export const TOKENIZERS = ["cl100k_base", "o200k_base"] as const;
/** A BPE encoding name. */
export type TokenizerName = (typeof TOKENIZERS)[number];

/** The encoding budgets are measured with unless the compile option `tokenizer` says otherwise. */
export const DEFAULT_TOKENIZER: TokenizerName = "cl100k_base";

/** The default root seed of the frozen grid. */
export const DEFAULT_SEED = "long-transduction";

/** The layouts a task takes: formats for line tasks, variants for tables. */
export function layoutsOf(task: TaskName): readonly string[] {
  return task === "table" ? TABLE_VARIANTS : FORMATS;
}

/** Everything that determines one document; the generator is a pure function of it. */
export const DocumentParams = z
  .object({
    task: z.enum(TASKS),
    format: z.enum([...FORMATS, ...TABLE_VARIANTS]),
    difficulty: z.number().int().min(1).max(4),
    horizonK: z.number().int().positive(),
    sample: z.number().int().positive(),
    seed: z.string(),
    tokenizer: z.enum(TOKENIZERS),
  })
  .strict()
  .refine((p) => layoutsOf(p.task).includes(p.format), {
    path: ["format"],
    message:
      "line tasks take ordered, shuffled or unnumbered; tables take permute-int, permute-hex or kv",
  });
/** Generator parameters of one document. */
export type DocumentParams = z.infer<typeof DocumentParams>;

/** How outputs are matched: the reference verifier's tolerances, or exact text. */
export const SCORING_MODES = ["reference", "strict"] as const;
/** A scoring mode. */
export type ScoringMode = (typeof SCORING_MODES)[number];

/** A compiled task's payload: the document's parameters and how its output is scored. */
export const TaskPayload = z.object({
  document: DocumentParams,
  scoring: z.enum(SCORING_MODES),
});
/** The TaskSpec payload of a transduction episode. */
export type TaskPayload = z.infer<typeof TaskPayload>;

/** Nominal input + required output tokens of a horizon. */
export function horizonTokens(horizonK: number): number {
  return horizonK * 1024;
}

/** The input budget: half the nominal horizon (the reference's `target_tokens`). */
export function inputBudget(horizonK: number): number {
  return horizonTokens(horizonK) / 2;
}

/** Output allowance: 1.5x the target input budget (appendix D). */
export function outputAllowance(horizonK: number): number {
  return Math.floor((3 * inputBudget(horizonK)) / 2);
}

/** Stable, readable task id, e.g. `arith/ordered/d2/16k/s3` or `table/kv/d1/4k/s2`. */
export function taskId(
  p: Pick<DocumentParams, "task" | "format" | "difficulty" | "horizonK" | "sample">,
): string {
  return `${p.task}/${p.format}/d${p.difficulty}/${p.horizonK}k/s${p.sample}`;
}

const TASK_ID = /^([a-z]+)\/([a-z-]+)\/d(\d+)\/(\d+)k\/s(\d+)$/;

/** The grid coordinates of a task id; a USAGE error when it is not one. */
export function parseTaskId(
  id: string,
): Pick<DocumentParams, "task" | "format" | "difficulty" | "horizonK" | "sample"> {
  const m = TASK_ID.exec(id);
  const parsed = m
    ? z
        .object({
          task: z.enum(TASKS),
          format: z.enum([...FORMATS, ...TABLE_VARIANTS]),
          difficulty: z.coerce.number().int().min(1).max(4),
          horizonK: z.coerce.number().int().positive(),
          sample: z.coerce.number().int().positive(),
        })
        .refine((p) => layoutsOf(p.task).includes(p.format))
        .safeParse({ task: m[1], format: m[2], difficulty: m[3], horizonK: m[4], sample: m[5] })
    : undefined;
  if (!parsed?.success) {
    throw new LonghaulError(
      "USAGE",
      `"${id}" is not a transduction task id (expected e.g. arith/ordered/d2/16k/s3 or table/kv/d1/4k/s2)`,
    );
  }
  return parsed.data;
}

/** Every document of the frozen grid, in a stable order. */
export function gridParams(seed: string, tokenizer: TokenizerName): DocumentParams[] {
  const out: DocumentParams[] = [];
  for (const horizonK of HORIZONS_K)
    for (const task of TASKS)
      for (const format of layoutsOf(task) as DocumentParams["format"][])
        for (const difficulty of DIFFICULTIES)
          for (const sample of SAMPLES)
            out.push({ task, format, difficulty, horizonK, sample, seed, tokenizer });
  return out;
}
