/**
 * The privileged oracle agent: plans optimally on the latent world, replans after surprises.
 * It reads the environment's latent snapshot (scene, goal, fired events) and rebuilds a World
 * from it only when it has to plan.
 */
import type {
  Action,
  Agent,
  AgentSession,
  Decision,
  EnvEvent,
  Observation,
} from "../../core/index.ts";
import { type Json, LonghaulError } from "../../core/index.ts";
import { World, type WorldAction } from "../../world/index.ts";
import type { RoboGraphLatent } from "./environment.ts";
import { oraclePlan, oracleReplan } from "./oracle.ts";

function toAction(a: WorldAction): Action {
  return a.name === "stop"
    ? { kind: "finish" }
    : { kind: "tool", calls: [{ tool: a.name, args: { node_ids: a.args } }] };
}

/** Did the environment report an injected execution failure (I1). */
function injected(event: EnvEvent): boolean {
  const data = event.data;
  return (
    typeof data === "object" &&
    data !== null &&
    (data as Record<string, unknown>).failure_type === "injected_failure"
  );
}

/**
 * Retries an injected failure (G is unchanged, so the plan stays optimal), replans after any
 * other failure, and after a fired event keeps the rest of the plan only if it provably stays
 * optimal.
 */
class OracleSession implements AgentSession {
  private plan: WorldAction[] | null = null;
  private last: WorldAction | null = null;
  private firedSeen = 0;

  constructor(private readonly latent: () => Json | undefined) {}

  async act(observation: Observation): Promise<Decision> {
    const snapshot = this.latent() as unknown as RoboGraphLatent | undefined;
    if (!snapshot?.scene || !snapshot.goal || !Array.isArray(snapshot.fired))
      throw new LonghaulError("RUNTIME", "the oracle needs a RoboGraph latent snapshot");
    const world = () => new World(snapshot.scene, snapshot.goal);
    const failure = observation.events.find((e) => e.type === "action_failed");
    const fired = snapshot.fired.length;
    if (this.plan === null) this.plan = oraclePlan(world()) ?? [];
    else if (failure && injected(failure) && this.last) this.plan.unshift(this.last);
    else if (failure) this.plan = oraclePlan(world()) ?? [];
    else if (fired !== this.firedSeen) this.plan = oracleReplan(world(), this.plan) ?? [];
    this.firedSeen = fired;
    const next = this.plan.shift();
    this.last = next ?? null;
    return {
      action: toAction(next ?? { name: "stop", args: [] }),
      note: next ? "oracle plan" : "goal holds",
    };
  }
}

/** The `oracle` agent (privileged: the runner grants latent access and logs it). */
export function oracleAgent(): Agent {
  return {
    id: "oracle",
    privileged: true,
    start(_card, context) {
      const privileged = context.privileged;
      if (!privileged)
        throw new LonghaulError("RUNTIME", "the oracle agent needs privileged access");
      return new OracleSession(privileged.latent);
    },
  };
}
