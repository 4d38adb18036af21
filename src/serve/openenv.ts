/**
 * OpenEnv's simulation protocol over a WebSocket (`/ws`), one episode per socket at a time:
 * `reset` opens an episode (finishing the socket's previous one), `step` applies an action,
 * `state` reads the public state, `close` finishes the episode and closes the socket. Messages
 * are handled in order; a socket that goes away abandons its open episode (recorded, QUIT).
 */
import type { WebSocket } from "ws";
import { decisionOf, EpisodeHold, type EpisodeHub, type OpenRequest } from "./episodes.ts";
import { type EpisodeState, type ErrorData, parseWire, ResetData, ServeError } from "./wire.ts";

/** A reset's fields (a WebSocket reset's data, POST /reset's or POST /episodes' body) as a request. */
export function openRequestOf(d: ResetData): OpenRequest {
  return {
    ...(d.suite !== undefined ? { suite: d.suite } : {}),
    ...(d.task_id !== undefined ? { taskId: d.task_id } : {}),
    ...(d.subset !== undefined ? { subset: d.subset } : {}),
    ...(d.seed !== undefined ? { seed: d.seed } : {}),
    ...(d.episode_id !== undefined ? { episodeId: d.episode_id } : {}),
    ...(d.access !== undefined ? { access: d.access } : {}),
    ...(d.agent !== undefined ? { agent: d.agent } : {}),
  };
}

/** Any thrown value as the error data every transport answers with. */
export function errorDataOf(e: unknown): ErrorData {
  if (e instanceof ServeError) {
    return { message: e.message, code: e.code, ...(e.path !== undefined ? { path: e.path } : {}) };
  }
  return { message: e instanceof Error ? e.message : String(e), code: "EXECUTION_ERROR" };
}

const MESSAGE_KEYS = new Set(["type", "data"]);

/**
 * Serve OpenEnv's protocol on one accepted socket. Once the socket's episode has finished (its
 * last step, the TTL, the wall-clock budget) the socket keeps only its final public state: the
 * session, its world and its trace are let go even if the client never resets or closes.
 */
export function serveSocket(hub: EpisodeHub, socket: WebSocket): void {
  let hold: EpisodeHold<EpisodeState> | undefined;
  let queue: Promise<void> = Promise.resolve();
  const sendJson = (json: string | Buffer) => {
    if (socket.readyState === socket.OPEN) socket.send(json, { binary: false });
  };
  const send = (type: string, data: unknown) => sendJson(JSON.stringify({ type, data }));
  const abandon = async () => {
    const episode = hold?.live;
    if (episode && !episode.finishing) await hub.finish(episode);
  };

  const handle = async (text: string): Promise<void> => {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(text);
    } catch (e) {
      throw new ServeError("INVALID_JSON", `Invalid JSON: ${(e as Error).message}`);
    }
    if (!message || typeof message !== "object" || Array.isArray(message)) {
      throw new ServeError("VALIDATION_ERROR", "a message is a JSON object {type, data}");
    }
    for (const key of Object.keys(message)) {
      if (!MESSAGE_KEYS.has(key)) {
        throw new ServeError("VALIDATION_ERROR", `unknown message field "${key}"`, key);
      }
    }
    switch (message.type) {
      case "reset": {
        const request = openRequestOf(parseWire(ResetData, message.data, "reset", "data"));
        await abandon();
        const opened = await hub.open(request);
        hold = new EpisodeHold(opened, (finished) => finished.state());
        sendJson(hub.observationJson(opened, undefined, true));
        return;
      }
      case "step": {
        if (hold?.final)
          throw new ServeError("CONFLICT", `episode ${hold.id} has ended: send reset for another`);
        const episode = hold?.live;
        if (!episode)
          throw new ServeError("SESSION_ERROR", "no episode on this socket: send reset first");
        if (message.data === undefined)
          throw new ServeError("VALIDATION_ERROR", "step needs data: the action", "data");
        const outcome = await hub.step(episode, decisionOf(message.data, "data"));
        sendJson(hub.observationJson(episode, outcome, true));
        return;
      }
      case "state":
        send(
          "state",
          hold?.live?.state() ?? hold?.final ?? { episode_id: null, step_count: 0, done: false },
        );
        return;
      case "close":
        await abandon();
        socket.close(1000, "closed by the client");
        return;
      default:
        throw new ServeError(
          "UNKNOWN_TYPE",
          `Unknown message type: ${String(message.type)}`,
          "type",
        );
    }
  };

  socket.on("message", (raw) => {
    const text = Array.isArray(raw) ? Buffer.concat(raw).toString("utf8") : raw.toString();
    queue = queue.then(() => handle(text).catch((e) => send("error", errorDataOf(e))));
  });
  // A frame over the size limit or a broken connection: ws closes the socket (1009, 1006), and
  // the close handler below abandons the episode.
  socket.on("error", () => undefined);
  socket.on("close", () => {
    queue = queue.then(abandon).catch(() => undefined);
  });
}
