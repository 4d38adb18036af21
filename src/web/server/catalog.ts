/**
 * The run directories a viewer shows and the data documents it serves from them. Runs are
 * found once (a directory holding run.json, or the run directories one level below a given
 * directory); each run's index is read from episodes.jsonl when first asked for, its report
 * built and its figures drawn once, and traces read one at a time. Only episodes of the index
 * can be asked for, by their trace's file stem: no request names a path.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import {
  type EpisodeRecord,
  LonghaulError,
  type Suite,
  suiteHash,
  type TaskSpec,
} from "../../core/index.ts";
import type { RunHeader } from "../../log/index.ts";
import { loadRun, RUN_FILES, readTrace, safeFileName } from "../../log/index.ts";
import {
  dataKeys,
  dataScript,
  type EpisodeDoc,
  type IndexDoc,
  indexDoc,
  indexRow,
  type ReportDoc,
  type RunSummary,
} from "../model/index.ts";

/** A run directory and what has been read from it so far. */
interface RunEntry {
  dir: string;
  name: string;
  header: RunHeader;
  records: EpisodeRecord[];
  /** Trace file stem -> episode id, for the episodes of the index only. */
  files: Map<string, string>;
  index?: IndexDoc;
  /** The index as a data script, serialised once (several megabytes for a large run). */
  indexScript?: string;
  report?: Promise<ReportDoc>;
  specs?: Promise<CompiledTasks>;
}

/** A run's tasks compiled again, and whether they still hash to the run's suite hash. */
interface CompiledTasks {
  byId: Map<string, TaskSpec>;
  changed: boolean;
}

/** How the catalog finds suites (the CLI passes its compile-cache choice). */
export interface CatalogOptions {
  suite?: (id: string) => Promise<Suite | undefined>;
}

/** Run directories among `paths`: each path itself when it holds run.json, else its children that do. */
export function findRunDirs(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    const dir = resolve(p);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new LonghaulError("NOT_FOUND", "no such directory", dir);
    }
    if (existsSync(join(dir, RUN_FILES.header))) {
      out.push(dir);
      continue;
    }
    const children = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, RUN_FILES.header)))
      .map((e) => join(dir, e.name))
      .sort();
    if (children.length === 0) {
      throw new LonghaulError(
        "NOT_FOUND",
        "holds no run directory (no run.json in it or below it)",
        dir,
      );
    }
    out.push(...children);
  }
  return [...new Set(out)];
}

/** The runs one viewer serves, in the order given. */
export class RunCatalog {
  private readonly runs: RunEntry[];

  constructor(
    dirs: readonly string[],
    private readonly options: CatalogOptions = {},
  ) {
    const cwd = process.cwd();
    this.runs = dirs.map((dir) => {
      const { header, records } = loadRun(dir);
      const rel = relative(cwd, dir);
      return {
        dir,
        name: rel && !rel.startsWith("..") ? rel : basename(dir),
        header,
        records,
        files: new Map(records.map((r) => [safeFileName(r.episodeId), r.episodeId])),
      };
    });
  }

  /** Number of runs. */
  get size(): number {
    return this.runs.length;
  }

  private summaryList?: RunSummary[];

  /** Every run with its headline numbers (computed once). */
  summaries(): RunSummary[] {
    this.summaryList ??= this.runs.map((run, index) => {
      const count = (s: string) => run.records.filter((r) => r.status === s).length;
      const success = count("success");
      const failure = count("failure");
      let tokens = 0;
      let cost = 0;
      for (const r of run.records) {
        tokens += r.usage.inputTokens + r.usage.cachedInputTokens + r.usage.outputTokens;
        cost += r.usage.costUsd;
      }
      const h = run.header;
      return {
        index,
        name: run.name,
        runId: h.runId,
        suite: h.suite.id,
        agent: h.agent.id,
        status: h.status,
        planned: h.planned,
        recorded: run.records.length,
        success,
        failure,
        invalid: count("invalid"),
        successRate: success + failure > 0 ? success / (success + failure) : null,
        tokens,
        costUsd: cost,
        startedAt: h.startedAt,
        updatedAt: h.updatedAt,
      };
    });
    return this.summaryList;
  }

  private entry(run: number): RunEntry | undefined {
    return Number.isInteger(run) ? this.runs[run] : undefined;
  }

  /** A run's episode index (undefined for an unknown run). */
  index(run: number): IndexDoc | undefined {
    const entry = this.entry(run);
    if (!entry) return undefined;
    entry.index ??= indexDoc(
      run,
      entry.records.map((r) => indexRow(r, safeFileName(r.episodeId))),
    );
    return entry.index;
  }

  /** A run's index as its data script (serialised once). */
  indexScript(run: number): string | undefined {
    const entry = this.entry(run);
    const index = this.index(run);
    if (!entry || !index) return undefined;
    entry.indexScript ??= dataScript(dataKeys.index(run), index);
    return entry.indexScript;
  }

  /** A run's report with its figures drawn (built once). */
  report(run: number): Promise<ReportDoc> | undefined {
    const entry = this.entry(run);
    if (!entry) return undefined;
    entry.report ??= this.buildReport(entry);
    return entry.report;
  }

  private async buildReport(entry: RunEntry): Promise<ReportDoc> {
    const { buildReport, renderFigures } = await import("../../report/index.ts");
    const h = entry.header;
    const report = buildReport(
      {
        runId: h.runId,
        suite: h.suite.id,
        agent: h.agent.id,
        planned: h.planned,
        status: h.status,
        records: entry.records,
      },
      await this.suite(h.suite.id),
    );
    return { report, figures: await renderFigures(report) };
  }

  private async suite(id: string): Promise<Suite | undefined> {
    if (this.options.suite) return this.options.suite(id);
    const { getSuite } = await import("../../suites/index.ts");
    return getSuite(id).catch(() => undefined);
  }

  /** One episode's trace and its suite's inspection, by trace file stem; undefined if unknown. */
  async episode(run: number, file: string): Promise<EpisodeDoc | undefined> {
    const entry = this.entry(run);
    const id = entry?.files.get(file);
    if (!entry || id === undefined) return undefined;
    const trace = readTrace(entry.dir, id);
    const suite = await this.suite(entry.header.suite.id);
    if (!suite?.inspect) return { trace };
    entry.specs ??= this.compile(entry, suite);
    const tasks = await entry.specs;
    const spec = tasks.byId.get(trace.taskId);
    if (!spec) {
      return {
        trace,
        inspection: { notes: [`task ${trace.taskId} is not among the suite's compiled tasks`] },
      };
    }
    const notes = tasks.changed
      ? [
          `the suite's tasks changed since this run (hash ${entry.header.suite.hash}): the views below come from today's task`,
        ]
      : [];
    try {
      const inspection = await suite.inspect(spec, trace);
      return {
        trace,
        inspection: { ...inspection, notes: [...notes, ...(inspection.notes ?? [])] },
      };
    } catch (error) {
      return {
        trace,
        inspection: { notes: [...notes, `inspection failed: ${(error as Error).message}`] },
      };
    }
  }

  /** The run's tasks compiled with its compile options, by id. */
  private async compile(entry: RunEntry, suite: Suite): Promise<CompiledTasks> {
    const specs = await suite.compile(entry.header.config.compile);
    const { id, version, hash } = entry.header.suite;
    return {
      byId: new Map(specs.map((s) => [s.id, s])),
      changed: suiteHash({ id, version }, specs) !== hash,
    };
  }
}
