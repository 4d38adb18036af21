import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { engineActionName, exportPddl, pddlName } from "../../world/index.ts";
import { applicable, type GroundAction, goalHolds, loadPddl } from "../../world/pddl-check.ts";
import { exportPddlCommand } from "./export-command.ts";
import { robographSuite } from "./index.ts";

const dir = mkdtempSync(join(tmpdir(), "robograph-pddl-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The top-level s-expression of a PDDL file, checked for balanced parentheses. */
function topLevel(text: string): string {
  let depth = 0;
  for (const ch of text.replace(/;[^\n]*/g, "")) {
    if (ch === "(") depth++;
    else if (ch === ")") depth--;
    expect(depth).toBeGreaterThanOrEqual(0);
  }
  expect(depth).toBe(0);
  return text.trim();
}

describe("export pddl", () => {
  it("is registered with a required --out option", () => {
    const command = robographSuite.commands?.find((c) => c.name === "export-pddl");
    expect(command).toBe(exportPddlCommand);
    expect(command?.options.find((o) => o.flag.startsWith("--out"))?.required).toBe(true);
  });

  it("writes DIR/<scene>/<condition>/domain.pddl and problem.pddl for the given task ids", async () => {
    const ids = ["cosmetics-t03/base", "fridge-i02/i5"];
    const result = await exportPddlCommand.run({ out: dir }, ids);
    expect((result.json as { tasks: { id: string }[] }).tasks.map((t) => t.id)).toEqual(ids);
    for (const id of ids) {
      const domain = topLevel(readFileSync(join(dir, id, "domain.pddl"), "utf8"));
      const problem = topLevel(readFileSync(join(dir, id, "problem.pddl"), "utf8"));
      expect(domain.startsWith("(define (domain")).toBe(true);
      expect(problem.startsWith("(define (problem")).toBe(true);
      expect(domain).toContain("(:action");
      expect(problem).toContain("(:goal");
    }
    expect(result.text).toContain("cosmetics-t03/base");
  });

  it("rejects unknown task ids and a missing --out", async () => {
    await expect(exportPddlCommand.run({ out: dir }, ["cosmetics-t99/base"])).rejects.toThrow(
      /unknown robograph task id/,
    );
    await expect(exportPddlCommand.run({}, ["cosmetics-t03/base"])).rejects.toThrow(/--out/);
  });
});

describe("PDDL export of the compiled suite", () => {
  it("replays the oracle plan of every base scene step by step to the goal", () => {
    const scenes = robographSuite.compile().filter((s) => s.tags.condition === "base");
    expect(scenes).toHaveLength(84);
    for (const spec of scenes) {
      const { graph, goal, oracle } = spec.payload;
      const { domain, problem: text } = exportPddl(graph, goal);
      const problem = loadPddl(domain, text);
      let state = problem.init;
      for (const action of oracle.plan) {
        const names = action.args.map(pddlName);
        const matches = applicable(problem, state).filter(
          (g) => engineActionName(g.name) === action.name && names.every((n, i) => g.args[i] === n),
        );
        expect(matches, `${spec.id}: ${action.name}(${action.args})`).toHaveLength(1);
        state = (matches[0] as GroundAction).next;
      }
      expect(goalHolds(problem, state), spec.id).toBe(true);
    }
  });
});
