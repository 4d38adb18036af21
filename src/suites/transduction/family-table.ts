/**
 * Table transformation over CSV (appendix A), in the reference implementation's layout: a
 * header `,[C0],[C1],...` and one row per line opening with its label `[R0]`, `[R1]`, ....
 * Three variants take the place of the line tasks' formats in the grid:
 * - `permute-int`: reorder rows and columns of a grid of four-digit integers (1000-9999);
 * - `permute-hex`: the same over variable-length UUID fragments (a dashed UUID cut to 1-36
 *   characters);
 * - `kv`: key-value resolution; cells `a3+v7` become `lucky badger` from lookup tables of
 *   adjectives and nouns, and the CSV structure is kept.
 * Permutation difficulty is the reference's permutation fraction 0.2 / 0.4 / 0.8 / 1.0: that
 * share of the rows, and of the columns, is shuffled among itself (at least two, never the
 * identity). Key-value difficulty is the number of adjective and of noun keys, 4 / 8 / 16 /
 * 32 (the reference takes 1/8 .. 1 of the grid side instead; see docs/transduction.md).
 * Grids are about square, as the reference's, but never planned with fewer than 20 rows: the
 * column count comes from the budget, and rows are added until the token target is met.
 */
import type { Rng } from "../../core/index.ts";
import { tableHeaderLine } from "./expected.ts";
import {
  CLOSING_RULES,
  type Family,
  type FamilyContext,
  type FamilyDocument,
  type TableFinish,
} from "./family.ts";
import { ADJECTIVES, NOUNS } from "./vocabulary.ts";

/** Share of rows and of columns shuffled, by difficulty 1..4. */
export const PERM_FRACTIONS = [0.2, 0.4, 0.8, 1] as const;

/** Adjective (and noun) keys of the key-value variant, by difficulty 1..4. */
export const KV_VOCABULARY = [4, 8, 16, 32] as const;

const rowLabel = (i: number) => `[R${i}]`;
const colLabel = (j: number) => `[C${j}]`;

/**
 * A permutation of 0..n-1 shuffling `max(2, round(n * fraction))` chosen positions among
 * themselves and never the identity (the reference's `_apply_perm_fraction`).
 */
export function partialPermutation(rng: Rng, n: number, fraction: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  if (n < 2) return order;
  const chosen = rng.sample(order, Math.min(n, Math.max(2, Math.round(n * fraction))));
  chosen.sort((a, b) => a - b);
  let values = rng.shuffle(chosen);
  // A shuffle that left every chosen position in place is rotated by one instead.
  if (values.every((v, k) => v === chosen[k])) values = [...chosen.slice(1), chosen[0]!];
  chosen.forEach((position, k) => {
    order[position] = values[k]!;
  });
  return order;
}

/** Fewest rows a grid is planned with: a row then costs at most about 5% of the target. */
const MIN_ROWS = 20;

/**
 * The column count of an about-square grid that fills the budget (rows and columns equal
 * when every cell costs `cell` tokens, input plus output, and every row or column `edge`),
 * narrowed to plan at least MIN_ROWS rows, so stopping at a whole row lands near the target.
 */
function gridColumns(budget: number, cell: number, edge: number): number {
  const side = (-edge + Math.sqrt(edge * edge + 4 * cell * budget)) / (2 * cell);
  return Math.max(2, Math.round(side >= MIN_ROWS ? side : (side * side) / MIN_ROWS));
}

/** Mean tokens of `texts` joined by commas, per text. */
function perItem(count: FamilyContext["count"], texts: string[]): number {
  return count(`${texts.join(",")},`) / texts.length;
}

const LAYOUT_RULES =
  "The input is a CSV table. Its header line is an empty cell followed by the column labels [C0], [C1], ...; every other line is a row: its label [R0], [R1], ..., then its cells.";

/** A four-digit integer cell. */
function integerCell(rng: Rng): string {
  return String(rng.range(1000, 9999));
}

/** A UUID fragment cell: a dashed UUID cut to 1-36 characters. */
function fragmentCell(rng: Rng): string {
  const h = rng.hex(32);
  const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return uuid.slice(0, rng.range(1, 36));
}

function permuteDocument(context: FamilyContext, hex: boolean): FamilyDocument {
  const { rng, params, count, target } = context;
  const fraction = PERM_FRACTIONS[params.difficulty - 1] ?? PERM_FRACTIONS[0];
  const cellOf = hex ? fragmentCell : integerCell;
  const instructions = [
    LAYOUT_RULES,
    "Reorder the table as the reordering instructions after it say: the new row order lists the row labels in the order the rows must appear, and the new column order lists the column labels in the order the columns must appear.",
    "Write the reordered table as CSV: the header line first (an empty cell, then the column labels in their new order), then every row in its new place, starting with its label and holding its cells in the new column order.",
    "Example: the table `,[C0],[C1]` / `[R0],a,b` / `[R1],c,d` with new row order [R1],[R0] and new column order [C1],[C0] becomes `,[C1],[C0]` / `[R1],d,c` / `[R0],b,a`.",
    CLOSING_RULES,
  ].join("\n");
  // Size the grid on a probe drawn from a stream of its own, so the cells stay untouched.
  const probe = rng.derive("probe");
  const cellCost =
    2 *
    perItem(
      count,
      Array.from({ length: 32 }, () => cellOf(probe)),
    );
  const edgeCost = 3 * count("[R100],") + count("[C100],");
  const columns = gridColumns(target - count(instructions), cellCost, edgeCost);
  const columnOrder = partialPermutation(rng.derive("columns"), columns, fraction);
  const rowRng = rng.derive("rows");
  const trailer = (rowOrder: number[]) =>
    [
      "Reordering instructions:",
      `New row order: ${rowOrder.map(rowLabel).join(",")}`,
      `New column order: ${columnOrder.map(colLabel).join(",")}`,
    ].join("\n");
  let index = 0;
  return {
    instructions,
    context: "",
    table: {
      inputHeader: tableHeaderLine(Array.from({ length: columns }, (_, j) => colLabel(j))),
      outputHeader: columnOrder.map(colLabel),
    },
    next() {
      const cells = Array.from({ length: columns }, () => cellOf(rng));
      const label = rowLabel(index++);
      return {
        input: `${label},${cells.join(",")}`,
        cells: columnOrder.map((j) => cells[j]!),
        label,
      };
    },
    extra: (i) => `${rowLabel(i)},`,
    trailerBase: trailer([]),
    finish(rows): TableFinish {
      const order = partialPermutation(rowRng, rows, fraction);
      return { order, trailer: trailer(order) };
    },
  };
}

function kvDocument(context: FamilyContext): FamilyDocument {
  const { rng, params, count, target } = context;
  const size = KV_VOCABULARY[params.difficulty - 1] ?? KV_VOCABULARY[0];
  const adjectives = rng.sample(ADJECTIVES, size);
  const nouns = rng.sample(NOUNS, size);
  const tables = [
    "Adjectives:",
    ...adjectives.map((w, i) => `a${i}=${w}`),
    "",
    "Nouns:",
    ...nouns.map((w, i) => `v${i}=${w}`),
  ].join("\n");
  const instructions = [
    "You are given lookup tables of adjectives (keys a0, a1, ...) and nouns (keys v0, v1, ...), then a CSV table.",
    LAYOUT_RULES,
    "Every cell holds an expression aI+vJ: an adjective key and a noun key. Write the same table as CSV with every cell replaced by its adjective and its noun separated by one space; keep the header line, the row labels and the order of rows and columns.",
    "Example: with a0=quick, a1=lazy, v0=fox, v1=dog, the row `[R0],a1+v0,a0+v1` becomes `[R0],lazy fox,quick dog`.",
    CLOSING_RULES,
  ].join("\n");
  const key = () => [rng.int(size), rng.int(size)] as const;
  const probe = rng.derive("probe");
  const probeKeys = Array.from({ length: 32 }, () => [probe.int(size), probe.int(size)]);
  const cellCost =
    perItem(
      count,
      probeKeys.map(([a, n]) => `a${a}+v${n}`),
    ) +
    perItem(
      count,
      probeKeys.map(([a, n]) => `${adjectives[a!]} ${nouns[n!]}`),
    );
  const edgeCost = 2 * count("[R100],") + 2 * count("[C100],");
  const columns = gridColumns(target - count(instructions) - count(tables), cellCost, edgeCost);
  const header = tableHeaderLine(Array.from({ length: columns }, (_, j) => colLabel(j)));
  let index = 0;
  return {
    instructions,
    context: tables,
    table: {
      inputHeader: header,
      outputHeader: Array.from({ length: columns }, (_, j) => colLabel(j)),
    },
    next() {
      const input: string[] = [];
      const cells: string[] = [];
      for (let c = 0; c < columns; c++) {
        const [a, n] = key();
        input.push(`a${a}+v${n}`);
        cells.push(`${adjectives[a]} ${nouns[n]}`);
      }
      const label = rowLabel(index++);
      return { input: `${label},${input.join(",")}`, cells, label };
    },
  };
}

/** CSV table transformations; the variant is the document's format. */
export const tableFamily: Family = {
  create(context) {
    const variant = context.params.format;
    if (variant === "kv") return kvDocument(context);
    return permuteDocument(context, variant === "permute-hex");
  },
};
