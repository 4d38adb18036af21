/**
 * The suites a server serves, loaded and compiled once at startup: tasks by id, listings for
 * GET /tasks, and a deterministic pick when a client names no task (an RL trainer's bare
 * `reset()`): from the seed when one is given, else round-robin over the subset.
 */
import { closestNames, Rng, type Suite, type TaskSpec } from "../core/index.ts";
import { type GetSuiteOptions, getSuite, suiteEntries } from "../suites/index.ts";
import { ServeError } from "./wire.ts";

/** A loaded suite with its compiled tasks. */
export interface ServedSuite {
  suite: Suite;
  specs: TaskSpec[];
  byId: Map<string, TaskSpec>;
}

/** One line of GET /tasks: what identifies a task, never its payload. */
export interface TaskRow {
  suite: string;
  id: string;
  family: string;
  tags: Record<string, string | number>;
}

/** The served suites by id. */
export class ServedSuites {
  private readonly turns = new Map<string, number>();

  private constructor(private readonly suites: Map<string, ServedSuite>) {}

  /** Load and compile `ids` (default: every registered suite). Unknown ids are USAGE errors. */
  static async load(ids: string[] | undefined, options: GetSuiteOptions): Promise<ServedSuites> {
    const wanted = ids && ids.length > 0 ? ids : suiteEntries().map((e) => e.id);
    const suites = new Map<string, ServedSuite>();
    for (const id of wanted) {
      const suite = await getSuite(id, options);
      const specs = suite.compile();
      suites.set(id, { suite, specs, byId: new Map(specs.map((s) => [s.id, s])) });
    }
    return new ServedSuites(suites);
  }

  /** Served suite ids, in load order. */
  get ids(): string[] {
    return [...this.suites.keys()];
  }

  /** The suite `id`; with no id, the only served suite. */
  get(id: string | undefined, path = "suite"): ServedSuite {
    if (id === undefined) {
      const [only, ...more] = this.suites.values();
      if (only && more.length === 0) return only;
      throw new ServeError(
        "VALIDATION_ERROR",
        `name a suite; this server serves ${this.ids.join(", ")}`,
        path,
      );
    }
    const served = this.suites.get(id);
    if (served) return served;
    const [best] = closestNames(id, this.ids);
    throw new ServeError(
      "NOT_FOUND",
      `unknown suite "${id}"${best ? `; did you mean "${best}"?` : ""} (served: ${this.ids.join(", ")})`,
      path,
    );
  }

  /** The specs of a suite's subset (all of them without one); an unknown subset is a 404. */
  subset(served: ServedSuite, subset: string | undefined, path = "subset"): TaskSpec[] {
    if (subset === undefined) return served.specs;
    const keep = served.suite.subsets[subset];
    if (!keep) {
      throw new ServeError(
        "NOT_FOUND",
        `unknown subset "${subset}" of suite ${served.suite.id}; known: ${Object.keys(served.suite.subsets).join(", ")}`,
        path,
      );
    }
    return served.specs.filter(keep);
  }

  /**
   * The task a client asked for: `taskId`, or one picked from the subset (by the seed when
   * given, else the next in turn).
   */
  task(
    served: ServedSuite,
    request: { taskId?: string; subset?: string; seed?: string },
    path = "task",
  ): TaskSpec {
    if (request.taskId !== undefined) {
      const spec = served.byId.get(request.taskId);
      if (spec) return spec;
      const [best] = closestNames(request.taskId, [...served.byId.keys()]);
      throw new ServeError(
        "NOT_FOUND",
        `unknown task "${request.taskId}" in suite ${served.suite.id}${best ? `; did you mean "${best}"?` : ""}`,
        path,
      );
    }
    const pool = this.subset(served, request.subset);
    if (pool.length === 0) {
      throw new ServeError("NOT_FOUND", `no tasks in that selection of ${served.suite.id}`, path);
    }
    let index: number;
    if (request.seed !== undefined) index = new Rng(request.seed, "serve:task").int(pool.length);
    else {
      const key = `${served.suite.id}/${request.subset ?? ""}`;
      index = (this.turns.get(key) ?? 0) % pool.length;
      this.turns.set(key, index + 1);
    }
    return pool[index] as TaskSpec;
  }

  /** Task rows of one suite (and subset), or of every served suite. */
  tasks(suiteId: string | undefined, subset: string | undefined): TaskRow[] {
    const suites = suiteId === undefined ? [...this.suites.values()] : [this.get(suiteId)];
    if (suiteId === undefined && subset !== undefined && suites.length > 1) {
      throw new ServeError("VALIDATION_ERROR", "a subset needs a suite", "suite");
    }
    return suites.flatMap((served) =>
      this.subset(served, subset).map((s) => ({
        suite: s.suite,
        id: s.id,
        family: s.family,
        tags: s.tags,
      })),
    );
  }
}
