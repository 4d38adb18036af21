/**
 * The `reference` agent: the families' reference controllers (the solvability proof), acting
 * through the same protocol as any agent, with L3 observations and L1 planning tools.
 */
import type { Action, Agent, AgentSession, Observation, TaskSpec } from "../../core/index.ts";
import { launchReference } from "./launch/reference.ts";
import type { LaunchScene } from "./launch/tasks.ts";
import type { PlaygroundPayload } from "./payload.ts";
import type { TowerScene } from "./tower/board.ts";
import { towerReference } from "./tower/reference.ts";

export function referenceAgent(): Agent {
  return {
    id: "reference",
    privileged: true,
    start(_card, context): AgentSession {
      const spec = context.privileged?.spec as TaskSpec<PlaygroundPayload> | undefined;
      if (!spec) throw new Error("the reference agent needs the compiled spec (privileged access)");
      const p = spec.payload;
      if (p.level !== "L3")
        throw new Error(`the reference controllers act at L3; this spec is ${p.level}`);
      const script: Generator<Action, void, Observation> =
        p.family === "launcher"
          ? launchReference(p.scene as unknown as LaunchScene)
          : towerReference(p.scene as unknown as TowerScene);
      let started = false;
      return {
        async act(observation) {
          const next = started ? script.next(observation) : script.next();
          started = true;
          return { action: next.done ? { kind: "finish" } : next.value };
        },
      };
    },
  };
}
