/** `longhaul schema [name]`: the JSON Schema of a wire type, or the list of names. */
import type { Command } from "commander";
import type { CliContext } from "../context.ts";

/** Register the command. */
export function register(program: Command, ctx: CliContext): void {
  program
    .command("schema")
    .description("print the JSON Schema of a wire type (no name: list the names)")
    .argument("[name]", "wire type, e.g. Action, Observation, EpisodeRecord")
    .option("--json", "list names as JSON")
    .action(async (name: string | undefined, opts: { json?: boolean }) => {
      const { wireJsonSchema, wireSchemaNames } = await import("../../core/index.ts");
      if (name) return ctx.printJson(wireJsonSchema(name));
      if (opts.json) return ctx.printJson(wireSchemaNames());
      for (const n of wireSchemaNames()) ctx.println(n);
    });
}
