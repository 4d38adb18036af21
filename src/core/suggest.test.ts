import { describe, expect, it } from "vitest";
import { closestNames, unknownNameMessage } from "./suggest.ts";

describe("did you mean", () => {
  it("suggests names within a few edits, closest first, ignoring case", () => {
    const known = ["robograph", "transduction", "magma", "continual"];
    expect(closestNames("robgraph", known)).toEqual(["robograph"]);
    expect(closestNames("Transduktion", known)).toEqual(["transduction"]);
    expect(closestNames("magam", known)).toEqual(["magma"]);
    expect(closestNames("zzz", known)).toEqual([]);
    expect(closestNames("oracle", ["oracle-x", "orcale", "explorer"])).toEqual([
      "orcale",
      "oracle-x",
    ]);
  });

  it("names a prefix of a known name", () => {
    expect(closestNames("trans", ["robograph", "transduction"])).toEqual(["transduction"]);
  });

  it("says what is unknown, the best guess and every known name", () => {
    expect(unknownNameMessage("suite", "robgraph", ["robograph", "transduction"])).toBe(
      'unknown suite "robgraph"; did you mean "robograph"? known suites: robograph, transduction',
    );
    expect(unknownNameMessage("agent", "zzz", [])).toBe(
      'unknown agent "zzz"; known agents: (none)',
    );
  });
});
