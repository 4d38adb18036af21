/** `longhaul serve [suites...]`: serve episodes over HTTP, WebSocket (OpenEnv) and MCP. */
import { resolve } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
// The flags file alone: relaunching comes before loading the server.
import { SERVE_NODE_FLAGS } from "../../serve/node-flags.ts";
import {
  type BudgetFlags,
  budgetOptions,
  budgetsOf,
  nonNegativeNumber,
  positiveInt,
} from "../args.ts";
import type { CliContext } from "../context.ts";
import { isRelaunched, missingNodeFlags, onParentGone } from "../relaunch.ts";

interface ServeFlags extends BudgetFlags {
  host: string;
  port: number;
  token?: string;
  out: string;
  capacity: number;
  ttl: number;
  maxBody: number;
  allowPrivileged?: boolean;
  seed: string;
  mcpSessions: boolean;
  tunedHeap: boolean;
  json?: boolean;
}

/** A port: an integer from 0 (any free port) to 65535. */
function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new InvalidArgumentError("expected a port from 0 to 65535");
  }
  return n;
}

/** Register the command. */
export function register(program: Command, ctx: CliContext): void {
  const cmd: Command = program
    .command("serve")
    .description(
      "serve episodes: OpenEnv's protocol (WebSocket /ws), episodes over HTTP and MCP per episode (docs/serving.md)",
    )
    .argument("[suites...]", "suite ids to serve (default: every suite)")
    .option(
      "--host <host>",
      "interface to listen on (anything but loopback needs --token)",
      "127.0.0.1",
    )
    .option("--port <n>", "port (0 picks a free one and prints it)", port, 8000)
    .option("--token <t>", "bearer token clients must send (default $LONGHAUL_SERVE_TOKEN)")
    .option(
      "--out <dir>",
      "where served episodes are recorded (a run directory per suite)",
      "runs/served",
    )
    .option("--capacity <n>", "open episodes at once", positiveInt, 1024)
    .option(
      "--ttl <s>",
      "idle seconds before an open episode is closed as abandoned (0: never)",
      nonNegativeNumber,
      600,
    )
    .option(
      "--max-body <bytes>",
      "largest request body or WebSocket frame",
      positiveInt,
      4 * 1024 * 1024,
    )
    .option(
      "--allow-privileged",
      "grant privileged access (latent state) to clients that ask for it",
    )
    .option("--seed <s>", "run seed recorded for episodes whose client names none", "0")
    .option("--no-mcp-sessions", "answer MCP statelessly only (no Mcp-Session-Id)")
    .option(
      "--no-tuned-heap",
      `serve from this process under Node's default heap (no restart with ${SERVE_NODE_FLAGS.join(" ")})`,
    )
    .option("--json", "print the address as JSON")
    .addHelpText(
      "after",
      `
Step latency: V8's full garbage collections pause every open episode. A larger initial old
generation makes them rare (p99 at 1,200 steps/s over 64 sockets ~6 ms against ~12, measured;
the heap may grow to ~0.5 GB between them). Node takes that flag only on its command line, so
serve starts itself again as a child process with ${SERVE_NODE_FLAGS.join(" ")} (signals are
passed on, its exit code is serve's) unless Node already has it or --no-tuned-heap
(docs/serving.md, "Deploying for latency").`,
    );
  budgetOptions(cmd).action(async (suites: string[], flags: ServeFlags) => {
    const nodeFlags = missingNodeFlags(SERVE_NODE_FLAGS);
    if (flags.tunedHeap && ctx.relaunch && nodeFlags.length > 0 && !isRelaunched()) {
      ctx.exitCode = await ctx.relaunch(nodeFlags);
      return;
    }
    const { startServer } = await import("../../serve/index.ts");
    const token = flags.token ?? process.env.LONGHAUL_SERVE_TOKEN;
    const server = await startServer({
      host: flags.host,
      port: flags.port,
      ...(token ? { token } : {}),
      suites,
      suiteOptions: ctx.suiteOptions,
      outDir: resolve(flags.out),
      capacity: flags.capacity,
      ttlMs: Math.round(flags.ttl * 1000),
      maxBodyBytes: flags.maxBody,
      allowPrivileged: flags.allowPrivileged ?? false,
      budgets: budgetsOf(flags),
      seed: flags.seed,
      mcpSessions: flags.mcpSessions,
      command: [...ctx.argv],
      onError: (message) => ctx.io.stderr.write(`longhaul serve: ${message}\n`),
    });
    const suiteIds = server.hub.suiteIds.join(", ");
    if (flags.json)
      ctx.printJson({ url: server.url, port: server.port, suites: server.hub.suiteIds });
    else
      ctx.println(
        `longhaul serve: listening on ${server.url} (${suiteIds}; records in ${resolve(flags.out)})`,
      );
    // Serve until SIGINT or SIGTERM (or a relaunching parent's end), then record what is open.
    await new Promise<void>((done) => {
      let stopping = false;
      const stop = () => {
        if (stopping) return;
        stopping = true;
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        ctx.io.stderr.write("longhaul serve: shutting down, recording open episodes\n");
        void server.close().then(done);
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
      onParentGone(stop);
    });
  });
}
