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
  RUN_FILES,
  StreamCheckpoint,
  safeFileName,
  traceFile,
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
  copyCheckpoints,
  EpisodeLog,
  loadRun,
  openRunDirectory,
  type RunFields,
  readCheckpoint,
  readHeaderIfAny,
  readTrace,
  readTraceFile,
  recoverEpisodes,
  tracePath,
  writeCheckpoint,
  writeEpisodes,
  writeHeader,
  writeTrace,
  writeTraceBytes,
} from "./run-dir.ts";
