import { describe, expect, it } from "vitest";
import { makeRecord } from "../../report/test-records.ts";
import { aggregateRecords } from "./aggregate.ts";

/** A scored episode of `agent` in `domain` with its NGP and termination. */
function episode(
  agent: string,
  domain: string,
  i: number,
  ngp: number,
  end: "correct" | "premature" | "neither",
  steps: number,
) {
  return makeRecord(`s${i}/base`, {
    suite: "robograph",
    agent,
    steps,
    status: end === "correct" ? "success" : "failure",
    tags: { domain, condition: "base", scene: `s${i}` },
    metrics: {
      sr: end === "correct" ? 100 : 0,
      ngp,
      term_correct: end === "correct" ? 100 : 0,
      term_premature: end === "premature" ? 100 : 0,
      term_neither: end === "neither" ? 100 : 0,
    },
  });
}

const model = aggregateRecords([
  episode("explorer", "tabletop", 1, 100, "correct", 10),
  episode("explorer", "tabletop", 2, 50, "premature", 20),
  episode("explorer", "indoor", 3, 25, "neither", 100),
  episode("random", "tabletop", 4, 0, "neither", 100),
]);
const figure = (prefix: string) => model.figures?.find((f) => f.id.startsWith(prefix));

describe("RoboGraph Figure 4", () => {
  it("plots NGP per agent and domain, domains side by side", () => {
    expect(figure("fig4a")?.data).toEqual([
      { Agent: "explorer", Domain: "tabletop", NGP: 75 },
      { Agent: "explorer", Domain: "indoor", NGP: 25 },
      { Agent: "random", Domain: "tabletop", NGP: 0 },
      // Table 1 lists every agent in every domain; the chart leaves the null out.
      { Agent: "random", Domain: "indoor", NGP: null },
    ]);
    expect(figure("fig4a")?.encoding.column?.field).toBe("Domain");
  });

  it("stacks the termination distribution and plots average steps", () => {
    const terms = figure("fig4b");
    expect(terms?.stack).toBe(true);
    expect(terms?.data.filter((r) => r.Agent === "explorer" && r.Domain === "tabletop")).toEqual([
      { Agent: "explorer", Domain: "tabletop", termination: "correct", share: 50 },
      { Agent: "explorer", Domain: "tabletop", termination: "premature", share: 50 },
      { Agent: "explorer", Domain: "tabletop", termination: "neither", share: 0 },
    ]);
    expect(figure("fig4c")?.data).toContainEqual({
      Agent: "explorer",
      Domain: "tabletop",
      "Avg steps": 15,
    });
  });
});
