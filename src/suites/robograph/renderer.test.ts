import { describe, expect, it } from "vitest";
import { type Action, DEFAULT_ACCESS, type TraceStep } from "../../core/index.ts";
import { compileFamilies, DEFAULT_SEED } from "./compiler.ts";
import { RoboGraphEnvironment } from "./environment.ts";
import { builtinFamilies } from "./families.ts";
import type { FamilySpec } from "./family-spec.ts";
import { parseReply, userPayload } from "./renderer.ts";

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

describe("userPayload recent_history (Figure 11)", () => {
  it("reads each step's outcome from the observation after it, as the agent's history holds it", async () => {
    const family = { ...(builtinFamilies()[0] as FamilySpec), scenes: 1 };
    const spec = compileFamilies([family], DEFAULT_SEED)[0];
    if (!spec) throw new Error("no spec");
    const env = new RoboGraphEnvironment(spec, DEFAULT_ACCESS);
    const history: TraceStep[] = [];
    let observation = env.reset();
    const act = (action: Action) => {
      history.push({ step: history.length, observation, action });
      observation = env.step(action).observation;
    };
    act({ kind: "tool", calls: [{ tool: "grab", args: { node_ids: ["no_such_node"] } }] });
    // An unusable reply: the same observation comes back with a format-error event.
    history.push({ step: history.length, observation, formatError: "not JSON" });
    observation = {
      ...observation,
      events: [...observation.events, { type: "format-error", text: "not JSON" }],
    };
    act({ kind: "tool", calls: [{ tool: "observe", args: {} }] });
    const payload = userPayload(observation, history);
    expect(payload.recent_history).toEqual([
      {
        step: 0,
        action: { name: "grab", node_ids: ["no_such_node"] },
        event: { status: "failure", failure_type: "not_visible" },
      },
      {
        step: 1,
        action: { name: "none", node_ids: [] },
        event: { status: "failure", failure_type: "format_error" },
      },
      {
        step: 1,
        action: { name: "observe", node_ids: [] },
        event: { status: "success", failure_type: null },
      },
    ]);
  });
});
