/** JSON Schema export of the wire types, for `longhaul schema <name>` and servers. */
import { z } from "zod";
import { LonghaulError } from "./errors.ts";
import { WIRE_SCHEMAS } from "./protocol.ts";

/** Names `longhaul schema` accepts. */
export function wireSchemaNames(): string[] {
  return Object.keys(WIRE_SCHEMAS);
}

/** The JSON Schema (draft 2020-12) of the wire type `name`. */
export function wireJsonSchema(name: string): Record<string, unknown> {
  const schema = (WIRE_SCHEMAS as Record<string, z.ZodType>)[name];
  if (!schema) {
    throw new LonghaulError(
      "USAGE",
      `unknown schema "${name}"; choose one of: ${wireSchemaNames().join(", ")}`,
    );
  }
  return z.toJSONSchema(schema, { unrepresentable: "any" }) as Record<string, unknown>;
}
