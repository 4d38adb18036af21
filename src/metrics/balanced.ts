/** Group-balanced means: every group weighs the same, however many items it holds. */
import { groupBy } from "./group.ts";
import { mean } from "./rates.ts";

/**
 * Mean of group means over nested groupings: `levels[0]` splits the items into top-level
 * groups that weigh equally, `levels[1]` splits each of those, and so on; items in the
 * innermost group are averaged plainly. With levels [suite, task] this is EP's suite-balanced
 * score (§5.5: conditions averaged within tasks, tasks within suites, suites equally); with
 * one level of task-difficulty cells it is Long-Transduction's cell-balanced accuracy.
 * NaN for no items.
 */
export function nestedBalancedMean<T>(
  items: readonly T[],
  levels: readonly ((item: T) => string)[],
  valueFor: (item: T) => number,
): number {
  const [groupOf, ...inner] = levels;
  if (!groupOf) return mean(items.map(valueFor));
  return mean(
    [...groupBy(items, groupOf).values()].map((group) =>
      nestedBalancedMean(group, inner, valueFor),
    ),
  );
}

/** Mean of group means: each group weighs the same (one-level nestedBalancedMean). */
export function groupBalancedMean<T>(
  items: readonly T[],
  groupOf: (item: T) => string,
  valueFor: (item: T) => number,
): number {
  return nestedBalancedMean(items, [groupOf], valueFor);
}
