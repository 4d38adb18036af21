/** A run's full report: the generic model plus the suite's own aggregate tables. */
import type { ReportModel, ReportTable, Suite } from "../core/index.ts";
import {
  categoryCounts,
  type ErrorGroup,
  episodeTable,
  errorGroups,
  genericModel,
  type RunData,
  type StatusCounts,
  statusCounts,
} from "./generic.ts";

/** Who and what a report is about, with the episode counts by status. */
export interface RunInfo extends StatusCounts {
  runId: string;
  suite: string;
  agent: string;
  planned: number | null;
  status: string | null;
  /** provider:model, for agents that prompt a model. */
  model?: string;
  /** The host of the model's endpoint when the user gave one. */
  endpoint?: string;
  /** The llm agent's state-tracking strategy when not the full history (`--memory`). */
  memory?: string;
  suiteTitle?: string;
  suiteVersion?: string;
}

/** Everything `longhaul report` renders; `--json` prints it as is. */
export interface FullReport {
  run: RunInfo;
  generic: ReportModel;
  /** The suite's aggregate (its paper's tables), when the suite is known. */
  suite?: ReportModel;
  /** Every episode with a pointer to its trace; renderers fold it at the end. */
  episodes: ReportTable;
  /** Why episodes did not succeed: counts by category, invalid ones grouped by error. */
  failures: { categories: [string, number][]; errors: ErrorGroup[] };
}

/**
 * The report of one run. The generic model groups success by family and by each of the
 * suite's dimensions, leaving invalid episodes out of success rates (see genericModel); the
 * suite model is `suite.aggregate` over all records, invalid included, for the suite to judge.
 */
export function buildReport(run: RunData, suite?: Suite): FullReport {
  const info: RunInfo = {
    runId: run.runId,
    suite: run.suite,
    agent: run.agent,
    planned: run.planned ?? null,
    status: run.status ?? null,
    ...(run.model !== undefined ? { model: run.model } : {}),
    ...(run.endpoint !== undefined ? { endpoint: run.endpoint } : {}),
    ...(run.memory !== undefined ? { memory: run.memory } : {}),
    ...statusCounts(run),
    ...(suite ? { suiteTitle: suite.title, suiteVersion: suite.version } : {}),
  };
  const generic = genericModel(run, suite?.dimensions ?? []);
  const episodes = episodeTable(run.records);
  const failures = { categories: categoryCounts(run.records), errors: errorGroups(run.records) };
  return suite
    ? { run: info, generic, suite: suite.aggregate(run.records), episodes, failures }
    : { run: info, generic, episodes, failures };
}
