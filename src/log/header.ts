/** The run header (run.json) and the run identity its id is hashed from. */
import { z } from "zod";
import { AccessProfile, Budgets, canonicalJson, hashValue } from "../core/index.ts";

/** The selection, epochs and transport settings a run was started with. */
export const RunConfig = z
  .object({
    /** Suite compile options (e.g. a user family file); the suite hash covers their effect. */
    compile: z.record(z.string(), z.unknown()).optional(),
    subset: z.string().optional(),
    filters: z.record(z.string(), z.string()).optional(),
    taskIds: z.array(z.string()).optional(),
    limit: z.number().int().nonnegative().optional(),
    epochs: z.number().int().positive(),
    concurrency: z.number().int().positive(),
    retryErrors: z.boolean(),
    maxConsecutiveFormatErrors: z.number().int().positive(),
  })
  .strict();
export type RunConfig = z.infer<typeof RunConfig>;

/** Lifecycle of a run: `started` until it ends; a crashed run stays `started`. */
export const RunStatus = z.enum(["started", "finished", "interrupted"]);
export type RunStatus = z.infer<typeof RunStatus>;

/** run.json: what ran, with what, and how far it got. Timestamps live only here. */
export const RunHeader = z
  .object({
    runId: z.string(),
    command: z.array(z.string()),
    config: RunConfig,
    versions: z.object({ longhaul: z.string(), node: z.string() }).strict(),
    seed: z.string(),
    suite: z.object({ id: z.string(), version: z.string(), hash: z.string() }).strict(),
    agent: z.object({ id: z.string(), config: z.record(z.string(), z.unknown()) }).strict(),
    access: AccessProfile,
    budgets: Budgets,
    planned: z.number().int().nonnegative(),
    status: RunStatus,
    startedAt: z.string(),
    updatedAt: z.string(),
    /** Set on a run directory written by `longhaul rescore`: its source and the scorer used. */
    rescore: z
      .object({
        from: z.string(),
        suiteVersion: z.string(),
        suiteHash: z.string(),
        at: z.string(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type RunHeader = z.infer<typeof RunHeader>;

/**
 * Everything that changes a run's results, and nothing that only changes how fast it goes
 * (concurrency, retries, the command line): two headers with equal identities may share a
 * run directory.
 */
export function runIdentity(h: Omit<RunHeader, "runId" | "status" | "startedAt" | "updatedAt">) {
  return {
    suite: h.suite,
    plan: {
      compile: h.config.compile,
      subset: h.config.subset,
      filters: h.config.filters,
      taskIds: h.config.taskIds,
      limit: h.config.limit,
    },
    epochs: h.config.epochs,
    agent: h.agent,
    seed: h.seed,
    access: h.access,
    budgets: h.budgets,
    maxConsecutiveFormatErrors: h.config.maxConsecutiveFormatErrors,
  };
}

/** The run id: a short hash of the run identity. */
export function runIdOf(identity: ReturnType<typeof runIdentity>): string {
  return hashValue(identity).slice(0, 16);
}

/** Human-readable differences between two identities ("seed: \"a\" -> \"b\""). */
export function identityDifferences(
  before: ReturnType<typeof runIdentity>,
  after: ReturnType<typeof runIdentity>,
): string[] {
  const out: string[] = [];
  for (const key of Object.keys(after) as (keyof typeof after)[]) {
    const a = canonicalJson(before[key]) ?? "(none)";
    const b = canonicalJson(after[key]) ?? "(none)";
    if (a !== b) out.push(`${key}: ${a} -> ${b}`);
  }
  return out;
}
