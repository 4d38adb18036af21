/** Play one payload with the expert, synchronously (the compiler's measurements; benches). */
import { DEFAULT_ACCESS, type TaskSpec } from "../../core/index.ts";
import { MagmaEnvironment, type MagmaLatent } from "./environment.ts";
import type { LogEntry } from "./evaluate.ts";
import { Expert } from "./expert.ts";
import type { Family } from "./family.ts";
import type { MagmaOutcome } from "./outcome.ts";
import { Renamer } from "./realize.ts";
import type { MagmaPayload } from "./types.ts";

/** What the expert's play measured. */
export interface ExpertRun {
  outcome: MagmaOutcome;
  callsPerStage: number[];
  log: readonly LogEntry[];
  decisions: number;
}

/** Decisions after which a run is abandoned (a scenario program that loops is a bug). */
const MAX_DECISIONS = 5000;

/** Play a payload with the expert. */
export function runExpert(family: Family, spec: TaskSpec<MagmaPayload>): ExpertRun {
  const env = new MagmaEnvironment(spec, family, DEFAULT_ACCESS);
  const expert = new Expert(family, spec.payload, new Renamer(spec.payload.names));
  env.reset();
  let decisions = 0;
  for (; decisions < MAX_DECISIONS; decisions++) {
    const action = expert.decide(env.latent() as unknown as MagmaLatent);
    if (env.stepSync(action).terminated) {
      decisions++;
      break;
    }
  }
  const { callsPerStage, log } = env.measurements();
  return { outcome: env.outcome().data as unknown as MagmaOutcome, callsPerStage, log, decisions };
}
