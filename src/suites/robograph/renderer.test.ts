import { describe, expect, it } from "vitest";
import { parseReply } from "./renderer.ts";

describe("parseReply (appendix B output schema)", () => {
  it("maps a reply to a tool call and keeps reason and recovery as extra", () => {
    const reply = parseReply(
      '```json\n{"reason":"retry","recovery":{"required":true,"failed_action":"grab","failed_node_ids":["pen"]},"action":{"name":"grab","object":"pen","target":null,"node_ids":["pen"]}}\n```',
    );
    expect(reply).toEqual({
      ok: true,
      action: {
        kind: "tool",
        calls: [{ tool: "grab", args: { object: "pen", node_ids: ["pen"] } }],
      },
      note: "retry",
      extra: {
        reason: "retry",
        recovery: { required: true, failed_action: "grab", failed_node_ids: ["pen"] },
      },
    });
  });
  it("maps stop to finish", () => {
    const reply = parseReply('{"reason":"done","action":{"name":"stop"}}');
    expect(reply.ok && reply.action).toEqual({ kind: "finish" });
  });
  it("names the path of a schema violation", () => {
    const reply = parseReply(
      '{"reason":"x","recovery":{"required":"yes","failed_action":null,"failed_node_ids":[]},"action":{"name":"grab"}}',
    );
    expect(reply).toEqual({ ok: false, error: expect.stringContaining("recovery.required") });
    expect(parseReply("not json").ok).toBe(false);
  });
});
