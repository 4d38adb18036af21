/** One episode played in process, without a run directory: for benchmarks and tests. */
import {
  AdaptiveLimiter,
  type Agent,
  type EpisodeRecord,
  type Suite,
  type TaskSpec,
  type Trace,
} from "../core/index.ts";
import { accessFor, runEpisode } from "./episode.ts";
import { episodeIdOf } from "./plan.ts";

/** Play `spec` with `agent` exactly as a run would (budgets, scoring), returning record and trace. */
export async function playEpisode<P>(
  suite: Suite<P>,
  spec: TaskSpec<P>,
  agent: Agent,
  seed = "0",
): Promise<{ record: EpisodeRecord; trace?: Trace }> {
  const episodeId = episodeIdOf(spec.id, 0);
  const result = await runEpisode({
    suite,
    agent,
    planned: { episodeId, spec, epoch: 0 },
    seed,
    access: accessFor(agent),
    gate: new AdaptiveLimiter(1),
    signal: new AbortController().signal,
    maxConsecutiveFormatErrors: 3,
  });
  // Only an aborted run signal abandons an episode, and this one is never aborted.
  if (result.kind !== "done") throw new Error(`episode ${episodeId} was abandoned`);
  return result;
}
