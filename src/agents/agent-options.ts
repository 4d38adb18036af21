/**
 * Agent options as users see them: a listing per option (name, type, default, description)
 * from the factory's zod schema, and `k=v` text from the command line turned into JSON values
 * of the option's type before the schema validates them.
 */

import { z } from "zod";
import { type AgentFactory, formatZodError, LonghaulError } from "../core/index.ts";

/** One option of an agent, for `longhaul agents`. */
export interface AgentOptionInfo {
  name: string;
  /** A short type, e.g. "string", "integer", "auto|tools|json", "string[]". */
  type: string;
  required: boolean;
  default?: unknown;
  description?: string;
  /** Never written to a log. */
  secret?: boolean;
}

/** The JSON Schema pieces the listing and the coercion read. */
interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: PropertySchema[];
  items?: PropertySchema;
  default?: unknown;
  description?: string;
  secret?: boolean;
}

function propertiesOf(factory: AgentFactory): {
  properties: Record<string, PropertySchema>;
  required: string[];
} {
  const schema = z.toJSONSchema(factory.options, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, PropertySchema>;
    required?: string[];
  };
  return { properties: schema.properties ?? {}, required: schema.required ?? [] };
}

function typeName(schema: PropertySchema): string {
  if (schema.enum) return schema.enum.map(String).join("|");
  if (schema.anyOf) return schema.anyOf.map(typeName).join(" | ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.includes("array")) return `${schema.items ? typeName(schema.items) : "any"}[]`;
  return types.join(" | ") || "any";
}

/** The options of `factory`, in declaration order. */
export function agentOptionInfo(factory: AgentFactory): AgentOptionInfo[] {
  const { properties, required } = propertiesOf(factory);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    type: typeName(schema),
    required: required.includes(name),
    ...(schema.default !== undefined ? { default: schema.default } : {}),
    ...(schema.description ? { description: schema.description } : {}),
    ...(schema.secret ? { secret: true } : {}),
  }));
}

/** The JSON types a property accepts, alternatives included. */
function typesOf(schema: PropertySchema): string[] {
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf);
  if (schema.enum) return [...new Set(schema.enum.map((v) => typeof v))];
  return Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
}

/** Command-line text as a value of `schema`'s type; left as text when it is not one. */
function coerce(text: string, schema: PropertySchema | undefined): unknown {
  const types = schema ? typesOf(schema) : ["string"];
  if (types.includes("string")) return text;
  if (types.includes("number") || types.includes("integer")) {
    const n = Number(text);
    return text.trim() !== "" && Number.isFinite(n) ? n : text;
  }
  if (types.includes("boolean")) return text === "true" ? true : text === "false" ? false : text;
  try {
    return JSON.parse(text);
  } catch {
    // A plain comma list for an array option: robots=r1,r2.
    if (types.includes("array")) return text.split(",").map((item) => coerce(item, schema?.items));
    return text;
  }
}

/**
 * `k=v` pairs for `factory` as option values typed by its schema (numbers, booleans, JSON or
 * comma-separated arrays); unknown keys stay text, so validation names them.
 */
export function coerceAgentOptions(
  factory: AgentFactory,
  pairs: Record<string, string>,
): Record<string, unknown> {
  const { properties } = propertiesOf(factory);
  return Object.fromEntries(
    Object.entries(pairs).map(([key, text]) => [key, coerce(text, properties[key])]),
  );
}

/** Validate options with the factory's schema; a USAGE error names the path and the options. */
export function parseAgentOptions(
  factory: AgentFactory,
  options: unknown,
): Record<string, unknown> {
  const result = factory.options.safeParse(options);
  if (result.success) return result.data;
  const names = agentOptionInfo(factory).map((o) => o.name);
  const known = names.length > 0 ? `its options: ${names.join(", ")}` : "it takes no options";
  throw new LonghaulError(
    "USAGE",
    `invalid ${factory.name} agent options: ${formatZodError(result.error)} (${known})`,
  );
}

/** The options minus the fields marked secret: the default public config. */
export function withoutSecrets(
  factory: AgentFactory,
  options: Record<string, unknown>,
): Record<string, unknown> {
  const secret = new Set(
    agentOptionInfo(factory)
      .filter((o) => o.secret)
      .map((o) => o.name),
  );
  return Object.fromEntries(
    Object.entries(options).filter(([key, value]) => !secret.has(key) && value !== undefined),
  );
}
