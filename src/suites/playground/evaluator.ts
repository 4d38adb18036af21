/**
 * The independent evaluator (§5.4): reads the world's recorded evidence and final state, never
 * the agent's claims. Success needs the family's goal predicate (with its stability window)
 * and no recorded violation; a failure carries the Table 19 code of the first violation, or of
 * the termination reason (QUIT when the agent finished without a qualified success). An attempt
 * ended by a rejected action is invalid whatever the physics shows (§5.4): ERR, which the EP
 * scores count as no opportunity.
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
  /** Rejected actions (§5.4), counted under either rejection rule. */
  rejectedActions: number;
  simTime: number;
  /** Simulated time of the success event, when there was one. */
  successTime: number | null;
  termination: string | null;
  firstViolation: string | null;
  detail: string;
  evidence: Json;
}

/** The Table 19 code of a termination without a recorded violation. */
const TERMINATION_CODE: Record<Termination["code"], FailureCode> = {
  TIME: "TIME",
  AMMO: "AMMO",
  DROP: "DROP",
  FINISH: "QUIT",
  // A violation is always recorded first; reaching here would be an evaluator fault.
  VIOLATION: "ERR",
  REJECTED: "ERR",
};

export function evaluateEpisode(
  payload: PlaygroundPayload,
  world: World,
  verdictOf: (evidence: Json) => Verdict,
  run: { actions: number; rejected: number; termination: Termination | undefined },
): EpisodeOutcome {
  const evidence = world.evidence();
  const verdict = verdictOf(evidence);
  const first = world.violations[0];
  const t = run.termination;
  const invalid = t?.code === "REJECTED";
  let category: FailureCode | undefined;
  if (invalid) category = "ERR";
  else if (first) category = first.code;
  else if (!verdict.goal && t) category = TERMINATION_CODE[t.code];
  const success = verdict.goal && !first && !invalid;
  const data: PlaygroundOutcomeData = {
    index: payload.entry.index,
    condition: payload.condition,
    level: payload.level,
    actions: run.actions,
    rejectedActions: run.rejected,
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
