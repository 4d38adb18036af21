/**
 * UUID sorting: each record is a list of 2/4/8/16 hexadecimal identifiers to emit in
 * ascending order (appendix A). Identifiers are 8 hex digits (a UUID's first group): a full
 * 36-character UUID costs 36 o200k tokens, which would leave a 4K document with four records.
 */
import { distinctStrings, type Family, itemsPerRecord } from "./family.ts";

/** Lowercase, fixed-length hex, so string order is numeric order. */
export const uuidFamily: Family = {
  create(rng, params) {
    const items = itemsPerRecord(params.difficulty);
    return {
      operation: "Sort the hexadecimal identifiers in ascending order, separated by single spaces",
      context: "",
      layout: {
        kind: "lines",
        recordNoun: "a list of hexadecimal identifiers",
        example: "0a1b2c3d 5e6f7a8b 9c0d1e2f",
      },
      next() {
        const ids = distinctStrings(items, () => rng.hex(8));
        return { input: ids.join(" "), cells: [ids.slice().sort().join(" ")] };
      },
    };
  },
};
