/**
 * MAGMA's rule for `longhaul check` (Suite.hidden): an observation without privileged access
 * never names an item the agent has not observed (undetected, or arrived unseen: partial
 * observation, §4.2), nor the words of a user instruction not yet released (future stages).
 * What the task card states for the whole family (its setting, rules and skill descriptions, such
 * as Clean Table's one sponge on the cleaning shelf) is known from the start.
 */
import type { Json, TaskSpec } from "../../core/index.ts";
import type { MagmaLatent } from "./environment.ts";
import type { Family } from "./family.ts";
import { Renamer } from "./realize.ts";
import type { MagmaPayload } from "./types.ts";

/** Strings hidden from the agent next to this latent snapshot. */
export function hiddenStrings(
  latent: Json,
  spec: TaskSpec<MagmaPayload>,
  family: Family,
): string[] {
  const l = latent as unknown as MagmaLatent;
  const p = spec.payload;
  const names = new Renamer(p.names);
  const known = new Set(l.known);
  // Items named by a stage already released are known; items nobody could know are hidden.
  const card = [
    family.setting,
    ...family.rules,
    ...family.skills.flatMap((k) => [
      k.description,
      ...Object.values(k.params).map((q) => q.description),
    ]),
  ].map((t) => names.text(t));
  const said = [
    ...card,
    ...p.stages.slice(0, l.stage + 1).map((s) => `${s.instruction ?? ""} ${s.answer ?? ""}`),
  ].join(" ");
  const items = p.scene.nodes
    .filter((n) => n.type === "object" && !known.has(n.id))
    .map((n) => names.name(n.id))
    .filter((name) => !new RegExp(`\\b${name}\\b`).test(said));
  const released = new Set(p.stages.slice(0, l.stage + 1).map((s) => s.instruction));
  const future = p.stages
    .slice(l.stage + 1)
    .map((s) => s.instruction)
    .filter((t): t is string => t !== undefined && !released.has(t));
  return [...items, ...future];
}
