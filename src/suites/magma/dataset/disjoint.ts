/**
 * Training and evaluation are disjoint (§4.4: "produced by separate pipelines from distinct
 * seeds and independently constructed task configurations"): a task's fingerprint is its
 * family, initial scene and the structure of its stage script (each stage's type, request
 * primitive, units with their parameters, order, precedence, constraints and interruption
 * links), without what realizations, budgets and faults change. No training task may share
 * a fingerprint with an evaluation spec; the generator checks every task and stops if one does.
 */
import { createHash } from "node:crypto";
import { LonghaulError, type TaskSpec } from "../../../core/index.ts";
import type { MagmaPayload, Stage } from "../types.ts";

/** Evaluation fingerprints -> the id of one spec with it. */
export type Fingerprints = ReadonlyMap<string, string>;

function structure(stage: Stage) {
  return [
    stage.type,
    stage.request,
    (stage.units ?? []).map((u) => [u.kind, u.args, u.atoms, u.logs, u.rule ?? null]),
    stage.minUnits ?? null,
    stage.ordered ?? null,
    stage.precedes ?? null,
    stage.forbid ?? null,
    stage.split ?? null,
    stage.interrupts ?? null,
    stage.enter ?? null,
  ];
}

/** The fingerprint of a task definition (family, scene, stage structure). */
export function taskFingerprint(payload: MagmaPayload): string {
  const text = JSON.stringify([payload.family, payload.scene, payload.stages.map(structure)]);
  return createHash("sha256").update(text).digest("hex");
}

/** The fingerprints of the evaluation specs. */
export function evaluationFingerprints(specs: readonly TaskSpec<MagmaPayload>[]): Fingerprints {
  const out = new Map<string, string>();
  for (const spec of specs) {
    const f = taskFingerprint(spec.payload);
    if (!out.has(f)) out.set(f, spec.id);
  }
  return out;
}

/** A training task's fingerprint; throws if it equals an evaluation spec's. */
export function disjointFingerprint(
  task: { id: string; payload: MagmaPayload },
  evaluation: Fingerprints,
): string {
  const fingerprint = taskFingerprint(task.payload);
  const clash = evaluation.get(fingerprint);
  if (clash)
    throw new LonghaulError(
      "CONFLICT",
      `training task ${task.id} equals evaluation spec ${clash}: training and evaluation must be disjoint (§4.4)`,
    );
  return fingerprint;
}
