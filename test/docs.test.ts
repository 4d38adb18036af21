/** The docs name what the code has: every agent a user can pick is in docs/agents.md's table. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentFactories, agentOptionInfo, llmAgent } from "../src/agents/index.ts";
import { getSuite, suiteEntries } from "../src/suites/index.ts";

const AGENTS_DOC = readFileSync(join(import.meta.dirname, "..", "docs", "agents.md"), "utf8");

describe("docs/agents.md", () => {
  it("lists every built-in agent and every suite's agents in its table", async () => {
    const table = AGENTS_DOC.slice(AGENTS_DOC.indexOf("## Every built-in agent"));
    const rows = table
      .slice(0, table.indexOf("\n## "))
      .split("\n")
      .filter((l) => l.startsWith("| `"));
    const documented = new Set(
      rows.flatMap((row) => [...(row.split("|")[1] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1])),
    );
    const names = new Set(agentFactories().map((f) => f.name));
    for (const { id } of suiteEntries()) {
      for (const f of agentFactories(await getSuite(id, { cache: true }))) names.add(f.name);
    }
    expect([...names].filter((n) => !documented.has(n))).toEqual([]);
  });

  it("states the llm agent's default timeouts as the code has them", () => {
    const defaults = Object.fromEntries(agentOptionInfo(llmAgent).map((o) => [o.name, o.default]));
    for (const name of ["timeoutMs", "decisionTimeoutMs"]) {
      expect(defaults[name], name).toBeTypeOf("number");
      expect(AGENTS_DOC, name).toContain(`\`${name}\` (${defaults[name]})`);
    }
  });
});
