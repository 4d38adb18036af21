/**
 * Agent-server stubs speaking longhaul's agent wire (AgentRequest in, AgentReply out), for the
 * `http` agent's tests and benchmarks: one that answers from a script (replies, HTTP errors,
 * hung connections, raw text), and one that wraps a longhaul agent, keeping a session per
 * episode and counting turns in the memory it round-trips.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  AdaptiveLimiter,
  type Agent,
  type AgentReply,
  AgentRequest,
  type AgentSession,
  rngFor,
} from "../../src/core/index.ts";
import {
  type RawText,
  type StubOptions,
  type StubServer,
  startScriptedServer,
  type WireFormat,
} from "./scripted-server.ts";

/** The agent wire as a scripted stub renders it: replies as they are. */
const AGENT_WIRE: WireFormat<AgentReply | RawText> = {
  route: "/act",
  basePath: "/act",
  render: (reply) => reply,
  errorBody: (status, message) => ({ error: { status, message } }),
};

/** A scripted agent server at `<baseUrl>` (POST /act). */
export function startScriptedAgent(
  options: StubOptions<AgentReply | RawText>,
): Promise<StubServer<AgentReply | RawText>> {
  return startScriptedServer(AGENT_WIRE, options);
}

/** A running agent server that wraps a longhaul agent. */
export interface AgentServer {
  url: string;
  requests: AgentRequest[];
  close(): Promise<void>;
}

/**
 * Serve `agent` as an agent server: one session per play of an episode, started at the play's
 * first request (memory null) with the context a run would give (seed `seed`). Each reply's
 * memory names the play and counts the turns (`{play, turns}`), so a test can see the memory come
 * back, and an episode played again (a rerun job, while a frozen worker may still hold the old
 * play) starts afresh instead of continuing another play's session. `latencyMs` delays every answer.
 */
export async function startAgentServer(
  agent: Agent,
  options: { seed?: string; latencyMs?: number } = {},
): Promise<AgentServer> {
  const sessions = new Map<number, AgentSession>();
  let plays = 0;
  const requests: AgentRequest[] = [];
  const gate = new AdaptiveLimiter(1024);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const request = AgentRequest.parse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      requests.push(request);
      const memory = request.memory as { play: number; turns: number } | null;
      const play = memory?.play ?? ++plays;
      const turns = memory?.turns ?? 0;
      let reply: AgentReply;
      if (request.kind === "end") {
        sessions.delete(play);
        reply = { memory: { play, turns, ended: true } };
      } else {
        let session = sessions.get(play);
        if (!session) {
          session = await agent.start(request.card, {
            episodeId: request.episodeId,
            epoch: request.epoch,
            rng: rngFor(options.seed ?? "0", `agent:${agent.id}:${request.episodeId}`),
            signal: new AbortController().signal,
            budgets: request.card.budgets,
            access: request.card.access,
            gate,
          });
          sessions.set(play, session);
        }
        const decision = await session.act(request.observation);
        reply = {
          ...(decision.action ? { action: decision.action } : {}),
          ...(decision.formatError !== undefined ? { formatError: decision.formatError } : {}),
          ...(decision.note !== undefined ? { note: decision.note } : {}),
          ...(decision.extra !== undefined ? { extra: decision.extra } : {}),
          memory: { play, turns: turns + 1 },
        };
      }
      const answer = () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(reply));
      };
      if (options.latencyMs) setTimeout(answer, options.latencyMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/act`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
