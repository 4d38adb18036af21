/** A run's full report: the generic model plus the suite's own aggregate tables. */
import type { ReportModel, Suite } from "../core/index.ts";
import { genericModel, type RunData, type StatusCounts, statusCounts } from "./generic.ts";

/** Who and what a report is about, with the episode counts by status. */
export interface RunInfo extends StatusCounts {
  runId: string;
  suite: string;
  agent: string;
  planned: number | null;
  status: string | null;
  suiteTitle?: string;
  suiteVersion?: string;
}

/** Everything `longhaul report` renders; `--json` prints it as is. */
export interface FullReport {
  run: RunInfo;
  generic: ReportModel;
  /** The suite's aggregate (its paper's tables), when the suite is known. */
  suite?: ReportModel;
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
    ...statusCounts(run),
    ...(suite ? { suiteTitle: suite.title, suiteVersion: suite.version } : {}),
  };
  const generic = genericModel(run, suite?.dimensions ?? []);
  return suite
    ? { run: info, generic, suite: suite.aggregate(run.records) }
    : { run: info, generic };
}
