import { describe, expect, it, vi } from "vitest";
import { gridSuite } from "../../test/fixtures/grid-suite.ts";
import type { Suite } from "../core/index.ts";
import { loadSuite, registerSuite, suiteEntries, suiteEntry } from "./registry.ts";

describe("suite registry", () => {
  it("lists and finds entries without loading a suite; loads each at most once", async () => {
    const load = vi.fn(async () => ({ ...gridSuite(), id: "spy" }) as Suite);
    registerSuite({ id: "spy", title: "spy", load });
    expect(suiteEntries().map((e) => e.id)).toEqual([
      "robograph",
      "continual",
      "transduction",
      "playground",
      "spy",
    ]);
    const entry = suiteEntry("spy");
    expect(load).not.toHaveBeenCalled();
    const [a, b] = await Promise.all([loadSuite(entry), loadSuite(entry)]);
    expect(a).toBe(b);
    expect(await loadSuite(entry)).toBe(a);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("suggests the closest id for an unknown one", () => {
    expect(() => suiteEntry("transdution")).toThrow(
      expect.objectContaining({
        code: "USAGE",
        message: expect.stringMatching(
          /^unknown suite "transdution"; did you mean "transduction"\? known suites: robograph, continual, transduction/,
        ),
      }),
    );
    expect(() => suiteEntry("zzz")).toThrow(/^unknown suite "zzz"; known suites: /);
  });

  it("refuses a second suite under a taken id, and a loader that returns another suite", async () => {
    expect(() =>
      registerSuite({ id: "robograph", title: "x", load: async () => gridSuite() }),
    ).toThrow(/already registered/);
    registerSuite({ id: "liar", title: "liar", load: async () => gridSuite() });
    await expect(loadSuite(suiteEntry("liar"))).rejects.toThrow(
      'suite entry "liar" loaded suite "grid"',
    );
  });

  it("lists each built-in suite under the id and title the suite itself declares", async () => {
    for (const id of ["robograph", "transduction"]) {
      const entry = suiteEntry(id);
      const suite = await loadSuite(entry);
      expect({ id: suite.id, title: suite.title }).toEqual({ id: entry.id, title: entry.title });
      expect(entry.sources?.length).toBe(1);
    }
  });
});
