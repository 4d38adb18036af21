/**
 * The viewer's HTTP server: the page's three files and the data documents of the catalog, on
 * 127.0.0.1 by default. Every other path is 404: requests name runs by number and episodes by
 * their trace file stem, looked up in the run's index, never a path on disk. Requests whose
 * Host header is not the server's own address are refused (DNS rebinding).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { dataKeys, dataScript } from "../model/index.ts";
import type { RunCatalog } from "./catalog.ts";
import { type PageFiles, pageFiles } from "./client-bundle.ts";

/** A running viewer server. */
export interface ViewerServer {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
};

const DATA = /^\/data\/run\/(\d{1,6})\/(index|report|episode\/([A-Za-z0-9._@-]+))\.js$/;

/** A response body; `zipped` marks a body compressed once and kept (a run's large index). */
interface Found {
  type: string;
  body: string;
  zipped?: () => Buffer;
}

/** The body of a known path, or undefined (404). */
async function respond(
  path: string,
  catalog: RunCatalog,
  files: PageFiles,
  zippedIndex: (run: number, body: string) => Buffer,
): Promise<Found | undefined> {
  if (path === "/" || path === "/index.html")
    return { type: TYPES.html!, body: files["index.html"] };
  if (path === "/style.css") return { type: TYPES.css!, body: files["style.css"] };
  if (path === "/app.js") return { type: TYPES.js!, body: files["app.js"] };
  if (path === "/data/runs.js") {
    return { type: TYPES.js!, body: dataScript(dataKeys.runs, catalog.summaries()) };
  }
  const m = DATA.exec(path);
  if (!m) return undefined;
  const run = Number(m[1]);
  if (m[2] === "index") {
    const body = catalog.indexScript(run);
    if (body === undefined) return undefined;
    return { type: TYPES.js!, body, zipped: () => zippedIndex(run, body) };
  }
  let key: string;
  let doc: unknown;
  if (m[2] === "report") {
    key = dataKeys.report(run);
    doc = await catalog.report(run);
  } else {
    const file = m[3] as string;
    key = dataKeys.episode(run, file);
    doc = await catalog.episode(run, file);
  }
  return doc === undefined ? undefined : { type: TYPES.js!, body: dataScript(key, doc) };
}

/** Serve the catalog on host:port (port 0: any free port). */
export async function startViewer(
  catalog: RunCatalog,
  options: { host?: string; port?: number } = {},
): Promise<ViewerServer> {
  const host = options.host ?? "127.0.0.1";
  const files = await pageFiles();
  let allowedHosts = new Set<string>();
  // A 10,000-episode index is megabytes of JSON: compressed once, it crosses in a tenth.
  const zipped = new Map<number, Buffer>();
  const zippedIndex = (run: number, body: string) => {
    const hit = zipped.get(run) ?? gzipSync(body);
    zipped.set(run, hit);
    return hit;
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, type: string, body: string | Buffer, gzip = false) => {
      res.writeHead(status, {
        "content-type": type,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        ...(gzip ? { "content-encoding": "gzip", vary: "accept-encoding" } : {}),
      });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    if (req.method !== "GET" && req.method !== "HEAD") return send(405, "text/plain", "GET only\n");
    if (!allowedHosts.has(req.headers.host ?? "")) return send(403, "text/plain", "wrong host\n");
    // The raw path, never decoded: no request can smuggle "/" or ".." into a name.
    const path = (req.url ?? "/").split("?")[0] as string;
    try {
      const found = await respond(path, catalog, files, zippedIndex);
      if (!found) return send(404, "text/plain", "not found\n");
      const gzip =
        found.zipped !== undefined && /\bgzip\b/.test(String(req.headers["accept-encoding"]));
      send(200, found.type, gzip && found.zipped ? found.zipped() : found.body, gzip);
    } catch (error) {
      send(500, "text/plain", `${(error as Error).message}\n`);
    }
  };
  const server = createServer((req, res) => {
    void handle(req, res);
  });
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(options.port ?? 0, host, () => ok());
  });
  const port = (server.address() as AddressInfo).port;
  const shown = host.includes(":") ? `[${host}]` : host;
  allowedHosts = new Set([`${shown}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`]);
  return {
    url: `http://${shown}:${port}/`,
    port,
    server,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
