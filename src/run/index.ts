/** Public surface of the runner: planning, running, run directories, progress. */
export { accessFor, type EpisodeResult, type EpisodeSetup, runEpisode } from "./episode.ts";
export {
  BudgetLimit,
  EnvironmentLayer,
  type EpisodeEnd,
  type EpisodeLayer,
  FORMAT_ERROR_EVENT,
  FormatPolicy,
  Recorder,
  type Recording,
  type Turn,
  type TurnOutcome,
  turnOf,
  wrapEnvironment,
} from "./layers.ts";
export {
  episodeIdOf,
  type PlannedEpisode,
  type PlannedUnit,
  type PlanOptions,
  planEpisodes,
  planFromSpecs,
  planUnits,
} from "./plan.ts";
export { playEpisode } from "./play.ts";
export {
  formatDuration,
  type Progress,
  type ProgressClock,
  progressBar,
  progressLines,
  renderProgress,
  renderProgressLine,
  SYSTEM_CLOCK,
} from "./progress.ts";
export {
  type RescoreChange,
  type RescoreSummary,
  rescoreRun,
  rescoreTrace,
} from "./rescore.ts";
export { LONGHAUL_VERSION, type RunOptions, type RunSummary, runSuite } from "./runner.ts";
export {
  baseOf,
  composeRecord,
  genericCategory,
  invalidRecord,
  mergeBudgets,
  type RecordBase,
  scoreEpisode,
  truncatedByEnvironment,
  type UnscoredTrace,
} from "./scoring.ts";
export {
  describeError,
  type EarlyEnd,
  EpisodeSession,
  type FinishedEpisode,
  type SessionOptions,
  type SubmitResult,
  WallBudgetExceeded,
} from "./session.ts";
