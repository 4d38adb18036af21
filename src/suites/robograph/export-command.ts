/**
 * `longhaul export pddl robograph [task-id ...] --out DIR`: each episode's initial latent
 * scene and goal as a STRIPS domain + problem (the engine's exportPddl), written to
 * DIR/<scene>/<condition>/domain.pddl and problem.pddl (task ids `scene/condition` become
 * nested directories). Scheduled interventions are not part of the export.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LonghaulError, type SuiteCommand } from "../../core/index.ts";
import { exportPddl } from "../../world/index.ts";
import { compileSuite, DEFAULT_SEED } from "./compiler.ts";

/** The `export-pddl` suite command. */
export const exportPddlCommand: SuiteCommand = {
  name: "export-pddl",
  description:
    "Write each episode's G_0 and goal as PDDL: DIR/<scene>/<condition>/{domain,problem}.pddl",
  options: [
    // The CLI merges the `export` verb's options across suites by their exact spelling, and
    // transduction's export-doc declares `--out <file>`; the value here is a directory.
    { flag: "--out <dir>", description: "output directory", required: true },
    { flag: "--seed <seed>", description: `root seed (default ${DEFAULT_SEED})` },
  ],
  async run(options, args) {
    const out = options.out;
    if (typeof out !== "string" || out === "")
      throw new LonghaulError("USAGE", "export pddl needs --out <dir>");
    const seed = typeof options.seed === "string" ? options.seed : DEFAULT_SEED;
    const specs = compileSuite({ seed });
    const byId = new Map(specs.map((s) => [s.id, s]));
    const unknown = args.filter((id) => !byId.has(id));
    if (unknown.length > 0)
      throw new LonghaulError(
        "USAGE",
        `unknown robograph task id(s): ${unknown.join(", ")} (ids look like cosmetics-t03/i5)`,
      );
    const chosen = args.length > 0 ? args.flatMap((id) => byId.get(id) ?? []) : specs;
    const written: { id: string; domain: string; problem: string; oracleLength: number }[] = [];
    for (const spec of chosen) {
      const p = spec.payload;
      const { domain, problem } = exportPddl(p.graph, p.goal, { name: spec.id });
      const dir = join(out, p.scene, p.condition);
      mkdirSync(dir, { recursive: true });
      const files = { domain: join(dir, "domain.pddl"), problem: join(dir, "problem.pddl") };
      writeFileSync(files.domain, domain);
      writeFileSync(files.problem, problem);
      written.push({ id: spec.id, ...files, oracleLength: p.oracle.length });
    }
    const text = [
      `wrote ${written.length} PDDL task(s) under ${out} (DIR/<scene>/<condition>/domain.pddl, problem.pddl)`,
      ...written.slice(0, 10).map((w) => `  ${w.id}: optimal length ${w.oracleLength}`),
      ...(written.length > 10 ? [`  ... and ${written.length - 10} more`] : []),
    ].join("\n");
    return { text, json: { out, tasks: written } };
  },
};
