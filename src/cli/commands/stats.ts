/** `longhaul stats <suite>`: per-task statistics of the compiled suite. */
import type { Command } from "commander";
import { LonghaulError } from "../../core/index.ts";
import { getSuite } from "../../suites/registry.ts";
import { formatTable, printJson, println } from "../output.ts";

/** Register the command. */
export function register(program: Command): void {
  program
    .command("stats")
    .description("statistics of a compiled suite (sizes, token counts, oracle lengths)")
    .argument("<suite>", "suite id")
    .option("--json", "machine-readable output")
    .action((id: string, opts: { json?: boolean }) => {
      const suite = getSuite(id);
      if (!suite.stats) throw new LonghaulError("USAGE", `suite ${id} has no statistics`);
      const stats = suite.stats(suite.compile());
      if (opts.json) return printJson(stats);
      for (const table of stats.tables) {
        println(`## ${table.title}`);
        if (table.caption) println(table.caption);
        println(formatTable(table.columns, table.rows));
        println();
      }
      for (const [k, v] of Object.entries(stats.summary)) println(`${k}: ${v}`);
    });
}
