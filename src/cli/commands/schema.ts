/** `longhaul schema [name]`: the JSON Schema of a wire type, or the list of names. */
import type { Command } from "commander";
import { wireJsonSchema, wireSchemaNames } from "../../core/index.ts";
import { printJson, println } from "../output.ts";

/** Register the command. */
export function register(program: Command): void {
  program
    .command("schema")
    .description("print the JSON Schema of a wire type (no name: list the names)")
    .argument("[name]", "wire type, e.g. Action, Observation, EpisodeRecord")
    .option("--json", "list names as JSON")
    .action((name: string | undefined, opts: { json?: boolean }) => {
      if (name) return printJson(wireJsonSchema(name));
      if (opts.json) return printJson(wireSchemaNames());
      for (const n of wireSchemaNames()) println(n);
    });
}
