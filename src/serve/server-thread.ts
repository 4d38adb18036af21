/**
 * `longhaul serve`'s server on a worker thread of its own, whose V8 young generation is sized for
 * a server. A served episode keeps its trace in memory until it ends, so much of what each step
 * allocates survives a scavenge or two: with V8's default 16 MB semi-spaces the server scavenges
 * every ~200 RoboGraph steps, copying the open episodes' new data each time. With 64 MB the event
 * loop plays 16 % more steps per CPU-second and the whole process 13 % more (bench/serve-ab.ts,
 * interleaved rounds), and GC pauses come four times less often. V8 fixes an isolate's young
 * generation when the isolate starts: a worker thread is the way to choose it without running
 * node again with a flag, and the main thread keeps the signals and the terminal.
 */
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";
import { LonghaulError } from "../core/index.ts";
import { isLoopback, type ServeOptions } from "./http-server.ts";

/** The server thread's young generation: three 64 MB semi-spaces' worth. */
export const SERVER_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 192 } as const;

/** What the server thread is started with: ServeOptions that can cross threads. */
export type ServerThreadOptions = Omit<ServeOptions, "onError">;

/** A server running on its thread. */
export interface ServerThread {
  url: string;
  port: number;
  /** The served suites' ids. */
  suites: string[];
  /** Finish and record the open episodes, stop the server and end its thread. */
  close(): Promise<void>;
}

/** Messages from the server thread (see server-thread-main.ts). */
export type ServerThreadMessage =
  | { kind: "ready"; url: string; port: number; suites: string[] }
  | { kind: "failed"; message: string; code?: string }
  | { kind: "error"; message: string };

/** The thread's entry module beside this one (.ts from the sources, .js in the package). */
const ENTRY = new URL(
  `./server-thread-main${extname(fileURLToPath(import.meta.url))}`,
  import.meta.url,
);

/**
 * A worker thread running module `entry` with the server's young generation. The package's .js
 * runs directly; a .ts source runs through tsx, registered in the thread first (a worker does not
 * inherit the main thread's --import hooks).
 */
export function serverWorker(entry: URL, options: WorkerOptions = {}): Worker {
  const settings = { ...options, resourceLimits: SERVER_RESOURCE_LIMITS };
  if (!entry.pathname.endsWith(".ts")) return new Worker(entry, settings);
  const tsx = JSON.stringify(import.meta.resolve("tsx/esm/api"));
  const source = `import(${tsx}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(source, { ...settings, eval: true });
}

/**
 * Start the server on its thread; rejects as startServer would (a USAGE error for a public host
 * without a token, before any thread starts). `onError` hears faults no client waits for.
 */
export function startServerThread(
  options: ServerThreadOptions,
  onError: (message: string) => void = () => undefined,
): Promise<ServerThread> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopback(host) && !options.token) {
    return Promise.reject(
      new LonghaulError(
        "USAGE",
        `--host ${host} accepts connections from other machines: give a --token (or LONGHAUL_SERVE_TOKEN)`,
      ),
    );
  }
  const worker = serverWorker(ENTRY, { workerData: options });
  const exited = new Promise<number>((resolve) => worker.once("exit", resolve));
  return new Promise<ServerThread>((resolve, reject) => {
    worker.once("error", reject);
    worker.on("message", (message: ServerThreadMessage) => {
      if (message.kind === "error") onError(message.message);
      else if (message.kind === "failed") {
        const code = message.code as LonghaulError["code"] | undefined;
        reject(code ? new LonghaulError(code, message.message) : new Error(message.message));
      } else if (message.kind === "ready") {
        const { url, port, suites } = message;
        const close = async () => {
          worker.postMessage("close");
          await exited;
        };
        resolve({ url, port, suites, close });
      }
    });
    void exited.then((code) => reject(new Error(`the server thread exited (${code})`)));
  });
}
