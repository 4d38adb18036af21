/** `longhaul view [dirs...]`: browse runs in a local web page, or export them as a static site. */
import { resolve } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import type { CliContext } from "../context.ts";

interface ViewFlags {
  host: string;
  port: number;
  export?: string;
  json?: boolean;
}

/** The default port of `longhaul view`. */
const DEFAULT_PORT = 7878;

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) {
    throw new InvalidArgumentError("expected a port number (0 picks a free one)");
  }
  return n;
}

/** Register the command. */
export function register(program: Command, ctx: CliContext): void {
  program
    .command("view")
    .description(
      "browse run directories in a local web page: reports with figures, the episode table, step-by-step replays and two-run diffs (Ctrl-C stops it)",
    )
    .argument("[dirs...]", "run directories, or directories holding them (default: runs)")
    .option("--port <n>", "port to listen on (0 picks a free one)", port, DEFAULT_PORT)
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--export <dir>", "write a static site that opens from disk instead of serving")
    .option("--json", "with --export: print the export summary as JSON")
    .action(async (dirs: string[], flags: ViewFlags) => {
      const { exportSite, findRunDirs, RunCatalog, startViewer } = await import(
        "../../web/index.ts"
      );
      const { getSuite } = await import("../../suites/index.ts");
      const catalog = new RunCatalog(findRunDirs(dirs.length > 0 ? dirs : ["runs"]), {
        suite: (id) => getSuite(id, ctx.suiteOptions).catch(() => undefined),
      });
      if (flags.export) {
        const stderr = ctx.io.stderr;
        const summary = await exportSite(catalog, resolve(flags.export), (done, total) => {
          if (stderr.isTTY && (done % 50 === 0 || done === total)) {
            stderr.write(`\rexporting episodes ${done}/${total}`);
            if (done === total) stderr.write("\n");
          }
        });
        if (flags.json) return ctx.printJson(summary);
        ctx.println(
          `exported ${summary.runs} runs, ${summary.episodes} episodes (${summary.files} files) to ${summary.dir}`,
        );
        ctx.println(`open ${resolve(summary.dir, "index.html")} in a browser`);
        return;
      }
      const viewer = await startViewer(catalog, { host: flags.host, port: flags.port });
      ctx.println(`longhaul view: ${catalog.size} runs at ${viewer.url} (Ctrl-C stops)`);
      await new Promise<void>((done) => {
        process.once("SIGINT", done);
        process.once("SIGTERM", done);
      });
      await viewer.close();
    });
}
