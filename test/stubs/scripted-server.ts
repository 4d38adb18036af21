/**
 * A local HTTP server for provider stubs: answers one route from a per-test script of
 * replies and failures (status codes with headers, hung connections), records every request,
 * and can add a fixed latency (for benchmarks).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A reply body sent as it is, not as JSON (to exercise clients on malformed bodies). */
export class RawText {
  constructor(readonly text: string) {}
}

/** A request the stub received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** An HTTP error answer; `message` goes into the provider's error body. */
export interface StubError {
  status: number;
  headers?: Record<string, string>;
  message?: string;
}

/** Accept the request and never answer, to exercise client timeouts. */
export interface StubHang {
  hang: true;
}

/** One scripted answer: a provider reply, an HTTP error, or a hung connection. */
export type StubStep<R> = R | StubError | StubHang;

/** A running stub. */
export interface StubServer<R> {
  /** The base URL to give the SDK client. */
  baseUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Queue more steps. */
  push(...steps: StubStep<R>[]): void;
  /** Steps not yet consumed. */
  remaining(): number;
  close(): Promise<void>;
}

/** Options every provider stub takes. */
export interface StubOptions<R> {
  /** Answers in order, one per request. */
  script?: StubStep<R>[];
  /** The answer once the script is used up (else a 500 saying the script is exhausted). */
  reply?: R | ((request: RecordedRequest) => R);
  /** Delay before every answer. */
  latencyMs?: number;
}

/** How a provider's wire format renders replies and errors. */
export interface WireFormat<R> {
  /** The one route served, e.g. "/v1/chat/completions". */
  route: string;
  /** Appended to the origin to form the SDK base URL, e.g. "/v1". */
  basePath: string;
  render(reply: R, request: RecordedRequest, index: number): unknown;
  errorBody(status: number, message: string): unknown;
}

/** Start a stub on 127.0.0.1 at a free port. */
export async function startScriptedServer<R extends object>(
  wire: WireFormat<R>,
  options: StubOptions<R>,
): Promise<StubServer<R>> {
  const queue: StubStep<R>[] = [...(options.script ?? [])];
  const requests: RecordedRequest[] = [];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // Keep the raw text: a test may want to see what was sent.
      }
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body,
      };
      const index = requests.push(recorded) - 1;
      if (req.method !== "POST" || req.url !== wire.route) {
        send(res, 404, {}, wire.errorBody(404, `no route ${req.method} ${req.url}`));
        return;
      }
      const step = nextStep(queue, options.reply, recorded);
      if ("hang" in step) return;
      const answer = () => {
        if ("status" in step) {
          const message = step.message ?? `stub error ${step.status}`;
          send(res, step.status, step.headers ?? {}, wire.errorBody(step.status, message));
        } else {
          send(res, 200, {}, wire.render(step, recorded, index));
        }
      };
      if (options.latencyMs) setTimeout(answer, options.latencyMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}${wire.basePath}`,
    requests,
    push: (...steps) => queue.push(...steps),
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function nextStep<R extends object>(
  queue: StubStep<R>[],
  reply: StubOptions<R>["reply"],
  request: RecordedRequest,
): StubStep<R> {
  const step = queue.shift();
  if (step) return step;
  if (reply) return typeof reply === "function" ? reply(request) : reply;
  return { status: 500, message: "stub script exhausted" };
}

function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: unknown,
): void {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(body instanceof RawText ? body.text : JSON.stringify(body));
}
