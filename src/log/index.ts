/**
 * Public surface of run logs: the run directory's layout, header, records, traces and stream
 * checkpoints, read and written. format.ts and header.ts do no I/O (a browser may import them).
 */
export {
  checkpointFile,
  parseEpisodeLines,
  parseHeader,
  parseJsonAs,
  parseTrace,
  REPAIR_HINT,
  RUN_FILES,
  StreamCheckpoint,
  safeFileName,
  traceFile,
  type UnreadableLine,
  utf8ByteLength,
  withoutWallClock,
} from "./format.ts";
export {
  identityDifferences,
  RunConfig,
  RunHeader,
  RunStatus,
  runIdentity,
  runIdOf,
} from "./header.ts";
export {
  checkRunDirectory,
  copyCheckpoints,
  defaultRunDirectory,
  EpisodeLog,
  loadRun,
  type OpenedRun,
  openRunDirectory,
  type Redact,
  type RepairResult,
  type RunFields,
  readCheckpoint,
  readHeaderIfAny,
  readTrace,
  readTraceFile,
  recoverEpisodes,
  removeLeftovers,
  repairEpisodes,
  tracePath,
  writeCheckpoint,
  writeEpisodes,
  writeHeader,
  writeTrace,
  writeTraceBytes,
} from "./run-dir.ts";
