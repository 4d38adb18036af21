/** The CLI loads a suite only when a command works on it, and then only that one. */
import { describe, expect, it, vi } from "vitest";
import type { Suite } from "../src/core/index.ts";
import { registerSuite } from "../src/suites/index.ts";
import { gridSuite } from "./fixtures/grid-suite.ts";
import { longhaul } from "./support/run-cli.ts";

describe("lazy suites", () => {
  it("loads no suite for help, and only the named one for a command on it", async () => {
    const grid = vi.fn(async () => gridSuite(1) as Suite);
    const other = vi.fn(async () => ({ ...gridSuite(1), id: "other" }) as Suite);
    registerSuite({ id: "grid", title: "grid", load: grid });
    registerSuite({ id: "other", title: "other", load: other });
    for (const args of [
      ["--help"],
      ["run", "--help"],
      ["list", "--help"],
      ["agents", "--help"],
      ["score", "--help"],
      ["export", "--help"],
      ["--version"],
    ]) {
      expect((await longhaul(...args)).code, args.join(" ")).toBe(0);
    }
    expect(grid).not.toHaveBeenCalled();
    expect(other).not.toHaveBeenCalled();

    const list = await longhaul("list", "grid", "--json");
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)[0]).toMatchObject({ id: "grid", episodes: 3 });
    const agents = await longhaul("agents", "--suite", "grid", "--json");
    expect(JSON.parse(agents.stdout)[0]).toMatchObject({ name: "greedy", suite: "grid" });
    expect(grid).toHaveBeenCalledTimes(1);
    expect(other).not.toHaveBeenCalled();
  });
});
