/**
 * One episode as an MCP server (the official SDK's low-level Server): the task card's tools as
 * MCP tools, plus `observe`, `status`, and `finish` / `say` / `wait` where the card's modes
 * allow them (and `latent` for a privileged episode). Every acting tool returns the same
 * structured content (ToolOutcome: observation, reward, done, and the verdict once done).
 *
 * Served over streamable HTTP at /episodes/{id}/mcp, the episode being bound by the URL, so a
 * client works with MCP sessions (the server issues Mcp-Session-Id on initialize) and without
 * (any request without the header is handled statelessly); and over stdio (`longhaul mcp`).
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  isInitializeRequest,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Decision, Json, TaskCard, ToolSpec } from "../core/index.ts";
import { LONGHAUL_VERSION } from "../run/index.ts";
import { EpisodeHold, type EpisodeHub, type LiveEpisode, type StepOutcome } from "./episodes.ts";
import { errorDataOf } from "./openenv.ts";
import { EpisodeResult, ToolOutcome } from "./wire.ts";

/** A JSON Schema for MCP (draft-07, no $schema key: clients validate with Ajv's default draft). */
function mcpSchema(schema: z.ZodType): Tool["inputSchema"] {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    target: "draft-7",
    unrepresentable: "any",
  }) as Record<string, unknown>;
  return rest as Tool["inputSchema"];
}

const OUTCOME_SCHEMA = mcpSchema(ToolOutcome);
const RESULT_SCHEMA = mcpSchema(EpisodeResult);
const NO_ARGS = { type: "object" as const, properties: {}, additionalProperties: false };

/** One tool of an episode: its listing and what a call does. */
interface EpisodeTool {
  tool: Tool;
  call(args: Record<string, unknown>): Promise<CallToolResult>;
}

/** A tool result: the structured content, and the same as JSON text for models that read text. */
function resultOf(structured: Record<string, unknown>, isError = false): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(structured) }],
    structuredContent: structured,
    ...(isError ? { isError: true } : {}),
  };
}

/** The input schema of a card tool: its parameters, plus `robot` when calls name a robot. */
function inputSchemaOf(spec: ToolSpec): Tool["inputSchema"] {
  const params = spec.parameters as Tool["inputSchema"];
  const base = params.type === "object" ? params : { ...params, type: "object" as const };
  if (!spec.robot) return base;
  return {
    ...base,
    properties: {
      ...(base.properties ?? {}),
      robot: { type: "string", description: "the robot that executes this call" },
    },
    required: [...new Set([...((base.required as string[] | undefined) ?? []), "robot"])],
  };
}

/** What an MCP server keeps of its finished episode for its read-only tools. */
interface FinalOutcome {
  outcome: ToolOutcome;
  /** The latent state, when the episode was privileged. */
  latent: Json | null;
}

/** An MCP server's hold on its episode (a session outlives it: status answers the verdict). */
type McpHold = EpisodeHold<FinalOutcome>;

/** The episode's current outcome, or its final one once it has finished. */
function currentOutcome(hub: EpisodeHub, hold: McpHold): ToolOutcome {
  return hold.live ? hub.toolOutcome(hold.live) : (hold.final as FinalOutcome).outcome;
}

/** The tools of one episode, by name. */
function episodeTools(
  hub: EpisodeHub,
  hold: McpHold,
  card: TaskCard,
  privileged: boolean,
): Map<string, EpisodeTool> {
  const act = async (decision: Decision): Promise<CallToolResult> => {
    let outcome: StepOutcome;
    try {
      outcome = await hub.step(hub.get(hold.id), decision);
    } catch (e) {
      return {
        ...resultOf(currentOutcome(hub, hold), true),
        content: [{ type: "text", text: JSON.stringify(errorDataOf(e)) }],
      };
    }
    const structured = hub.toolOutcome(outcome.episode, outcome);
    return resultOf(structured, Boolean(structured.invalid || structured.format_error));
  };
  const tools = new Map<string, EpisodeTool>();
  for (const spec of card.modes.includes("tool") ? card.tools : []) {
    tools.set(spec.name, {
      tool: {
        name: spec.name,
        description: spec.description,
        inputSchema: inputSchemaOf(spec),
        outputSchema: OUTCOME_SCHEMA,
      },
      call: ({ robot, ...args }) =>
        act({
          action: {
            kind: "tool",
            calls: [
              {
                tool: spec.name,
                args,
                ...(typeof robot === "string" && spec.robot ? { robot } : {}),
              },
            ],
          },
        }),
    });
  }
  // The generic tools; a card tool of the same name keeps it and the generic one is prefixed.
  const generic = (name: string, tool: Omit<Tool, "name">, call: EpisodeTool["call"]) => {
    const free = tools.has(name) ? `longhaul_${name}` : name;
    tools.set(free, { tool: { name: free, ...tool }, call });
  };
  generic(
    "observe",
    {
      description: "The current observation, without acting (free: no step is used).",
      inputSchema: NO_ARGS,
      outputSchema: OUTCOME_SCHEMA,
      annotations: { readOnlyHint: true },
    },
    async () => resultOf(currentOutcome(hub, hold)),
  );
  generic(
    "status",
    {
      description:
        "The episode's status: done, the return so far, and once done the verdict and the record.",
      inputSchema: NO_ARGS,
      outputSchema: RESULT_SCHEMA,
      annotations: { readOnlyHint: true },
    },
    async () => resultOf(hub.result(hold.id)),
  );
  if (card.modes.includes("finish")) {
    generic(
      "finish",
      {
        description: "End the episode, with an answer when the task asks for one.",
        inputSchema: {
          type: "object",
          properties: { answer: { type: "string", description: "the final answer, if any" } },
          additionalProperties: false,
        },
        outputSchema: OUTCOME_SCHEMA,
      },
      ({ answer }) =>
        act({
          action: { kind: "finish", ...(typeof answer === "string" ? { answer } : {}) },
        }),
    );
  }
  if (card.modes.includes("say")) {
    generic(
      "say",
      {
        description: "Say something (to the user or the other agents) instead of acting.",
        inputSchema: {
          type: "object",
          properties: { text: { type: "string" } },
          required: ["text"],
          additionalProperties: false,
        },
        outputSchema: OUTCOME_SCHEMA,
      },
      ({ text }) => act({ action: { kind: "say", text: String(text ?? "") } }),
    );
  }
  if (card.modes.includes("wait")) {
    generic(
      "wait",
      {
        description: "Let simulated time pass without acting.",
        inputSchema: NO_ARGS,
        outputSchema: OUTCOME_SCHEMA,
      },
      () => act({ action: { kind: "wait" } }),
    );
  }
  if (privileged) {
    generic(
      "latent",
      {
        description: "Privileged: the latent state of the environment, as JSON.",
        inputSchema: NO_ARGS,
        annotations: { readOnlyHint: true },
      },
      async () =>
        resultOf({ latent: hold.live ? hub.latent(hold.live) : (hold.final?.latent ?? null) }),
    );
  }
  return tools;
}

/** An MCP server for one episode. */
export function mcpServerFor(hub: EpisodeHub, episode: LiveEpisode): Server {
  const server = new Server(
    { name: `longhaul-${episode.spec.suite}`, version: LONGHAUL_VERSION },
    {
      capabilities: { tools: {} },
      instructions: `${episode.session.card.title}\n\n${episode.session.card.instructions}`,
    },
  );
  const { card, access } = episode.session;
  const hold = new EpisodeHold(episode, (finished) => ({
    outcome: hub.toolOutcome(finished),
    latent: access.privileged ? hub.latent(finished) : null,
  }));
  const tools = episodeTools(hub, hold, card, access.privileged);
  server.onclose = () => hold.drop();
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools.values()].map((t) => t.tool),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args = {} } = request.params;
    const tool = tools.get(name);
    // A tool the episode does not list goes to the environment, which answers it (unknown-tool).
    return tool ? tool.call(args) : unknownTool(hub, hold, name, args);
  });
  return server;
}

/** A call of a tool the card does not list, submitted so the environment answers it (unknown-tool). */
async function unknownTool(
  hub: EpisodeHub,
  hold: McpHold,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  try {
    const outcome = await hub.step(hub.get(hold.id), {
      action: { kind: "tool", calls: [{ tool: name, args }] },
    });
    return resultOf(hub.toolOutcome(outcome.episode, outcome), true);
  } catch (e) {
    return resultOf({ ...errorDataOf(e) }, true);
  }
}

/** An open MCP session over HTTP, bound to one episode. */
interface McpSession {
  episodeId: string;
  transport: StreamableHTTPServerTransport;
  lastUsed: number;
}

/** The MCP endpoint of every episode: sessions by Mcp-Session-Id, or stateless requests. */
export class McpEndpoint {
  private readonly sessions = new Map<string, McpSession>();
  private readonly sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly hub: EpisodeHub,
    private readonly options: { sessions: boolean; ttlMs: number },
  ) {
    if (options.ttlMs > 0) {
      const every = Math.min(Math.max(options.ttlMs / 4, 25), 30_000);
      this.sweeper = setInterval(() => this.sweep(), every).unref();
    }
  }

  /** Open MCP sessions. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Handle one request to /episodes/{id}/mcp (`body`: the parsed JSON of a POST). */
  async handle(
    episodeId: string,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
  ): Promise<void> {
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      // A session outlives its episode's end (status answers the verdict): its tools keep the
      // final outcome (an EpisodeHold), the hub the finished episode's record.
      const session = this.sessions.get(sessionId);
      if (!session || session.episodeId !== episodeId) {
        this.hub.state(episodeId); // NOT_FOUND for an unknown episode, as before
        return jsonRpcError(res, 404, -32001, "Session not found");
      }
      session.lastUsed = performance.now();
      return session.transport.handleRequest(req, res, body);
    }
    // A new session or a stateless request needs the open episode (CONFLICT once it has ended).
    const episode = this.hub.get(episodeId);
    if (req.method === "POST" && this.options.sessions && isInitializeRequest(body)) {
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => {
          this.sessions.set(id, { episodeId, transport, lastUsed: performance.now() });
        },
        onsessionclosed: (id) => {
          this.sessions.delete(id);
        },
      });
      await mcpServerFor(this.hub, episode).connect(transport);
      return transport.handleRequest(req, res, body);
    }
    if (req.method !== "POST") {
      return jsonRpcError(res, 405, -32000, "Method not allowed without an MCP session");
    }
    // Stateless: a fresh server and transport for this one request.
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = mcpServerFor(this.hub, episode);
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /** Close every session. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(open.map((s) => s.transport.close()));
  }

  /** Close sessions idle past the TTL. */
  private sweep(): void {
    const cutoff = performance.now() - this.options.ttlMs;
    for (const [id, session] of this.sessions) {
      if (session.lastUsed < cutoff) {
        this.sessions.delete(id);
        void session.transport.close();
      }
    }
  }
}

/** A JSON-RPC error as the streamable HTTP transport answers one. */
function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/**
 * Serve one episode over stdio until the client closes the stream; the episode is then
 * finished (abandoned if it had not ended) and recorded.
 */
export async function serveStdio(
  hub: EpisodeHub,
  episode: LiveEpisode,
  streams?: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream },
): Promise<void> {
  const transport = streams
    ? new StdioServerTransport(streams.stdin as never, streams.stdout as never)
    : new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  const server = mcpServerFor(hub, episode);
  await server.connect(transport);
  (streams?.stdin ?? process.stdin).once("end", () => void server.close());
  await closed;
}
