import { describe, expect, it } from "vitest";
import { parseOrThrow } from "./errors.ts";
import { wireJsonSchema, wireSchemaNames } from "./json-schema.ts";
import { Action } from "./protocol.ts";

describe("protocol schemas", () => {
  it("rejects a malformed action with the path of what is wrong", () => {
    expect(() =>
      parseOrThrow(Action, { kind: "tool", calls: [{ tool: "grab", args: 3 }] }, "action"),
    ).toThrow(/calls\[0\]\.args/);
  });

  it("exports every wire type as JSON Schema", () => {
    for (const name of wireSchemaNames()) {
      const schema = wireJsonSchema(name);
      expect(schema.$schema).toMatch(/json-schema/);
    }
    expect(() => wireJsonSchema("Nope")).toThrow(/unknown schema/);
  });
});
