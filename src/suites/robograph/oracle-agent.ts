/** The privileged oracle agent: plans optimally on the latent world, replans after surprises. */
import type { Action, Agent, AgentSession, Decision, Observation } from "../../core/index.ts";
import { LonghaulError } from "../../core/index.ts";
import { World, type WorldAction } from "../../world/index.ts";
import { oraclePlan } from "./oracle.ts";

function toAction(a: WorldAction): Action {
  return a.name === "stop"
    ? { kind: "finish" }
    : { kind: "tool", calls: [{ tool: a.name, args: { node_ids: a.args } }] };
}

/** Replans whenever the last action failed or an event fired since the plan was made. */
class OracleSession implements AgentSession {
  private plan: WorldAction[] | null = null;
  private firedSeen = 0;

  constructor(private readonly latent: () => unknown) {}

  async act(observation: Observation): Promise<Decision> {
    const world = this.latent();
    if (!(world instanceof World))
      throw new LonghaulError("RUNTIME", "the oracle needs a RoboGraph latent world");
    const failed = observation.events.some((e) => e.type === "action_failed");
    const fired = world.fired().length;
    if (this.plan === null || failed || fired !== this.firedSeen) {
      this.plan = oraclePlan(world) ?? [];
      this.firedSeen = fired;
    }
    const next = this.plan.shift();
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
