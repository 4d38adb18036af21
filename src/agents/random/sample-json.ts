/**
 * Random values that satisfy a JSON Schema, drawn from a seeded stream. Covers what tool
 * parameter schemas use: const, enum, anyOf/oneOf (one branch), type (or a list of types),
 * number/integer bounds (inclusive and exclusive), string lengths, arrays (items, lengths,
 * uniqueItems) and objects (properties; required ones always, optional ones by a coin flip).
 * Not covered: pattern, format, allOf, $ref, multipleOf, dependent keywords.
 */
import { canonicalJson, LonghaulError, type Rng } from "../../core/index.ts";

/** A JSON Schema as tool specs carry it. */
export type JsonSchema = boolean | Record<string, unknown>;

const LETTERS = "abcdefghijklmnopqrstuvwxyz";
/** Spread of unbounded numbers and extra lengths: small values keep arguments readable. */
const SPAN = 20;
const EXTRA_LENGTH = 6;
const EXTRA_ITEMS = 3;
/** Attempts at a fresh item before a uniqueItems array settles for fewer items. */
const UNIQUE_ATTEMPTS = 20;

const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);

/** A random value valid against `schema`. */
export function sampleJson(schema: JsonSchema, rng: Rng): unknown {
  if (schema === true) return sampleString({}, rng);
  if (schema === false) throw new LonghaulError("INVALID_INPUT", "schema `false` admits no value");
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return rng.pick(schema.enum);
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) return sampleJson(rng.pick(branches), rng);
  switch (typeOf(schema, rng)) {
    case "null":
      return null;
    case "boolean":
      return rng.chance(0.5);
    case "integer":
      return sampleInteger(schema, rng);
    case "number":
      return sampleNumber(schema, rng);
    case "array":
      return sampleArray(schema, rng);
    case "object":
      return sampleObject(schema, rng);
    default:
      return sampleString(schema, rng);
  }
}

/** The schema's type, one picked at random when it lists several; inferred when absent. */
function typeOf(schema: Record<string, unknown>, rng: Rng): string {
  const { type } = schema;
  if (typeof type === "string") return type;
  if (Array.isArray(type) && type.length > 0) return String(rng.pick(type));
  if ("properties" in schema || "required" in schema) return "object";
  if ("items" in schema) return "array";
  if ("minimum" in schema || "maximum" in schema) return "number";
  return "string";
}

/** Inclusive integer bounds from minimum/maximum and their exclusive forms. */
function integerBounds(schema: Record<string, unknown>): [number, number] {
  const exMin = num(schema.exclusiveMinimum);
  const exMax = num(schema.exclusiveMaximum);
  let lo = Math.max(
    Math.ceil(num(schema.minimum) ?? Number.NEGATIVE_INFINITY),
    exMin === undefined ? Number.NEGATIVE_INFINITY : Math.floor(exMin) + 1,
  );
  let hi = Math.min(
    Math.floor(num(schema.maximum) ?? Number.POSITIVE_INFINITY),
    exMax === undefined ? Number.POSITIVE_INFINITY : Math.ceil(exMax) - 1,
  );
  if (!Number.isFinite(lo) && !Number.isFinite(hi)) [lo, hi] = [0, SPAN];
  else if (!Number.isFinite(lo)) lo = hi - SPAN;
  else if (!Number.isFinite(hi)) hi = lo + SPAN;
  if (lo > hi) throw new LonghaulError("INVALID_INPUT", `no integer in [${lo}, ${hi}]`);
  return [lo, hi];
}

function sampleInteger(schema: Record<string, unknown>, rng: Rng): number {
  const [lo, hi] = integerBounds(schema);
  return rng.range(lo, hi);
}

/** The tighter of two optional bounds. */
function bound(pick: (a: number, b: number) => number, a?: number, b?: number): number | undefined {
  if (a === undefined) return b;
  return b === undefined ? a : pick(a, b);
}

function sampleNumber(schema: Record<string, unknown>, rng: Rng): number {
  const exMin = num(schema.exclusiveMinimum);
  const exMax = num(schema.exclusiveMaximum);
  let lo = bound(Math.max, num(schema.minimum), exMin);
  let hi = bound(Math.min, num(schema.maximum), exMax);
  if (lo === undefined && hi === undefined) [lo, hi] = [0, SPAN];
  else if (lo === undefined) lo = (hi as number) - SPAN;
  else if (hi === undefined) hi = lo + SPAN;
  const [a, b] = [lo as number, hi as number];
  const x = a + rng.next() * (b - a);
  // The open ends of exclusive bounds: fall back to the midpoint, which is strictly inside.
  if ((exMin !== undefined && x <= exMin) || (exMax !== undefined && x >= exMax))
    return (a + b) / 2;
  return x;
}

/** A length in [min, max], with an unbounded max spread a little above min. */
function length(min: number | undefined, max: number | undefined, extra: number, rng: Rng): number {
  const lo = min ?? 0;
  return rng.range(lo, max ?? lo + extra);
}

function sampleString(schema: Record<string, unknown>, rng: Rng): string {
  const n = length(num(schema.minLength), num(schema.maxLength), EXTRA_LENGTH, rng);
  let out = "";
  for (let i = 0; i < n; i++) out += LETTERS[rng.int(LETTERS.length)];
  return out;
}

function sampleArray(schema: Record<string, unknown>, rng: Rng): unknown[] {
  const items = (schema.items ?? true) as JsonSchema;
  const n = length(num(schema.minItems), num(schema.maxItems), EXTRA_ITEMS, rng);
  const out: unknown[] = [];
  if (schema.uniqueItems !== true) {
    for (let i = 0; i < n; i++) out.push(sampleJson(items, rng));
    return out;
  }
  const seen = new Set<string>();
  for (let attempt = 0; out.length < n && attempt < n * UNIQUE_ATTEMPTS; attempt++) {
    const value = sampleJson(items, rng);
    const key = canonicalJson(value);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(value);
  }
  return out;
}

function sampleObject(schema: Record<string, unknown>, rng: Rng): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(properties)) {
    if (required.has(name) || rng.chance(0.5)) out[name] = sampleJson(sub, rng);
  }
  // Required names without a property schema still need a value.
  for (const name of required) if (!(name in out)) out[name] = sampleString({}, rng);
  return out;
}
