/** `longhaul list [suite]`: suites with version, hash, subsets and episode counts. */
import type { Command } from "commander";
import { type Suite, suiteHash } from "../../core/index.ts";
import { allSuites, getSuite } from "../../suites/registry.ts";
import { formatTable, printJson, println } from "../output.ts";

/** A suite's listing: identity, content hash and counts per subset. */
export function describeSuite(suite: Suite) {
  const specs = suite.compile();
  const subsets = Object.fromEntries(
    Object.entries(suite.subsets).map(([name, keep]) => [name, specs.filter(keep).length]),
  );
  const families = [...new Set(specs.map((s) => s.family))];
  return {
    id: suite.id,
    version: suite.version,
    title: suite.title,
    hash: suiteHash(suite, specs),
    episodes: specs.length,
    families,
    subsets,
    dimensions: suite.dimensions,
  };
}

/** Register the command. */
export function register(program: Command): void {
  program
    .command("list")
    .description("list suites with version, content hash, subsets and episode counts")
    .argument("[suite]", "only this suite")
    .option("--json", "machine-readable output")
    .action((id: string | undefined, opts: { json?: boolean }) => {
      const rows = (id ? [getSuite(id)] : allSuites()).map(describeSuite);
      if (opts.json) return printJson(rows);
      println(
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
