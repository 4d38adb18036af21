/**
 * Verbs that suites implement (SuiteCommand): `score <suite>`, `compile <file>` and
 * `export <format> <suite>`. Options are the union of what the suites declare.
 */
import type { Command } from "commander";
import { LonghaulError, type Suite, type SuiteCommand } from "../../core/index.ts";
import { allSuites, getSuite } from "../../suites/registry.ts";
import { printJson, println } from "../output.ts";

type Flags = Record<string, string | boolean | undefined>;

function commandOf(suite: Suite, name: string): SuiteCommand {
  const found = suite.commands?.find((c) => c.name === name);
  if (!found) throw new LonghaulError("USAGE", `suite ${suite.id} has no "${name}" command`);
  return found;
}

function declare(cmd: Command, names: (name: string) => boolean): Command {
  // Suites may spell one option differently (`--out <file>`, `--out <dir>`) and mean
  // different things by it: declare it once, saying what each suite takes.
  const options = new Map<string, { flag: string; descriptions: string[] }>();
  for (const suite of allSuites()) {
    for (const c of suite.commands ?? []) {
      if (!names(c.name)) continue;
      for (const o of c.options) {
        const name = o.flag.split(" ")[0]!;
        const entry = options.get(name) ?? { flag: o.flag, descriptions: [] };
        const description = `${suite.id}: ${o.description}`;
        // One suite's several commands (export doc, export nemo-gym) may share an option.
        if (!entry.descriptions.includes(description)) entry.descriptions.push(description);
        options.set(name, entry);
      }
    }
  }
  for (const { flag, descriptions } of options.values()) cmd.option(flag, descriptions.join("; "));
  return cmd.option("--json", "machine-readable output");
}

async function execute(command: SuiteCommand, flags: Flags, args: string[]): Promise<void> {
  for (const o of command.options) {
    const key = o.flag
      .replace(/^--/, "")
      .split(" ")[0]!
      .replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    if (o.required && flags[key] === undefined) {
      throw new LonghaulError("USAGE", `${command.name} needs ${o.flag.split(" ")[0]}`);
    }
  }
  const result = await command.run(flags, args);
  if (flags.json) printJson(result.json);
  else println(result.text);
}

/** Register the suite-implemented verbs. */
export function register(program: Command): void {
  declare(
    program
      .command("score")
      .description(
        "score an output produced elsewhere (e.g. another harness) with a suite's verifier",
      )
      .argument("<suite>", "suite id"),
    (n) => n === "score",
  ).action((id: string, flags: Flags) => execute(commandOf(getSuite(id), "score"), flags, []));

  declare(
    program
      .command("compile")
      .description("compile a user-authored task-family file (YAML or JSON) into episodes")
      .argument("<file>", "family file")
      .option("--suite <id>", "suite the family belongs to (default: the one that compiles files)"),
    (n) => n === "compile",
  ).action((file: string, flags: Flags) => {
    const suite =
      typeof flags.suite === "string"
        ? getSuite(flags.suite)
        : allSuites().find((s) => s.commands?.some((c) => c.name === "compile"));
    if (!suite) throw new LonghaulError("USAGE", "no suite compiles family files");
    return execute(commandOf(suite, "compile"), flags, [file]);
  });

  declare(
    program
      .command("export")
      .description("export compiled tasks to another format, e.g. `export pddl robograph`")
      .argument("<format>", "export format, e.g. pddl")
      .argument("<suite>", "suite id")
      .argument("[task-ids...]", "only these tasks (default: all)"),
    (n) => n.startsWith("export-"),
  ).action((format: string, id: string, ids: string[], flags: Flags) =>
    execute(commandOf(getSuite(id), `export-${format}`), flags, ids),
  );
}
