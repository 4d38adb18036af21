/** Public surface of the runner: planning, running, run directories, progress. */
export {
  accessFor,
  type EpisodeResult,
  type EpisodeSetup,
  FORMAT_ERROR_EVENT,
  genericCategory,
  mergeBudgets,
  runEpisode,
} from "./episode.ts";
export {
  episodeIdOf,
  type PlannedEpisode,
  type PlanOptions,
  planEpisodes,
} from "./plan.ts";
export { playEpisode } from "./play.ts";
export { formatDuration, type Progress, progressBar, renderProgress } from "./progress.ts";
export { type RunOptions, type RunSummary, runSuite } from "./runner.ts";
