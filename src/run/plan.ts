/**
 * Planning: which episodes a run holds (suite x subset/filters x task ids x limit x epochs),
 * and how they group into units of work: a stream's episodes in order, or one episode alone.
 */
import {
  LonghaulError,
  type StreamMemory,
  type StreamPosition,
  type Suite,
  type TaskSpec,
} from "../core/index.ts";

/** One episode to run: a compiled task and an epoch, with its stable id. */
export interface PlannedEpisode<P = unknown> {
  episodeId: string;
  spec: TaskSpec<P>;
  epoch: number;
  /** Set when the episode belongs to one of the suite's ordered streams. */
  stream?: StreamPosition;
}

/** What one runner worker plays: a stream's episodes in order, or one independent episode. */
export interface PlannedUnit<P = unknown> {
  /** The stream id (with its epoch), absent for an independent episode. */
  stream?: string;
  episodes: PlannedEpisode<P>[];
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
    if (selected.length === 0) {
      throw new LonghaulError(
        "USAGE",
        `subset "${opts.subset}" selects no task of suite ${suite.id}`,
      );
    }
  }
  for (const [key, value] of Object.entries(opts.filters ?? {})) {
    const knownKeys = filterKeys(specs);
    if (!knownKeys.has(key)) {
      throw new LonghaulError(
        "USAGE",
        `unknown filter key "${key}" for suite ${suite.id}; choose one of: ${[...knownKeys].sort().join(", ")}`,
      );
    }
    const before = selected;
    selected = selected.filter((spec) => filterValue(spec, key) === value);
    if (selected.length === 0) {
      const values = [...new Set(before.map((spec) => filterValue(spec, key) ?? ""))]
        .filter((v) => v !== "")
        .sort(naturalOrder);
      const shown = values.length > 12 ? [...values.slice(0, 12), "..."] : values;
      throw new LonghaulError(
        "USAGE",
        `filter ${key}=${value} selects no task of suite ${suite.id}` +
          (values.length > 0 ? ` (${key} is one of: ${shown.join(", ")})` : ""),
      );
    }
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
  const streams = streamsOf(suite, selected);
  const plan: PlannedEpisode<P>[] = [];
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    const emitted = new Set<string>();
    for (const spec of selected) {
      const member = streams.get(spec.id);
      if (!member) {
        plan.push({ episodeId: episodeIdOf(spec.id, epoch), spec, epoch });
        continue;
      }
      // A stream enters the plan, whole and in order, where its first selected task appears.
      if (emitted.has(member.id)) continue;
      emitted.add(member.id);
      member.episodes.forEach(({ spec: s, phase }, index) => {
        const stream: StreamPosition = {
          id: `${member.id}@${epoch}`,
          index,
          length: member.episodes.length,
          ...(phase !== undefined ? { phase } : {}),
          ...(member.memory !== undefined ? { memory: member.memory } : {}),
        };
        plan.push({ episodeId: episodeIdOf(s.id, epoch), spec: s, epoch, stream });
      });
    }
  }
  return plan;
}

/** The plan grouped into units: each stream (in plan order) and each independent episode. */
export function planUnits<P>(plan: PlannedEpisode<P>[]): PlannedUnit<P>[] {
  const units: PlannedUnit<P>[] = [];
  const byStream = new Map<string, PlannedUnit<P>>();
  for (const planned of plan) {
    const id = planned.stream?.id;
    if (id === undefined) {
      units.push({ episodes: [planned] });
      continue;
    }
    let unit = byStream.get(id);
    if (!unit) {
      unit = { stream: id, episodes: [] };
      byStream.set(id, unit);
      units.push(unit);
    }
    unit.episodes.push(planned);
  }
  return units;
}

/** A stream over selected specs, resolved. */
interface ResolvedStream<P> {
  id: string;
  episodes: { spec: TaskSpec<P>; phase?: string }[];
  memory?: StreamMemory;
}

/**
 * The suite's streams over the selected specs, by member task id. A stream naming a task that
 * is not selected, a task in two streams or two streams with one id is a suite bug (RUNTIME).
 */
function streamsOf<P>(suite: Suite<P>, selected: TaskSpec<P>[]): Map<string, ResolvedStream<P>> {
  const out = new Map<string, ResolvedStream<P>>();
  if (!suite.streams) return out;
  const byId = new Map(selected.map((spec) => [spec.id, spec]));
  const ids = new Set<string>();
  for (const [i, plan] of suite.streams(selected).entries()) {
    const where = `suite ${suite.id}: streams()[${i}]`;
    if (ids.has(plan.id))
      throw new LonghaulError("RUNTIME", `duplicate stream id "${plan.id}"`, where);
    ids.add(plan.id);
    if (plan.episodes.length === 0) continue;
    const stream: ResolvedStream<P> = {
      id: plan.id,
      episodes: [],
      ...(plan.memory !== undefined ? { memory: plan.memory } : {}),
    };
    for (const [j, { task, phase }] of plan.episodes.entries()) {
      const spec = byId.get(task);
      if (!spec) {
        throw new LonghaulError(
          "RUNTIME",
          `names task "${task}", which is not selected`,
          `${where}.episodes[${j}]`,
        );
      }
      if (out.has(task)) {
        throw new LonghaulError(
          "RUNTIME",
          `task "${task}" is already in stream "${out.get(task)?.id}"`,
          `${where}.episodes[${j}]`,
        );
      }
      stream.episodes.push({ spec, ...(phase !== undefined ? { phase } : {}) });
      out.set(task, stream);
    }
  }
  return out;
}

/** Keys a filter may name: every tag key in the suite, plus `family` and `id`. */
function filterKeys(specs: TaskSpec<unknown>[]): Set<string> {
  const keys = new Set(["family", "id"]);
  for (const spec of specs) for (const key of Object.keys(spec.tags)) keys.add(key);
  return keys;
}

/** Numbers inside strings compared as numbers ("i2" before "i10"). */
function naturalOrder(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}

/** A spec's value for a filter key, as the string the user typed would compare. */
function filterValue(spec: TaskSpec<unknown>, key: string): string | undefined {
  if (key in spec.tags) return String(spec.tags[key]);
  if (key === "family") return spec.family;
  if (key === "id") return spec.id;
  return undefined;
}
