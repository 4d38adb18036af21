/**
 * The independent launcher verdict (§5.4): every required target cleared, in the required
 * order, no protected target touched (the world records those as RULE violations), and for
 * protected-target scenes a 3 s observation window after the last required hit.
 */
import type { Json } from "../../../core/index.ts";
import type { Verdict } from "../world.ts";
import { PROTECTED_WINDOW } from "./world.ts";

/** The evidence the launcher world records. */
export interface LaunchEvidence {
  time: number;
  required: string[];
  order: string[];
  protected: string[];
  cleared: { id: string; time: number }[];
  shots: number;
  ammo: number;
}

/** Whether a target of `order` was cleared before the one ahead of it (`when`: clearing times). */
export function clearedOutOfOrder(order: readonly string[], when: Map<string, number>): boolean {
  const times = order.map((id) => when.get(id)!);
  return times.some((t, i) => i > 0 && t < times[i - 1]!);
}

export function launchVerdict(evidence: Json): Verdict {
  const e = evidence as unknown as LaunchEvidence;
  const when = new Map(e.cleared.map((c) => [c.id, c.time]));
  const missing = e.required.filter((id) => !when.has(id));
  if (missing.length > 0) return { goal: false, detail: `not cleared: ${missing.join(", ")}` };
  if (clearedOutOfOrder(e.order, when)) {
    return { goal: false, detail: `cleared out of order (${e.order.join(" < ")})` };
  }
  const last = Math.max(...e.required.map((id) => when.get(id)!));
  const window = e.protected.length > 0 ? PROTECTED_WINDOW : 0;
  if (e.time < last + window - 1e-9) {
    return {
      goal: false,
      detail: `protected targets observed ${(e.time - last).toFixed(2)} s of ${window} s`,
    };
  }
  return {
    goal: true,
    successTime: last + window,
    detail: `cleared with ${e.shots} of ${e.ammo} shots`,
  };
}
