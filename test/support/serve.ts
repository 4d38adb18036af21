/** A served longhaul for tests: a server on a free port with its own record directory, and clients. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import {
  AdaptiveLimiter,
  type Agent,
  type AgentSession,
  rngFor,
  type TaskCard,
} from "../../src/core/index.ts";
import { type RunningServer, type ServeOptions, startServer } from "../../src/serve/index.ts";

/** A started server and where it records. */
export interface TestServer extends RunningServer {
  outDir: string;
  /** fetch() against the server, JSON bodies in and out. */
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Answer>;
}

/** An HTTP answer with its parsed JSON body (or its text when not JSON). */
export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field
  body: any;
}

/** Start a server on 127.0.0.1 at a free port, serving robograph unless told otherwise. */
export async function startTestServer(options: Partial<ServeOptions> = {}): Promise<TestServer> {
  const outDir = options.outDir ?? mkdtempSync(join(tmpdir(), "longhaul-serve-"));
  const server = await startServer({
    port: 0,
    suites: ["robograph"],
    suiteOptions: { cache: true },
    ...options,
    outDir,
  });
  const call: TestServer["call"] = async (method, path, body, headers = {}) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { "content-type": "application/json", ...headers },
      ...(body === undefined
        ? {}
        : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON (JSON Lines, say): the text is the body.
    }
    return { status: response.status, headers: response.headers, body: parsed };
  };
  return Object.assign(server, { outDir, call });
}

/** The path of an episode's endpoints. */
export function episodePath(id: string, tail = ""): string {
  return `/episodes/${encodeURIComponent(id)}${tail}`;
}

/** A WebSocket answer: {type, data}. */
// biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field
export type WsAnswer = { type: string; data: any };

/** A WebSocket client that reads answers in order. */
export interface WsClient {
  socket: WebSocket;
  send(message: unknown): void;
  /** The next answer (parsed). */
  next(): Promise<WsAnswer>;
  /** Send and read the answer. */
  ask(message: unknown): Promise<WsAnswer>;
  /** Resolves with the close code. */
  closed: Promise<number>;
  close(): void;
}

/** Open a WebSocket to the server's /ws. */
export async function wsConnect(
  url: string,
  headers: Record<string, string> = {},
): Promise<WsClient> {
  const socket = new WebSocket(`${url.replace(/^http/, "ws")}/ws`, { headers });
  const inbox: WsAnswer[] = [];
  const waiting: ((m: WsAnswer) => void)[] = [];
  socket.on("message", (data, isBinary) => {
    // OpenEnv's clients read JSON from text frames only.
    if (isBinary) throw new Error("the server answered in a binary frame");
    const message = JSON.parse(data.toString());
    const waiter = waiting.shift();
    if (waiter) waiter(message);
    else inbox.push(message);
  });
  const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
  socket.on("error", () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  const next = () =>
    inbox.length > 0
      ? Promise.resolve(inbox.shift() as WsAnswer)
      : new Promise<WsAnswer>((r) => waiting.push(r));
  const send = (message: unknown) =>
    socket.send(typeof message === "string" ? message : JSON.stringify(message));
  return {
    socket,
    send,
    next,
    ask: (message) => {
      send(message);
      return next();
    },
    closed,
    close: () => socket.close(),
  };
}

/**
 * Start a local agent's session on a remote episode's card, with the context a run would give
 * it (seed "0", epoch 0): for driving served episodes with longhaul's own agents.
 */
export async function remoteAgentSession(
  agent: Agent,
  card: TaskCard,
  episodeId: string,
): Promise<AgentSession> {
  return agent.start(card, {
    episodeId,
    epoch: 0,
    rng: rngFor("0", `agent:${agent.id}:${episodeId}`),
    signal: new AbortController().signal,
    budgets: card.budgets,
    access: card.access,
    gate: new AdaptiveLimiter(1),
  });
}
