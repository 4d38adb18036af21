/**
 * UUID sorting (appendix A): each record is a comma-separated list of 2/4/8/16 hexadecimal
 * identifiers to emit in ascending order. Identifiers are 8 lowercase hex digits, a UUID's
 * first group, as in the reference implementation: a full 36-character UUID would cost
 * about 25 tokens and leave a 4K document with a handful of 16-item records.
 */
import {
  CLOSING_RULES,
  distinctStrings,
  type Family,
  formatSentence,
  itemsPerRecord,
} from "./family.ts";

/** Lowercase, fixed-length hex, so string order is numeric order. */
export const uuidFamily: Family = {
  create({ rng, params }) {
    const items = itemsPerRecord(params.difficulty);
    return {
      instructions: [
        "Each record is a list of 8-character lowercase hexadecimal identifiers separated by commas.",
        "For every record, write the same identifiers sorted in ascending order (compared as plain strings), separated by commas.",
        formatSentence(params.format, {
          input: "c0a8e1d2,a1b2c3d4,b1c2d3e4",
          output: "a1b2c3d4,b1c2d3e4,c0a8e1d2",
        }),
        CLOSING_RULES,
      ].join("\n"),
      context: "",
      next() {
        const ids = distinctStrings(items, () => rng.hex(8));
        return { input: ids.join(","), cells: ids.slice().sort() };
      },
    };
  },
};
