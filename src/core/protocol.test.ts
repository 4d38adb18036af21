import { describe, expect, it } from "vitest";
import { parseOrThrow } from "./errors.ts";
import { wireJsonSchema, wireSchemaNames } from "./json-schema.ts";
import { Action, parseAction } from "./protocol.ts";

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

describe("parseAction", () => {
  it("checks an action once: what it produced passes again as is, anything else is parsed", () => {
    const raw = { kind: "tool", calls: [{ tool: "grab", args: { object: "cup" } }] };
    const first = parseAction(raw);
    expect(first.success).toBe(true);
    const action = first.data!;
    expect(action).toEqual(raw);
    expect(action).not.toBe(raw);
    expect(parseAction(action).data).toBe(action);
    // The client's object was not marked: an equal object is parsed again (a fresh copy).
    expect(parseAction(raw).data).not.toBe(action);
    const bad = parseAction({ kind: "tool", calls: [] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["calls"]);
    expect(parseAction(null).success).toBe(false);
  });
});
