/**
 * The independent evaluator (§5.4): reads the world's recorded evidence and final state, never
 * the agent's claims. Success needs the family's goal predicate (with its stability window)
 * and no recorded violation; a failure carries the Table 19 code of the first violation, or of
 * the termination reason (QUIT when the agent finished without a qualified success).
 */
import type { EpisodeOutcome, Json } from "../../core/index.ts";
import type { Termination } from "./environment.ts";
import type { PlaygroundPayload } from "./payload.ts";
import type { FailureCode } from "./protocol.ts";
import type { Verdict, World } from "./world.ts";

/** What the evaluator reports beside success and the code. */
export interface PlaygroundOutcomeData {
  index: string;
  condition: number;
  level: string;
  actions: number;
  simTime: number;
  /** Simulated time of the success event, when there was one. */
  successTime: number | null;
  termination: string | null;
  firstViolation: string | null;
  detail: string;
  evidence: Json;
}

export function evaluateEpisode(
  payload: PlaygroundPayload,
  world: World,
  verdictOf: (evidence: Json) => Verdict,
  run: { actions: number; termination: Termination | undefined },
): EpisodeOutcome {
  const evidence = world.evidence();
  const verdict = verdictOf(evidence);
  const first = world.violations[0];
  const t = run.termination;
  let category: FailureCode | undefined;
  if (first) category = first.code;
  else if (!verdict.goal && t)
    category = t.code === "FINISH" ? "QUIT" : t.code === "VIOLATION" ? "ERR" : t.code;
  const success = verdict.goal && !first;
  const data: PlaygroundOutcomeData = {
    index: payload.entry.index,
    condition: payload.condition,
    level: payload.level,
    actions: run.actions,
    simTime: world.sim.time,
    successTime: success ? (verdict.successTime ?? null) : null,
    termination: t ? `${t.code}: ${t.detail}` : null,
    firstViolation: first ? `${first.code} at ${first.time.toFixed(3)} s: ${first.detail}` : null,
    detail: verdict.detail,
    evidence,
  };
  return {
    success,
    ...(success || !category ? {} : { category }),
    data: data as unknown as Json,
  };
}
