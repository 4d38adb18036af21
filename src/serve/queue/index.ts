/** Public surface of the BullMQ scale-out: the coordinator (an episode executor for runSuite) and the worker. */
export { type Coordinator, type CoordinatorOptions, openCoordinator } from "./coordinator.ts";
export {
  DEFAULT_QUEUE_NAME,
  EpisodeJob,
  EpisodeJobResult,
  jobIdOf,
  packTrace,
  queueUrl,
  traceBytes,
  unpackTrace,
} from "./jobs.ts";
export { type QueueWorker, startQueueWorker, type WorkerOptions } from "./worker.ts";
