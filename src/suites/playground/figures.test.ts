import { describe, expect, it } from "vitest";
import type { ReportTable } from "../../core/index.ts";
import { passAtKBySuite } from "./figures.ts";

// The shape of the playground aggregate's "Suites by subset (Table 6)".
const table: ReportTable = {
  title: "Suites by subset (Table 6)",
  columns: ["suite", "EP-100 P@1", "EP-100 P@2", "EP-Easy P@1", "EP-Easy P@2"],
  formats: ["text", "rate", "rate", "rate", "rate"],
  rows: [
    ["Tower", 0.25, 0.4167, 0.5, 0.75],
    ["Launch", 0.1, 0.2574, null, null],
  ],
};

describe("passAtKBySuite", () => {
  const figure = passAtKBySuite(table);

  it("gives one bar per suite, k and subset, subsets in table order", () => {
    expect(figure.data).toHaveLength(8);
    expect(figure.data.slice(0, 4)).toEqual([
      { suite: "Tower", subset: "EP-100", k: "Pass@1", rate: 0.25 },
      { suite: "Tower", subset: "EP-100", k: "Pass@2", rate: 0.4167 },
      { suite: "Tower", subset: "EP-Easy", k: "Pass@1", rate: 0.5 },
      { suite: "Tower", subset: "EP-Easy", k: "Pass@2", rate: 0.75 },
    ]);
    expect(figure.data.at(-1)).toEqual({
      suite: "Launch",
      subset: "EP-Easy",
      k: "Pass@2",
      rate: null,
    });
    expect(figure.encoding.column).toMatchObject({ field: "subset", sort: ["EP-100", "EP-Easy"] });
  });

  it("groups Pass@1 and Pass@2 side by side on a rate axis", () => {
    expect(figure.stack).toBeUndefined();
    expect(figure.encoding.color?.field).toBe("k");
    expect(figure.encoding.y).toMatchObject({ format: "rate", domain: [0, 1] });
  });
});
