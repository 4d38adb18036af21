/**
 * The server thread's entry (started by server-thread.ts): start the server with the options it
 * was given, say where it listens (or why it could not start), and close it when told to; the
 * thread ends once the server has finished and recorded its open episodes.
 */
import { parentPort, workerData } from "node:worker_threads";
import { LonghaulError } from "../core/index.ts";
import { startServer } from "./http-server.ts";
import type { ServerThreadMessage, ServerThreadOptions } from "./server-thread.ts";

const parent = parentPort as NonNullable<typeof parentPort>;
const send = (message: ServerThreadMessage) => parent.postMessage(message);
try {
  const server = await startServer({
    ...(workerData as ServerThreadOptions),
    onError: (message) => send({ kind: "error", message }),
  });
  parent.on("message", (message) => {
    if (message === "close") void server.close().then(() => parent.close());
  });
  send({ kind: "ready", url: server.url, port: server.port, suites: server.hub.suiteIds });
} catch (e) {
  send({
    kind: "failed",
    message: e instanceof Error ? e.message : String(e),
    ...(e instanceof LonghaulError ? { code: e.code } : {}),
  });
  parent.close();
}
