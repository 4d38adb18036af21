/** `longhaul agents [--suite S]`: the agents a suite can run, with their options. */
import type { Command } from "commander";
import type { AgentFactory } from "../../core/index.ts";
import type { CliContext } from "../context.ts";

/** Register the command. */
export function register(program: Command, ctx: CliContext): void {
  program
    .command("agents")
    .description("list agents with their options (name, type, default, description)")
    .option(
      "--suite <id>",
      "the agents this suite can run (default: every suite's and the built-ins)",
    )
    .option("--json", "machine-readable output")
    .action(async (opts: { suite?: string; json?: boolean }) => {
      const { agentOptionInfo, BUILT_IN_AGENTS } = await import("../../agents/index.ts");
      const { getSuite, suiteEntries } = await import("../../suites/index.ts");
      const ids = opts.suite ? [opts.suite] : suiteEntries().map((e) => e.id);
      const groups: { suite: string | null; factories: readonly AgentFactory[] }[] = [];
      for (const id of ids)
        groups.push({ suite: id, factories: (await getSuite(id)).agents ?? [] });
      groups.push({ suite: null, factories: BUILT_IN_AGENTS });
      const rows = groups.flatMap(({ suite, factories }) =>
        factories.map((f) => ({
          name: f.name,
          suite,
          description: f.description,
          privileged: f.privileged ?? false,
          options: agentOptionInfo(f),
        })),
      );
      if (opts.json) return ctx.printJson(rows);
      for (const agent of rows) {
        const where = agent.suite ?? "built in";
        const privileged = agent.privileged ? ", privileged" : "";
        ctx.println(`${agent.name} (${where}${privileged}): ${agent.description}`);
        for (const o of agent.options) {
          const facts = [o.type, o.required ? "required" : undefined];
          if (o.default !== undefined) facts.push(`default ${JSON.stringify(o.default)}`);
          if (o.secret) facts.push("never logged");
          const described = o.description ? `: ${o.description}` : "";
          ctx.println(`  ${o.name} (${facts.filter(Boolean).join(", ")})${described}`);
        }
      }
      ctx.println("\nset options with --agent-opt key=value (see `longhaul run --help`)");
    });
}
