/**
 * A server that does nothing, for the serve bench's measurement floor: the same HTTP and
 * WebSocket stack as `longhaul serve` (node:http, ws without per-message deflate) answering every
 * message at once with a fixed OpenEnv observation of a RoboGraph answer's size (~3.6 KB). What
 * the bench's clients measure against it is their own and the machine's part of a step's latency.
 */
import { createServer } from "node:http";
import { WebSocketServer } from "ws";
import { serveBench } from "./serve-process.ts";

const ANSWER = JSON.stringify({
  type: "observation",
  data: {
    observation: { step: 0, events: [], view: { nodes: "x".repeat(3400) } },
    reward: 0,
    done: false,
    metadata: { episode_id: "null", step_count: 0, terminated: false, truncated: false },
  },
});

const http = createServer((_req, res) => res.end("{}"));
const wss = new WebSocketServer({ server: http, path: "/ws", perMessageDeflate: false });
wss.on("connection", (socket) => socket.on("message", () => socket.send(ANSWER)));
await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
const { port } = http.address() as { port: number };
serveBench({
  url: `http://127.0.0.1:${port}`,
  open: () => 0,
  close: () => new Promise<void>((resolve) => http.close(() => resolve())),
});
