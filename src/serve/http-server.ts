/**
 * `longhaul serve`: one node:http server for every transport. OpenEnv's simulation protocol
 * (WebSocket /ws; POST /reset, POST /step and GET /state kept alive by an explicit episode id;
 * GET /health, /metadata, /schema), episodes over HTTP (/tasks, /episodes...), and MCP per
 * episode (/episodes/{id}/mcp). Safety: loopback unless told otherwise, a bearer token (required
 * off loopback), foreign browser origins refused, body and frame size limits, validation errors
 * naming the bad field, a capacity, an idle TTL and a graceful shutdown that records what is open.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { type Budgets, DEFAULT_ACCESS, LonghaulError } from "../core/index.ts";
import { LONGHAUL_VERSION } from "../run/index.ts";
import type { GetSuiteOptions } from "../suites/index.ts";
import { decisionOf, EpisodeHub, type LiveEpisode } from "./episodes.ts";
import { McpEndpoint } from "./mcp.ts";
import { errorDataOf, openRequestOf, serveSocket } from "./openenv.ts";
import { ServedRuns } from "./served-runs.ts";
import { ServedSuites } from "./served-suites.ts";
import {
  CreateEpisode,
  EpisodeStepRequest,
  openEnvSchemas,
  parseWire,
  ResetData,
  ServeError,
  StepRequest,
} from "./wire.ts";

/** What an episode hub is opened with (by `longhaul serve` and `longhaul mcp`). */
export interface HubSettings {
  /** Suite ids to serve (default: every registered suite). */
  suites?: string[];
  suiteOptions?: GetSuiteOptions;
  /** Where served episodes are recorded: one run directory per suite and access level. */
  outDir: string;
  /** Open episodes at once (default 1024). */
  capacity?: number;
  /** Idle milliseconds before an open episode is finished as abandoned (default 600,000; 0 never). */
  ttlMs?: number;
  allowPrivileged?: boolean;
  budgets?: Budgets;
  /** The run seed recorded for episodes whose client names none (default "0"). */
  seed?: string;
  maxConsecutiveFormatErrors?: number;
  command?: string[];
  /** Faults no client is waiting for. */
  onError?: (message: string) => void;
}

/** Everything `longhaul serve` is started with. */
export interface ServeOptions extends HubSettings {
  /** Default 127.0.0.1; anything but loopback needs a token. */
  host?: string;
  /** Default 8000; 0 picks a free port. */
  port?: number;
  /** Bearer token every request but GET /health must carry. */
  token?: string;
  /** Largest request body and WebSocket frame in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /** Issue MCP sessions on initialize (default true); stateless requests work either way. */
  mcpSessions?: boolean;
}

/**
 * Load the suites and open the hub with its served runs; a run directory that holds other
 * settings is refused (USAGE) before any client comes.
 */
export async function openHub(
  options: HubSettings,
): Promise<{ hub: EpisodeHub; suites: ServedSuites; capacity: number; ttlMs: number }> {
  const capacity = options.capacity ?? 1024;
  const ttlMs = options.ttlMs ?? 600_000;
  const maxConsecutiveFormatErrors = options.maxConsecutiveFormatErrors ?? 3;
  const seed = options.seed ?? "0";
  const suites = await ServedSuites.load(options.suites, options.suiteOptions ?? {});
  const runs = new ServedRuns({
    outDir: options.outDir,
    seed,
    ...(options.budgets ? { budgets: options.budgets } : {}),
    maxConsecutiveFormatErrors,
    capacity,
    command: options.command ?? [],
  });
  const hub = new EpisodeHub({
    suites,
    runs,
    capacity,
    ttlMs,
    allowPrivileged: options.allowPrivileged ?? false,
    ...(options.budgets ? { budgets: options.budgets } : {}),
    seed,
    maxConsecutiveFormatErrors,
    ...(options.onError ? { onError: options.onError } : {}),
  });
  try {
    for (const id of suites.ids) {
      const served = suites.get(id);
      await runs.runFor(served.suite, served.specs, DEFAULT_ACCESS);
    }
  } catch (e) {
    await hub.shutdown();
    throw e;
  }
  return { hub, suites, capacity, ttlMs };
}

/** A listening server. */
export interface RunningServer {
  url: string;
  host: string;
  port: number;
  hub: EpisodeHub;
  /** Stop taking requests, finish and record open episodes, close every connection. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost", "[::1]"]);

/** Whether `host` only listens on this machine. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith("127.");
}

/** Load the suites, open the hub and listen. USAGE errors: a non-loopback host without a token. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopback(host) && !options.token) {
    throw new LonghaulError(
      "USAGE",
      `--host ${host} accepts connections from other machines: give a --token (or LONGHAUL_SERVE_TOKEN)`,
    );
  }
  const { hub, capacity, ttlMs, suites } = await openHub(options);
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const mcp = new McpEndpoint(hub, { sessions: options.mcpSessions ?? true, ttlMs });
  // No per-message deflate (ws's default, stated): frames are a few KB, and deflating each on the
  // event loop would cost more than the loopback or LAN bytes it saves.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: maxBodyBytes,
    perMessageDeflate: false,
  });
  const tokenDigest = options.token ? digest(options.token) : undefined;
  const routes = new Routes(hub, suites, mcp, { maxBodyBytes, token: options.token });

  const server = createServer((req, res) => {
    routes.handle(req, res, tokenDigest).catch((e) => sendError(res, e));
  });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    try {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path !== "/ws") throw new ServeError("NOT_FOUND", `no WebSocket endpoint at ${path}`);
      checkRequest(req, tokenDigest);
    } catch (e) {
      const error = errorDataOf(e);
      const status = e instanceof ServeError ? e.status : 500;
      socket.end(
        `HTTP/1.1 ${status} ${error.code}\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n${JSON.stringify(error)}`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (wss.clients.size > capacity) {
        ws.send(
          JSON.stringify({
            type: "error",
            data: {
              message: `${capacity} sockets are open, the server's capacity`,
              code: "CAPACITY_REACHED",
            },
          }),
        );
        ws.close(1013, "capacity reached");
        return;
      }
      serveSocket(hub, ws);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8000, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shown}:${port}`,
    host,
    port,
    hub,
    close: () => {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await hub.shutdown();
        await mcp.close();
        for (const ws of wss.clients) ws.close(1001, "server shutting down");
        wss.close();
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 1000).unref();
        await stopped;
      })();
      return closing;
    },
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/**
 * Refuse a request without the bearer token (UNAUTHORIZED) or sent by a web page of another
 * origin (FORBIDDEN: a browser must not drive a local server on a page's behalf).
 */
function checkRequest(req: IncomingMessage, tokenDigest: Buffer | undefined): void {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== "null") {
    let host: string | undefined;
    try {
      host = new URL(origin).host;
    } catch {
      host = undefined;
    }
    if (host !== req.headers.host) {
      throw new ServeError("FORBIDDEN", `requests from the web origin ${origin} are refused`);
    }
  }
  if (!tokenDigest) return;
  const header = req.headers.authorization ?? "";
  const given = header.startsWith("Bearer ") ? header.slice(7) : undefined;
  if (given === undefined || !timingSafeEqual(digest(given), tokenDigest)) {
    throw new ServeError(
      "UNAUTHORIZED",
      "missing or wrong bearer token (Authorization: Bearer <token>)",
    );
  }
}

/** Answer with an error: its status, and {message, code, path?}. */
function sendError(res: ServerResponse, e: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const data = errorDataOf(e);
  const status = e instanceof ServeError ? e.status : 500;
  const headers: Record<string, string> = {};
  if (data.code === "UNAUTHORIZED") headers["www-authenticate"] = "Bearer";
  if (data.code === "CAPACITY_REACHED") headers["retry-after"] = "1";
  // A body that was too large is not read to its end: close the connection after answering.
  if (data.code === "PAYLOAD_TOO_LARGE") headers.connection = "close";
  sendJson(res, status, data, headers);
}

/** Answer with a value as JSON. */
function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendJsonBytes(res, status, Buffer.from(JSON.stringify(body)), headers);
}

/** Answer with JSON already serialised. */
function sendJsonBytes(
  res: ServerResponse,
  status: number,
  json: Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": json.byteLength,
    ...headers,
  });
  res.end(json);
}

/** The routes, dispatched on method and path segments. */
class Routes {
  constructor(
    private readonly hub: EpisodeHub,
    private readonly suites: ServedSuites,
    private readonly mcp: McpEndpoint,
    private readonly options: { maxBodyBytes: number; token?: string | undefined },
  ) {}

  async handle(
    req: IncomingMessage,
    res: ServerResponse,
    tokenDigest: Buffer | undefined,
  ): Promise<void> {
    const url = new URL(req.url ?? "/", "http://x");
    const segments = url.pathname
      .split("/")
      .filter(Boolean)
      .map((s) => {
        try {
          return decodeURIComponent(s);
        } catch {
          throw new ServeError("VALIDATION_ERROR", `bad percent-encoding in the path: ${s}`);
        }
      });
    const method = req.method ?? "GET";
    const [head, id, tail, ...rest] = segments;
    if (head === "health" && segments.length === 1) {
      return this.only(method, ["GET"], () => sendJson(res, 200, { status: "healthy" }));
    }
    checkRequest(req, tokenDigest);
    const body = async () => (method === "POST" ? this.readJson(req) : undefined);
    switch (segments.length === 1 ? head : undefined) {
      case "metadata":
        return this.only(method, ["GET"], () => sendJson(res, 200, this.metadata()));
      case "schema":
        return this.only(method, ["GET"], () => sendJson(res, 200, openEnvSchemas()));
      case "reset":
        return this.only(method, ["POST"], async () => {
          const request = openRequestOf(parseWire(ResetData, await body(), "reset"));
          const episode = await this.hub.open(request);
          sendJsonBytes(res, 200, this.hub.observationJson(episode));
        });
      case "step":
        return this.only(method, ["POST"], async () => {
          const request = parseWire(StepRequest, await body(), "step request");
          await this.step(res, this.hub.get(request.episode_id), request.action);
        });
      case "state":
        return this.only(method, ["GET"], () => {
          const episodeId = url.searchParams.get("episode_id");
          if (!episodeId)
            throw new ServeError(
              "VALIDATION_ERROR",
              "name the episode: ?episode_id=",
              "episode_id",
            );
          sendJson(res, 200, this.hub.state(episodeId));
        });
      case "tasks":
        return this.only(method, ["GET"], () => this.tasks(req, res, url.searchParams));
      case "episodes":
        return this.only(method, ["POST"], async () => {
          const { task, ...fields } = parseWire(CreateEpisode, await body(), "episode request");
          const request = openRequestOf({
            ...fields,
            ...(task !== undefined ? { task_id: task } : {}),
          });
          const episode = await this.hub.open(request);
          sendJson(res, 201, this.created(req, episode));
        });
    }
    if (head !== "episodes" || id === undefined || rest.length > 0) {
      throw new ServeError("NOT_FOUND", `no endpoint ${method} ${url.pathname}`);
    }
    switch (tail) {
      case undefined:
        return this.only(method, ["GET", "DELETE"], async () => {
          if (method === "GET") return sendJson(res, 200, this.hub.state(id));
          const record = await this.hub.close(id);
          sendJson(res, 200, { ...this.hub.result(id), ended_by: record.endedBy });
        });
      case "result":
        return this.only(method, ["GET"], () => sendJson(res, 200, this.hub.result(id)));
      case "step":
        return this.only(method, ["POST"], async () => {
          const { action } = parseWire(EpisodeStepRequest, await body(), "step request");
          await this.step(res, this.hub.get(id), action);
        });
      case "latent":
        return this.only(method, ["GET"], () =>
          sendJson(res, 200, { episode_id: id, latent: this.hub.latent(this.hub.get(id)) }),
        );
      case "mcp":
        return this.only(method, ["POST", "GET", "DELETE"], async () => {
          let parsed: unknown;
          try {
            parsed = await body();
          } catch (e) {
            if (e instanceof ServeError && e.code === "INVALID_JSON") {
              return sendJson(res, 400, {
                jsonrpc: "2.0",
                error: { code: -32700, message: `Parse error: ${e.message}` },
                id: null,
              });
            }
            throw e;
          }
          await this.mcp.handle(id, req, res, parsed);
        });
      default:
        throw new ServeError("NOT_FOUND", `no endpoint ${method} ${url.pathname}`);
    }
  }

  /** Run `handler` when `method` is allowed, else METHOD_NOT_ALLOWED. */
  private async only(method: string, allowed: string[], handler: () => unknown): Promise<void> {
    if (!allowed.includes(method)) {
      throw new ServeError("METHOD_NOT_ALLOWED", `use ${allowed.join(" or ")}`);
    }
    await handler();
  }

  private async step(res: ServerResponse, episode: LiveEpisode, action: unknown): Promise<void> {
    const outcome = await this.hub.step(episode, decisionOf(action));
    sendJsonBytes(res, 200, this.hub.observationJson(episode, outcome));
  }

  /** POST /episodes' answer: the episode, its card and first observation, and its MCP endpoint. */
  private created(req: IncomingMessage, episode: LiveEpisode) {
    const path = `/episodes/${encodeURIComponent(episode.id)}`;
    const base = `http://${req.headers.host ?? "127.0.0.1"}${path}`;
    return {
      episode_id: episode.id,
      suite: episode.spec.suite,
      task_id: episode.spec.id,
      card: episode.session.card,
      observation: episode.session.observation,
      done: false,
      mcp: {
        url: `${base}/mcp`,
        headers: this.options.token ? { Authorization: `Bearer ${this.options.token}` } : {},
      },
      ...(episode.session.access.privileged ? { privileged: { spec: episode.spec } } : {}),
    };
  }

  private metadata() {
    return {
      name: "longhaul",
      description: `Long-horizon embodied-agent benchmarks behind one protocol; serving ${this.suites.ids.join(", ")}.`,
      version: LONGHAUL_VERSION,
      documentation_url: "https://github.com/longhaul/longhaul/blob/main/docs/serving.md",
    };
  }

  /** GET /tasks: JSON, or JSON Lines with ?format=jsonl (or Accept: application/jsonl). */
  private tasks(req: IncomingMessage, res: ServerResponse, query: URLSearchParams): void {
    const rows = this.suites.tasks(
      query.get("suite") ?? undefined,
      query.get("subset") ?? undefined,
    );
    const accept = req.headers.accept ?? "";
    const format = query.get("format") ?? (/jsonl|ndjson/.test(accept) ? "jsonl" : "json");
    if (format === "json") {
      sendJson(res, 200, { count: rows.length, tasks: rows });
      return;
    }
    if (format !== "jsonl") {
      throw new ServeError("VALIDATION_ERROR", `format is json or jsonl, not ${format}`, "format");
    }
    res.writeHead(200, { "content-type": "application/jsonl" });
    res.end(rows.map((r) => `${JSON.stringify(r)}\n`).join(""));
  }

  /** The JSON body of a request, within the size limit (PAYLOAD_TOO_LARGE, INVALID_JSON). */
  private async readJson(req: IncomingMessage): Promise<unknown> {
    const limit = this.options.maxBodyBytes;
    const tooLarge = () =>
      new ServeError("PAYLOAD_TOO_LARGE", `the request body is larger than ${limit} bytes`);
    if (Number(req.headers["content-length"] ?? 0) > limit) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw tooLarge();
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString("utf8");
    if (text.trim() === "") return undefined;
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new ServeError("INVALID_JSON", `the request body is not JSON: ${(e as Error).message}`);
    }
  }
}
