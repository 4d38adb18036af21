/**
 * Variable lookup: each record is an expression over two variables, resolved against a
 * definition pool of 8/32/128/256 definitions; the pool size does not depend on the number
 * of records (appendix A). Resolving means substituting each variable's value, so the work
 * is the lookup alone (no arithmetic) and the output is about as long as the input.
 */
import { CLOSING_RULES, type Family, formatSentence } from "./family.ts";
import { VARIABLE_NAME_COUNT, variableName } from "./vocabulary.ts";

/** Definition pool size of difficulty 1..4. */
export const POOL_SIZES = [8, 32, 128, 256] as const;

/** Records `a + b` over the pool; the answer is `value(a) + value(b)`, e.g. `47 + 84`. */
export const lookupFamily: Family = {
  create({ rng, params }) {
    const size = POOL_SIZES[params.difficulty - 1] ?? POOL_SIZES[0];
    const names = rng
      .sample(
        Array.from({ length: VARIABLE_NAME_COUNT }, (_, i) => i),
        size,
      )
      .map(variableName);
    const values = names.map(() => rng.range(10, 99));
    const context = `Definitions:\n${names.map((n, i) => `${n} = ${values[i]}`).join("\n")}`;
    return {
      instructions: [
        "Each record is an expression over two variables defined in the definitions above the input.",
        "For every record, rewrite the expression with each variable replaced by its value.",
        formatSentence(params.format, { input: "kavo + mire", output: "47 + 84" }),
        CLOSING_RULES,
      ].join("\n"),
      context,
      next() {
        // Two distinct definitions, drawn without shuffling the pool each time.
        const i = rng.int(size);
        let j = rng.int(size - 1);
        if (j >= i) j++;
        return { input: `${names[i]} + ${names[j]}`, cells: [`${values[i]} + ${values[j]}`] };
      },
    };
  },
};
