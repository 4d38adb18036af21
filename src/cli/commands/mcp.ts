/** `longhaul mcp <suite> <task>`: one episode as an MCP server over stdio, for local harnesses. */
import { resolve } from "node:path";
import type { Command } from "commander";
import { type BudgetFlags, budgetOptions, budgetsOf } from "../args.ts";
import type { CliContext } from "../context.ts";

interface McpFlags extends BudgetFlags {
  out: string;
  access: string;
  allowPrivileged?: boolean;
  agent: string;
  seed: string;
  episodeId?: string;
}

/** Register the command. */
export function register(program: Command, ctx: CliContext): void {
  const cmd: Command = program
    .command("mcp")
    .description(
      "serve one episode as an MCP server over stdio (the card's tools, observe, status, finish); recorded like a served episode",
    )
    .argument("<suite>", "suite id")
    .argument("<task-id>", "task id, as `longhaul list` and run logs name it")
    .option(
      "--out <dir>",
      "where the episode is recorded (a run directory per suite)",
      "runs/served",
    )
    .option(
      "--access <level>",
      "access level: observe, or privileged (needs --allow-privileged)",
      "observe",
    )
    .option("--allow-privileged", "allow privileged access (the latent tool)")
    .option("--agent <name>", "who plays, as the record names it", "mcp-client")
    .option("--seed <s>", "run seed recorded in the trace", "0")
    .option("--episode-id <id>", "episode id (default <task-id>@<n>)");
  budgetOptions(cmd).action(async (suite: string, taskId: string, flags: McpFlags) => {
    const { LonghaulError } = await import("../../core/index.ts");
    const { openHub, ServeError, serveStdio } = await import("../../serve/index.ts");
    const { hub } = await openHub({
      suites: [suite],
      suiteOptions: ctx.suiteOptions,
      outDir: resolve(flags.out),
      capacity: 1,
      ttlMs: 0,
      allowPrivileged: flags.allowPrivileged ?? false,
      budgets: budgetsOf(flags),
      seed: flags.seed,
      command: [...ctx.argv],
      onError: (message) => ctx.io.stderr.write(`longhaul mcp: ${message}\n`),
    });
    try {
      const episode = await hub
        .open({
          suite,
          taskId,
          access: flags.access,
          agent: flags.agent,
          ...(flags.episodeId ? { episodeId: flags.episodeId } : {}),
        })
        .catch((e) => {
          // What the user asked for does not exist or is not allowed: a usage error (exit 2).
          if (e instanceof ServeError && e.status < 500)
            throw new LonghaulError("USAGE", e.message);
          throw e;
        });
      ctx.io.stderr.write(`longhaul mcp: episode ${episode.id} on stdio\n`);
      await serveStdio(hub, episode);
      const done = await hub.finish(episode);
      ctx.io.stderr.write(
        `longhaul mcp: ${episode.id} ${done.record.status} (${done.record.endedBy})\n`,
      );
    } finally {
      await hub.shutdown();
    }
  });
}
