/** `longhaul stats <suite>`: per-task statistics of the compiled suite (cached). */
import type { Command } from "commander";
import { type CliContext, formatTable } from "../context.ts";

/** Register the command. */
export function register(program: Command, ctx: CliContext): void {
  program
    .command("stats")
    .description("statistics of a compiled suite (sizes, token counts, oracle lengths)")
    .argument("<suite>", "suite id")
    .option("--json", "machine-readable output")
    .action(async (id: string, opts: { json?: boolean }) => {
      const { LonghaulError } = await import("../../core/errors.ts");
      const { suiteStats } = await import("../../suites/index.ts");
      const stats = await suiteStats(id, ctx.suiteOptions);
      if (!stats) throw new LonghaulError("USAGE", `suite ${id} has no statistics`);
      if (opts.json) return ctx.printJson(stats);
      for (const table of stats.tables) {
        ctx.println(`## ${table.title}`);
        if (table.caption) ctx.println(table.caption);
        ctx.println(formatTable(table.columns, table.rows));
        ctx.println();
      }
      for (const [k, v] of Object.entries(stats.summary)) ctx.println(`${k}: ${v}`);
    });
}
