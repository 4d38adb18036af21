/** `longhaul list [suite]`: suites with version, hash, subsets and episode counts. */
import type { Command } from "commander";
import { type CliContext, formatTable } from "../context.ts";

/** Register the command. */
export function register(program: Command, ctx: CliContext): void {
  program
    .command("list")
    .description("list suites with version, content hash, subsets and episode counts")
    .argument("[suite]", "only this suite")
    .option("--json", "machine-readable output")
    .action(async (id: string | undefined, opts: { json?: boolean }) => {
      const { suiteEntries, suiteListing } = await import("../../suites/index.ts");
      const ids = id ? [id] : suiteEntries().map((e) => e.id);
      const rows = [];
      for (const suite of ids) rows.push(await suiteListing(suite, ctx.suiteOptions));
      if (opts.json) return ctx.printJson(rows);
      ctx.println(
        formatTable(
          ["suite", "version", "hash", "episodes", "subsets"],
          rows.map((r) => [
            r.id,
            r.version,
            r.hash,
            r.episodes,
            Object.entries(r.subsets)
              .map(([k, v]) => `${k}:${v}`)
              .join(" "),
          ]),
        ),
      );
    });
}
