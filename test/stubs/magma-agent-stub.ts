/**
 * A local agent server speaking MAGMA's agent HTTP protocol v2 (GET /health, GET /v1/info,
 * POST /v1/responses), driven by a per-test policy: each request's single input goes to
 * `reply`, which returns the candidate's decision, memory and status, or a raw HTTP answer
 * (a status code and body) to exercise the client's failures. Every request body is recorded.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One input of a POST /v1/responses body. */
export interface StubInput {
  id: number;
  instruction: { type: "user" | "env"; content: string };
  tools: { name: string; description: string; arguments: Record<string, unknown> }[];
  attributes: Record<string, unknown>;
  memory: Record<string, unknown>;
  num_outputs: number;
  extra_keys: Record<string, unknown>;
}

/** What the policy answers: a decision (say or tool calls) with memory, or a raw HTTP reply. */
export type StubReply =
  | {
      say?: string;
      tool_calls?: {
        name: string;
        arguments: Record<string, unknown>;
        target_robot_name: string;
      }[];
      memory?: Record<string, unknown>;
      error?: { code: string; message: string };
    }
  | { http: number; body: string };

/** A running agent stub. */
export interface MagmaAgentStub {
  url: string;
  requests: { request_id: string; inputs: StubInput[] }[];
  close(): Promise<void>;
}

/** Start the stub on a free local port. */
export async function startMagmaAgentStub(
  reply: (input: StubInput, n: number) => StubReply,
): Promise<MagmaAgentStub> {
  const requests: MagmaAgentStub["requests"] = [];
  const server = createServer((req, res) => {
    const send = (status: number, body: string) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(body);
    };
    if (req.method === "GET" && req.url === "/health")
      return send(200, JSON.stringify({ status: "ready" }));
    if (req.method === "GET" && req.url === "/v1/info")
      return send(
        200,
        JSON.stringify({
          protocol_version: "2.0",
          agent_id: "stub",
          agent_version: "0.1",
          capabilities: { inference: true },
        }),
      );
    if (req.method !== "POST" || req.url !== "/v1/responses") return send(404, "{}");
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        request_id: string;
        inputs: StubInput[];
      };
      requests.push(body);
      const input = body.inputs[0] as StubInput;
      const r = reply(input, requests.length - 1);
      if ("http" in r) return send(r.http, r.body);
      const base = {
        request_id: body.request_id,
        source_id: input.id,
        candidate_index: 0,
        memory: r.memory ?? input.memory,
      };
      const out = r.error
        ? { ...base, status: "error", error: r.error }
        : {
            ...base,
            status: "completed",
            output: {
              ...(r.say !== undefined ? { say: r.say } : {}),
              ...(r.tool_calls ? { tool_calls: r.tool_calls } : {}),
            },
          };
      send(200, JSON.stringify([out]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
