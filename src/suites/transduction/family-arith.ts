/** Line-by-line arithmetic: each record is a sum of 2/4/8/16 signed terms (appendix A). */
import { type Family, itemsPerRecord } from "./family.ts";

/** Terms are 1..999, joined by + or -; the answer is the exact integer value. */
export const arithFamily: Family = {
  create(rng, params) {
    const terms = itemsPerRecord(params.difficulty);
    return {
      operation: "Evaluate the expression (integers with + and -, left to right)",
      context: "",
      layout: { kind: "lines", recordNoun: "an arithmetic expression", example: "-52" },
      next() {
        let value = rng.range(1, 999);
        let text = String(value);
        for (let i = 1; i < terms; i++) {
          const term = rng.range(1, 999);
          if (rng.chance(0.5)) {
            value += term;
            text += ` + ${term}`;
          } else {
            value -= term;
            text += ` - ${term}`;
          }
        }
        return { input: text, cells: [String(value)] };
      },
    };
  },
};
