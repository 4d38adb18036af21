/** The independent Hanoi verdict (§5.4): exact arrangement, legal moves, seating, 1 s stability. */
import type { Json } from "../../../core/index.ts";
import type { Verdict } from "../world.ts";
import { HANOI_DWELL } from "./world.ts";

/** The evidence the Hanoi world records. */
export interface HanoiEvidence {
  time: number;
  seated: number[];
  goal: number[];
  goalSince: number | null;
  moves: { ring: number; from: number; to: number; time: number }[];
}

/** Whether the goal held, released and at rest, for the dwell window by the end. */
export function hanoiVerdict(evidence: Json): Verdict {
  const e = evidence as unknown as HanoiEvidence;
  const arranged = e.seated.every((p, i) => p === e.goal[i]);
  if (e.goalSince !== null && e.time - e.goalSince >= HANOI_DWELL - 1e-9) {
    return {
      goal: true,
      successTime: e.goalSince + HANOI_DWELL,
      detail: `goal held from ${e.goalSince.toFixed(2)} s`,
    };
  }
  if (e.goalSince !== null)
    return {
      goal: false,
      detail: `goal held ${(e.time - e.goalSince).toFixed(2)} s of ${HANOI_DWELL} s`,
    };
  return {
    goal: false,
    detail: arranged ? "arranged but not released and at rest" : "goal arrangement not reached",
  };
}
