/**
 * Line-by-line arithmetic (appendix A): each record is a chain of single-digit operands
 * (0-9) joined by + and -, with 2 to 2/4/8/16 operands by difficulty (the reference's
 * `randint(2, max_operands)`). The output copies the expression and appends `=value`, and
 * both the copy and the value are scored, as in the paper's accuracy.
 */
import { CLOSING_RULES, type Family, formatSentence, itemsPerRecord } from "./family.ts";

/** The arithmetic family. */
export const arithFamily: Family = {
  create({ rng, params }) {
    const maxOperands = itemsPerRecord(params.difficulty);
    return {
      instructions: [
        "You are a calculator. Each record is an arithmetic expression of single-digit integers joined by + and -, evaluated left to right.",
        "For every record, copy the expression exactly, then write = and its value.",
        formatSentence(params.format, { input: "4+8-3+2", output: "4+8-3+2=11" }),
        CLOSING_RULES,
      ].join("\n"),
      context: "",
      next() {
        const operands = rng.range(2, maxOperands);
        let value = rng.range(0, 9);
        let text = String(value);
        for (let i = 1; i < operands; i++) {
          const term = rng.range(0, 9);
          const plus = rng.chance(0.5);
          value += plus ? term : -term;
          text += `${plus ? "+" : "-"}${term}`;
        }
        return { input: text, cells: [text, String(value)] };
      },
    };
  },
};
