import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Rng } from "../../core/index.ts";
import { type JsonSchema, sampleJson } from "./sample-json.ts";

/** Random JSON Schemas of the kinds tool parameters use, always satisfiable. */
const schemaArb: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{
  schema: Record<string, unknown>;
}>((tie) => ({
  schema: fc.oneof(
    { maxDepth: 3, depthIdentifier: "schema" },
    fc.constant({ type: "boolean" }),
    fc.constant({ type: "null" }),
    fc
      .tuple(fc.integer({ min: -50, max: 50 }), fc.nat(30), fc.boolean(), fc.boolean())
      .map(([lo, span, exclusive, open]) =>
        exclusive
          ? { type: "integer", exclusiveMinimum: lo, exclusiveMaximum: lo + span + 2 }
          : open
            ? { type: "integer", minimum: lo }
            : { type: "integer", minimum: lo, maximum: lo + span },
      ),
    fc
      .tuple(
        fc.double({ min: -100, max: 100, noNaN: true }),
        fc.double({ min: 0.5, max: 50, noNaN: true }),
        fc.boolean(),
      )
      .map(([lo, span, exclusive]) =>
        exclusive
          ? { type: "number", exclusiveMinimum: lo, exclusiveMaximum: lo + span }
          : { type: "number", minimum: lo, maximum: lo + span },
      ),
    fc.tuple(fc.nat(5), fc.nat(5)).map(([min, extra]) => ({
      type: "string",
      minLength: min,
      maxLength: min + extra,
    })),
    fc
      .uniqueArray(fc.oneof(fc.string(), fc.integer()), { minLength: 1, maxLength: 5 })
      .map((values) => ({
        enum: values,
      })),
    // zod's reader compares const by identity, so only primitives are checkable.
    fc
      .oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null))
      .map((value) => ({ const: value })),
    fc.tuple(tie("schema"), fc.nat(3), fc.nat(3)).map(([items, min, extra]) => ({
      type: "array",
      items,
      minItems: min,
      maxItems: min + extra,
    })),
    fc.nat(4).map((min) => ({
      type: "array",
      items: { type: "integer", minimum: 0, maximum: 1000 },
      uniqueItems: true,
      minItems: min,
    })),
    fc
      .dictionary(fc.stringMatching(/^[a-z]{1,6}$/), tie("schema"), { maxKeys: 4 })
      .chain((properties) =>
        fc.subarray(Object.keys(properties)).map((required) => ({
          type: "object",
          properties,
          required,
          additionalProperties: false,
        })),
      ),
    fc.array(tie("schema"), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
    fc.constant({ type: ["string", "integer"], minimum: 3, maximum: 4, maxLength: 2 }),
  ),
})).schema;

describe("sampleJson", () => {
  it("draws values that validate against the schema (checked by zod's JSON Schema reader)", () => {
    fc.assert(
      fc.property(schemaArb, fc.string(), (schema, seed) => {
        const validator = z.fromJSONSchema(schema as never);
        const rng = new Rng(seed, "sample");
        for (let i = 0; i < 5; i++) {
          const value = sampleJson(schema, rng);
          const result = validator.safeParse(value);
          if (!result.success) {
            throw new Error(
              `${JSON.stringify(value)} fails ${JSON.stringify(schema)}: ${result.error.message}`,
            );
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("is deterministic for a seed and covers an enum's values", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: { d: { enum: ["north", "south", "east", "west"] }, n: { type: "integer" } },
      required: ["d"],
    };
    const draw = (seed: string) => {
      const rng = new Rng(seed, "x");
      return Array.from({ length: 40 }, () => sampleJson(schema, rng));
    };
    expect(draw("a")).toEqual(draw("a"));
    expect(new Set(draw("a").map((v) => (v as { d: string }).d)).size).toBe(4);
    expect(() => sampleJson(false, new Rng("a"))).toThrow(/admits no value/);
    expect(() => sampleJson({ type: "integer", minimum: 3, maximum: 2 }, new Rng("a"))).toThrow(
      /no integer/,
    );
  });
});
