/** `longhaul show <suite> <task-id>`: the task card and first observation an agent sees. */
import type { Command } from "commander";
import type { CliContext } from "../context.ts";

/** Register the command. */
export function register(program: Command, ctx: CliContext): void {
  program
    .command("show")
    .description("show the task card and first observation of a task (what the agent sees)")
    .argument("<suite>", "suite id")
    .argument("<task-id>", "task id, as `longhaul list` and run logs name it")
    .option("--privileged", "also show the compiled spec with its latent state")
    .option("--json", "machine-readable output")
    .action(
      async (suiteId: string, taskId: string, opts: { privileged?: boolean; json?: boolean }) => {
        const { DEFAULT_ACCESS, LonghaulError, PRIVILEGED_ACCESS } = await import(
          "../../core/index.ts"
        );
        const { getSuite } = await import("../../suites/index.ts");
        const suite = await getSuite(suiteId, ctx.suiteOptions);
        const spec = suite.compile().find((s) => s.id === taskId);
        if (!spec) throw new LonghaulError("USAGE", `suite ${suiteId} has no task "${taskId}"`);
        const access = opts.privileged ? PRIVILEGED_ACCESS : DEFAULT_ACCESS;
        const env = await suite.make(spec, { access });
        const { card, observation } = await (async () => {
          try {
            return { card: env.describe(), observation: await env.reset() };
          } finally {
            await env.close?.();
          }
        })();
        const shown = { card, observation, ...(opts.privileged ? { spec } : {}) };
        if (opts.json) return ctx.printJson(shown);
        ctx.println(`# ${card.title} (${card.id})`);
        if (card.instructions) ctx.println(`\n${card.instructions}`);
        ctx.println(`\nmodes: ${card.modes.join(", ")}`);
        ctx.println(`tools: ${card.tools.map((t) => t.name).join(", ") || "(none)"}`);
        for (const rule of card.rules) ctx.println(`rule: ${rule}`);
        ctx.println(`budgets: ${JSON.stringify(card.budgets)}`);
        ctx.println(`\nfirst observation:\n${JSON.stringify(observation, null, 2)}`);
        if (opts.privileged) ctx.println(`\nspec (privileged):\n${JSON.stringify(spec, null, 2)}`);
      },
    );
}
