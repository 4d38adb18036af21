/**
 * Playground's rule for `longhaul check` (Suite.hidden): what an agent must not read at its
 * access level (§5.1).
 * - Below L3 (no `simulator` grant): the values of the L3 simulator readout (object poses,
 *   speeds, plate angles) that neither the public readout of the same instant nor the task card
 *   also shows. Only values with three or more significant digits count: a short number such as
 *   0.03 occurs everywhere by chance and would prove nothing.
 * - At every level: the realized perturbations of a Tower reset seed (ring masses and
 *   frictions), which the paper's conditions draw and never disclose (§5.2); the card gives the
 *   nominal values. Launch's condition parameters (spring stiffness, launcher and tray offsets)
 *   are prescribed and public.
 * Every evaluator threshold is on the card (docs/playground.md), so none is hidden.
 */
import type { Json, TaskSpec } from "../../core/index.ts";
import type { PlaygroundPayload } from "./payload.ts";
import type { TowerScene } from "./tower/board.ts";

/** What PlaygroundEnvironment.latent() returns. */
export interface PlaygroundLatent {
  state: Json;
  evidence: Json;
  /** The full readout at this instant: the public view and, under `simulator`, the L3 fields. */
  view: { simulator: Json; [key: string]: Json };
}

/** The strings `hidden()` returns for the latent snapshot of `spec`. */
export function hiddenValues(latent: Json, spec: TaskSpec<PlaygroundPayload>): string[] {
  if (latent === null) return [];
  const p = spec.payload;
  const perturbed =
    p.family === "hanoi"
      ? (p.scene as unknown as TowerScene).rings.flatMap((r) => [
          String(r.mass),
          String(r.friction),
        ])
      : [];
  if (p.level === "L3") return perturbed;
  const { simulator, ...shown } = (latent as unknown as PlaygroundLatent).view;
  const card = new Set(numbersIn(`${p.instructions}\n${p.rules.join("\n")}`));
  const publicValues = new Set(numbersIn(JSON.stringify(shown)));
  const l3Only = numbersIn(JSON.stringify(simulator)).filter(
    (n) => significantDigits(n) >= 3 && !publicValues.has(n) && !card.has(n),
  );
  return [...new Set([...l3Only, ...perturbed])];
}

/** Every number written in `text`, unsigned, as written. */
function numbersIn(text: string): string[] {
  return text.match(/\d+(?:\.\d+)?(?:e[-+]?\d+)?/g) ?? [];
}

function significantDigits(n: string): number {
  return n.replace(/e.*$/, "").replace(".", "").replace(/^0+/, "").length;
}
