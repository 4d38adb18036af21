/** Grouping records by a key, in a stable, human order (numbers numerically, then text). */
import type { EpisodeRecord } from "../core/index.ts";
import { groupBy as groupMap } from "../metrics/index.ts";

/** A group key as it appears in a report: a tag value, a family, or "(none)". */
export type GroupKey = string | number;

/** Label for records that lack the grouping tag. */
export const NO_VALUE = "(none)";

/** Items grouped by key; numeric keys first in numeric order, then strings in code-point order. */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => GroupKey): [GroupKey, T[]][] {
  return [...groupMap(items, keyOf).entries()].sort(([a], [b]) => compareKeys(a, b));
}

function compareKeys(a: GroupKey, b: GroupKey): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return naturalCompare(a, b);
}

/** Text order with digit runs compared as numbers: "4k" < "16k", "pos2" < "pos10". */
export function naturalCompare(a: string, b: string): number {
  const pa = a.match(CHUNKS) ?? [];
  const pb = b.match(CHUNKS) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i] as string;
    const y = pb[i] as string;
    if (x === y) continue;
    const numeric = DIGITS.test(x) && DIGITS.test(y);
    if (numeric && Number(x) !== Number(y)) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

const CHUNKS = /\d+|\D+/g;
const DIGITS = /^\d/;

/** The value of tag `name` on a record, or NO_VALUE. */
export function tagOf(record: EpisodeRecord, name: string): GroupKey {
  return record.tags[name] ?? NO_VALUE;
}

/** The key pairing one task's epoch across runs of the same suite. */
export function pairKey(record: EpisodeRecord): string {
  return `${record.suite}\u0000${record.taskId}\u0000${record.epoch}`;
}
