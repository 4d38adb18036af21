/** Hand-made episode records for the report tests. */
import { type EpisodeRecord, emptyUsage, type Usage } from "../core/index.ts";

/** A valid record of task `taskId` with defaults for everything the test does not set. */
export function makeRecord(
  taskId: string,
  fields: Partial<Omit<EpisodeRecord, "usage">> & { usage?: Partial<Usage> } = {},
): EpisodeRecord {
  const { usage, ...rest } = fields;
  const epoch = rest.epoch ?? 0;
  return {
    episodeId: `${taskId}@${epoch}`,
    taskId,
    suite: "toy",
    family: "A",
    tags: {},
    epoch,
    agent: "scripted",
    status: "success",
    endedBy: "terminated",
    steps: 0,
    invalidActions: 0,
    formatErrors: 0,
    wallMs: 0,
    metrics: {},
    ...rest,
    usage: { ...emptyUsage(), ...usage },
  };
}
