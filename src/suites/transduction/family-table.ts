/**
 * Table transformation over CSV (appendix A). Three sub-variants share the family's four
 * difficulty levels; each level sets both the permutation extent and the vocabulary size:
 * - `permute-int`: column permutation over homogeneous four-digit integers;
 * - `permute-hex`: the same over variable-length (4-12 digit) UUID fragments;
 * - `kv`: key-value resolution, cells `A3+N7` become `brave lantern` from a vocabulary.
 * Permutation extent: 2 / 4 / 6 / 8 of the 8 data columns leave their place. Vocabulary:
 * 4 / 8 / 16 / 32 adjective keys and as many noun keys. The row order is the format's (the
 * shuffled format supplies the row permutation: rows come shuffled, output is by id).
 * The variant of a document is `(sample - 1 + format index) mod 3`, so every
 * (difficulty, horizon) cell holds five documents of each variant.
 */
import type { Rng } from "../../core/index.ts";
import type { Family, FamilyDocument } from "./family.ts";
import { type DocumentParams, FORMATS } from "./params.ts";
import { ADJECTIVES, NOUNS } from "./vocabulary.ts";

/** The table family's sub-variants. */
export const TABLE_VARIANTS = ["permute-int", "permute-hex", "kv"] as const;
/** A table sub-variant. */
export type TableVariant = (typeof TABLE_VARIANTS)[number];

const PERMUTE_COLUMNS = ["qty", "price", "stock", "code", "zone", "batch", "level", "score"];
const KV_COLUMNS = ["owner", "item", "place", "prize", "guard", "token"];

/** The sub-variant of a table document (see the module comment). */
export function tableVariant(params: Pick<DocumentParams, "sample" | "format">): TableVariant {
  const formatIndex = FORMATS.indexOf(params.format);
  return TABLE_VARIANTS[(params.sample - 1 + formatIndex) % TABLE_VARIANTS.length]!;
}

/** A permutation of 0..n-1 in which exactly `moved` positions change (a derangement of them). */
function partialDerangement(rng: Rng, n: number, moved: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  const chosen = rng.sample(order, moved).sort((a, b) => a - b);
  // Rotating the chosen positions by a random non-zero offset displaces every one of them.
  const offset = rng.range(1, moved - 1);
  chosen.forEach((position, k) => {
    order[position] = chosen[(k + offset) % moved]!;
  });
  return order;
}

function permuteDocument(rng: Rng, params: DocumentParams, hex: boolean): FamilyDocument {
  const moved = 2 * params.difficulty;
  const order = partialDerangement(rng, PERMUTE_COLUMNS.length, moved);
  const outputHeader = order.map((i) => PERMUTE_COLUMNS[i]!);
  const cell = hex ? () => rng.hex(rng.range(4, 12)) : () => String(rng.range(1000, 9999));
  return {
    operation: `Reorder the columns to: ${outputHeader.join(", ")}`,
    context: "",
    layout: { kind: "table", inputHeader: PERMUTE_COLUMNS, outputHeader },
    variant: hex ? "permute-hex" : "permute-int",
    next() {
      const cells = PERMUTE_COLUMNS.map(cell);
      return { input: cells.join(","), cells: order.map((i) => cells[i]!) };
    },
  };
}

function kvDocument(rng: Rng, params: DocumentParams): FamilyDocument {
  const size = 2 ** (params.difficulty + 1);
  const adjectives = rng.sample(ADJECTIVES, size);
  const nouns = rng.sample(NOUNS, size);
  const context = [
    "Vocabulary:",
    ...adjectives.map((w, i) => `A${i + 1} = ${w}`),
    ...nouns.map((w, i) => `N${i + 1} = ${w}`),
  ].join("\n");
  return {
    operation:
      "Replace every cell A<i>+N<j> by the adjective A<i> and the noun N<j> from the vocabulary, separated by one space; keep the header and the table structure",
    context,
    layout: { kind: "table", inputHeader: KV_COLUMNS, outputHeader: KV_COLUMNS },
    variant: "kv",
    next() {
      const input: string[] = [];
      const cells: string[] = [];
      for (let c = 0; c < KV_COLUMNS.length; c++) {
        const a = rng.int(size);
        const n = rng.int(size);
        input.push(`A${a + 1}+N${n + 1}`);
        cells.push(`${adjectives[a]} ${nouns[n]}`);
      }
      return { input: input.join(","), cells };
    },
  };
}

/** CSV table transformations; the sub-variant follows from the sample and format. */
export const tableFamily: Family = {
  create(rng, params) {
    const variant = tableVariant(params);
    if (variant === "kv") return kvDocument(rng, params);
    return permuteDocument(rng, params, variant === "permute-hex");
  },
};
