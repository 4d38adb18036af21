/** Helpers for the playground tests: an environment for one task condition, driven directly. */
import {
  type AccessProfile,
  type Action,
  type Observation,
  PRIVILEGED_ACCESS,
  type TaskSpec,
} from "../../core/index.ts";
import { catalogEntry } from "./catalog.ts";
import { type FamilyDef, PlaygroundEnvironment } from "./environment.ts";
import { LAUNCH_FAMILY, launchPayload } from "./launch/family.ts";
import { type PlaygroundPayload, withRejectionRule } from "./payload.ts";
import type { Level, RejectionRule } from "./protocol.ts";
import { HANOI_FAMILY, towerPayload } from "./tower/family.ts";

export function specFor(
  index: string,
  condition = 0,
  level: Level = "L3",
  rejected: RejectionRule = "invalid",
): TaskSpec<PlaygroundPayload> {
  const entry = catalogEntry(index);
  const payload = withRejectionRule(
    entry.suite === "Launch"
      ? launchPayload(entry, condition, level)
      : towerPayload(entry, condition, level),
    rejected,
  );
  return {
    suite: "playground",
    id: `${index}/c${condition + 1}`,
    family: entry.suite,
    tags: {},
    seed: "t",
    payload,
  };
}

export function envFor(
  index: string,
  condition = 0,
  level: Level = "L3",
  access: AccessProfile = PRIVILEGED_ACCESS,
  rejected: RejectionRule = "invalid",
): PlaygroundEnvironment {
  const spec = specFor(index, condition, level, rejected);
  const def: FamilyDef = spec.payload.family === "launcher" ? LAUNCH_FAMILY : HANOI_FAMILY;
  return new PlaygroundEnvironment(spec, access, def);
}

export const tool = (name: string, args: Record<string, unknown> = {}): Action => ({
  kind: "tool",
  calls: [{ tool: name, args }],
});

/** Plays a scripted controller (a reference generator) against `env` until it ends or finishes. */
export function drive(env: PlaygroundEnvironment, script: Generator<Action, void, Observation>) {
  let next = script.next();
  while (!next.done) {
    const r = env.step(next.value);
    if (r.terminated || next.value.kind === "finish") return r;
    next = script.next(r.observation);
  }
  return undefined;
}
