/** Grouped train/validation splits: a group's rows all land in one partition. */
import { createHash } from "node:crypto";

/** A split name. */
export type Split = "train" | "validation";

/**
 * The split of `group`: validation for about `fraction` of the groups, chosen by a hash of the
 * seed and the group (deterministic, independent of order and of the other groups).
 */
export function splitOf(group: string, fraction: number, seed: string): Split {
  if (fraction <= 0) return "train";
  const digest = createHash("sha256").update(`${seed}\u0000${group}`).digest();
  return digest.readUInt32BE(0) / 2 ** 32 < fraction ? "validation" : "train";
}
