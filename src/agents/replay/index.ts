/**
 * The `replay` agent: plays back the actions of a logged trace in order (steps whose output
 * was unusable have no action and are skipped), then finishes.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import {
  type Action,
  type Agent,
  type AgentOptions,
  defineAgent,
  formatZodError,
  LonghaulError,
  type Trace,
} from "../../core/index.ts";
import { readTrace, readTraceFile } from "../../log/index.ts";

/** Options of the replay agent. */
export const ReplayAgentOptions = z
  .object({
    trace: z.string().min(1).describe("a trace file (.json.gz), or a run directory"),
    // Left out, each episode replays the episode of the same id, so a whole run replays.
    episode: z
      .string()
      .min(1)
      .optional()
      .describe("with a run directory: the episode to replay in every episode"),
  })
  .strict();

/** The actions of a trace, in order. */
export function traceActions(trace: Trace): Action[] {
  return trace.steps.flatMap((step) => (step.action ? [step.action] : []));
}

/** Create the replay agent; the trace file or run directory must exist. */
export function createReplayAgent(options: AgentOptions): Agent {
  const parsed = ReplayAgentOptions.safeParse(options);
  if (!parsed.success) {
    throw new LonghaulError(
      "USAGE",
      `invalid replay agent options: ${formatZodError(parsed.error)}`,
    );
  }
  const { trace: path, episode } = parsed.data;
  if (!existsSync(path))
    throw new LonghaulError("USAGE", "no such trace file or run directory", path);
  const isDir = statSync(path).isDirectory();
  if (!isDir && episode !== undefined) {
    throw new LonghaulError("USAGE", "`episode` needs `trace` to be a run directory", path);
  }
  // A single trace is read once, up front, so a bad file is reported before the run starts.
  const fixed = isDir
    ? episode === undefined
      ? undefined
      : readTrace(path, episode)
    : readTraceFile(path);
  return {
    id: "replay",
    start(_card, ctx) {
      const actions = traceActions(fixed ?? readTrace(path, ctx.episodeId));
      let next = 0;
      return {
        act: async () => {
          const action = actions[next++] ?? { kind: "finish" };
          return { action, raw: JSON.stringify(action) };
        },
      };
    },
  };
}

/** The `replay` agent's factory; the trace path is logged absolute, so runs stay comparable. */
export const replayAgent = defineAgent({
  name: "replay",
  description: "replays the actions of a logged trace, or of each episode of a run directory",
  options: ReplayAgentOptions,
  publicConfig: (options) => ({ ...options, trace: resolve(options.trace) }),
  create: (options) => createReplayAgent({ ...options, trace: resolve(options.trace) }),
});
