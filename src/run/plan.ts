/** Planning: which episodes a run holds (suite x subset/filters x task ids x limit x epochs). */
import { LonghaulError, type Suite, type TaskSpec } from "../core/index.ts";

/** One episode to run: a compiled task and an epoch, with its stable id. */
export interface PlannedEpisode<P = unknown> {
  episodeId: string;
  spec: TaskSpec<P>;
  epoch: number;
}

/** The selection part of the run options. */
export interface PlanOptions {
  subset?: string;
  filters?: Record<string, string>;
  taskIds?: string[];
  limit?: number;
  epochs: number;
}

/** The readable, stable id of a task's episode in one epoch. */
export function episodeIdOf(taskId: string, epoch: number): string {
  return `${taskId}@${epoch}`;
}

/** Plan the episodes of `suite` (compiled with its defaults) for the given selection. */
export function planEpisodes<P>(suite: Suite<P>, opts: PlanOptions): PlannedEpisode<P>[] {
  return planFromSpecs(suite, suite.compile(), opts);
}

/**
 * Plan from already compiled specs. Epoch-major order, so a partial run covers every task
 * once before repeating any. Unknown subsets, filter keys and task ids are USAGE errors.
 */
export function planFromSpecs<P>(
  suite: Suite<P>,
  specs: TaskSpec<P>[],
  opts: PlanOptions,
): PlannedEpisode<P>[] {
  if (!Number.isInteger(opts.epochs) || opts.epochs < 1) {
    throw new LonghaulError("USAGE", `epochs must be a positive integer, got ${opts.epochs}`);
  }
  let selected = specs;
  if (opts.subset !== undefined) {
    const predicate = suite.subsets[opts.subset];
    if (!predicate) {
      const known = Object.keys(suite.subsets).join(", ") || "(none)";
      throw new LonghaulError(
        "USAGE",
        `unknown subset "${opts.subset}" for suite ${suite.id}; choose one of: ${known}`,
      );
    }
    selected = selected.filter((spec) => predicate(spec));
  }
  for (const [key, value] of Object.entries(opts.filters ?? {})) {
    const knownKeys = filterKeys(specs);
    if (!knownKeys.has(key)) {
      throw new LonghaulError(
        "USAGE",
        `unknown filter key "${key}" for suite ${suite.id}; choose one of: ${[...knownKeys].sort().join(", ")}`,
      );
    }
    selected = selected.filter((spec) => filterValue(spec, key) === value);
  }
  if (opts.taskIds !== undefined) {
    const byId = new Map(specs.map((spec) => [spec.id, spec]));
    const unknown = opts.taskIds.filter((id) => !byId.has(id));
    if (unknown.length > 0) {
      throw new LonghaulError(
        "USAGE",
        `unknown task id(s) in suite ${suite.id}: ${unknown.join(", ")}`,
      );
    }
    const wanted = new Set(opts.taskIds);
    selected = selected.filter((spec) => wanted.has(spec.id));
  }
  if (opts.limit !== undefined) {
    if (!Number.isInteger(opts.limit) || opts.limit < 0) {
      throw new LonghaulError("USAGE", `limit must be a non-negative integer, got ${opts.limit}`);
    }
    selected = selected.slice(0, opts.limit);
  }
  const plan: PlannedEpisode<P>[] = [];
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    for (const spec of selected) {
      const episodeId = episodeIdOf(spec.id, epoch);
      plan.push({ episodeId, spec, epoch });
    }
  }
  return plan;
}

/** Keys a filter may name: every tag key in the suite, plus `family` and `id`. */
function filterKeys(specs: TaskSpec<unknown>[]): Set<string> {
  const keys = new Set(["family", "id"]);
  for (const spec of specs) for (const key of Object.keys(spec.tags)) keys.add(key);
  return keys;
}

/** A spec's value for a filter key, as the string the user typed would compare. */
function filterValue(spec: TaskSpec<unknown>, key: string): string | undefined {
  if (key in spec.tags) return String(spec.tags[key]);
  if (key === "family") return spec.family;
  if (key === "id") return spec.id;
  return undefined;
}
