/**
 * Verbs that suites implement (SuiteCommand): `score <suite>`, `compile <file>` and
 * `export <format> <suite>`. Their options belong to the suite, so the suite the arguments
 * name is loaded before parsing and its options are declared exactly (with its own --help);
 * no other suite is loaded.
 */
import type { Command } from "commander";
// The errors file, not the core index: declaring options must not load the wire schemas.
import { LonghaulError } from "../../core/errors.ts";
import type { Suite, SuiteCommand } from "../../core/index.ts";
import { loadSuite, suiteEntries, suiteEntry } from "../../suites/index.ts";
import type { CliContext } from "../context.ts";
import { registerExportSft } from "./export-sft.ts";

type Flags = Record<string, string | boolean | undefined>;

/** The suite verb of an invocation and the suite it targets. */
export interface SuiteVerbTarget {
  verb: "score" | "compile" | "export";
  suite: Suite;
}

/** Which suite commands each verb runs. */
const VERBS: Record<SuiteVerbTarget["verb"], (name: string) => boolean> = {
  score: (n) => n === "score",
  compile: (n) => n === "compile",
  export: (n) => n.startsWith("export-"),
};

const isVerb = (word: string): word is SuiteVerbTarget["verb"] => word in VERBS;

/**
 * The suite a suite verb in `argv` targets: the first argument after the verb that is a
 * registered suite id (`compile`: the `--suite` value, else the first suite that compiles
 * family files). Undefined for other commands and when no suite is named.
 */
export async function suiteVerbTarget(
  argv: readonly string[],
): Promise<SuiteVerbTarget | undefined> {
  const at = argv.findIndex((a) => !a.startsWith("-"));
  const verb = argv[at];
  if (verb === undefined || !isVerb(verb)) return undefined;
  const rest = argv.slice(at + 1);
  if (verb === "export" && rest.find((a) => !a.startsWith("-")) === "sft") return undefined;
  if (verb === "compile") {
    const at = rest.indexOf("--suite");
    const named = at >= 0 ? rest[at + 1] : rest.find((a) => a.startsWith("--suite="))?.slice(8);
    if (named) return { verb, suite: await loadSuite(suiteEntry(named)) };
    for (const entry of suiteEntries()) {
      const suite = await loadSuite(entry);
      if (suite.commands?.some((c) => c.name === "compile")) return { verb, suite };
    }
    return undefined;
  }
  const id = rest.find((a) => suiteEntries().some((e) => e.id === a));
  return id ? { verb, suite: await loadSuite(suiteEntry(id)) } : undefined;
}

function commandOf(suite: Suite, name: string): SuiteCommand {
  const found = suite.commands?.find((c) => c.name === name);
  if (!found) throw new LonghaulError("USAGE", `suite ${suite.id} has no "${name}" command`);
  return found;
}

/** How each verb names its suite, for the help of a verb given without one. */
const SUITE_HELP: Record<SuiteVerbTarget["verb"], string> = {
  score: "longhaul score <suite> --help",
  compile: "longhaul compile <file> --suite <id> --help",
  export: "longhaul export <format> <suite> --help",
};

/** Declare the target suite's options for `verb`, or accept any when no suite is named. */
function declare(cmd: Command, verb: SuiteVerbTarget["verb"], target?: SuiteVerbTarget): Command {
  if (target?.verb !== verb) {
    return cmd
      .allowUnknownOption()
      .addHelpText("after", `\nEach suite declares its own options: ${SUITE_HELP[verb]}`);
  }
  // A suite's export formats may share a flag (`--out`): declare it once, with each distinct
  // description (the suite says which format means what).
  const options = new Map<string, { flag: string; descriptions: string[] }>();
  for (const c of target.suite.commands ?? []) {
    if (!VERBS[verb](c.name)) continue;
    for (const o of c.options) {
      const name = o.flag.split(" ")[0]!;
      const entry = options.get(name) ?? { flag: o.flag, descriptions: [] };
      if (!entry.descriptions.includes(o.description)) entry.descriptions.push(o.description);
      options.set(name, entry);
    }
  }
  for (const { flag, descriptions } of options.values()) cmd.option(flag, descriptions.join("; "));
  return cmd.option("--json", "machine-readable output");
}

async function execute(
  ctx: CliContext,
  command: SuiteCommand,
  flags: Flags,
  args: string[],
): Promise<void> {
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
  if (flags.json) ctx.printJson(result.json);
  else ctx.println(result.text);
}

/** The suite `id` (the target when it is the one named). */
function suiteFor(id: string, target: SuiteVerbTarget | undefined): Promise<Suite> {
  return target?.suite.id === id ? Promise.resolve(target.suite) : loadSuite(suiteEntry(id));
}

/** Register the suite-implemented verbs. */
export function register(program: Command, ctx: CliContext, target?: SuiteVerbTarget): void {
  declare(
    program
      .command("score")
      .description(
        "score an output produced elsewhere (e.g. another harness) with a suite's verifier",
      )
      .argument("<suite>", "suite id"),
    "score",
    target,
  ).action(async (id: string, flags: Flags) =>
    execute(ctx, commandOf(await suiteFor(id, target), "score"), flags, []),
  );

  declare(
    program
      .command("compile")
      .description("compile a user-authored task-family file (YAML or JSON) into episodes")
      .argument("<file>", "family file")
      .option("--suite <id>", "suite the family belongs to (default: the one that compiles files)"),
    "compile",
    target,
  ).action(async (file: string, flags: Flags) => {
    if (target?.verb !== "compile")
      throw new LonghaulError("USAGE", "no suite compiles family files");
    return execute(ctx, commandOf(target.suite, "compile"), flags, [file]);
  });

  const exportCommand = declare(
    program
      .command("export")
      .description(
        "export compiled tasks to another format (`export pddl robograph`), or a run as SFT rows (`export sft <run-dir>`)",
      )
      .argument("<format>", "export format, e.g. pddl")
      .argument("<suite>", "suite id")
      .argument("[task-ids...]", "only these tasks (default: all)"),
    "export",
    target,
  );
  exportCommand.action(async (format: string, id: string, ids: string[], flags: Flags) =>
    execute(ctx, commandOf(await suiteFor(id, target), `export-${format}`), flags, ids),
  );
  // `export sft` takes a run directory, not a suite: a subcommand of its own.
  registerExportSft(exportCommand, ctx);
}
