import { describe, expect, it } from "vitest";
import type { ExpectedOutput } from "./expected.ts";
import { scoreOutput, stripReasoning } from "./verify.ts";

const lines = (
  task: ExpectedOutput["task"],
  numbered: boolean,
  answers: string[],
): ExpectedOutput => ({
  task,
  numbered,
  table: false,
  header: [],
  rows: answers.map((a, i) => ({ id: i + 1, cells: [a] })),
});

const table = (numbered: boolean, header: string[], rows: string[][]): ExpectedOutput => ({
  task: "table",
  numbered,
  table: true,
  header,
  rows: rows.map((cells, i) => ({ id: i + 1, cells })),
});

describe("arithmetic", () => {
  const ordered = lines("arith", true, ["5", "-3", "12", "7"]);
  const unnumbered = lines("arith", false, ["5", "-3", "12", "7"]);

  it("scores an exact numbered output 1 and marks it complete", () => {
    const s = scoreOutput(ordered, "1: 5\n2: -3\n3: 12\n4: 7\n");
    expect(s).toMatchObject({ records: 4, correct: 4, accuracy: 1, exact: true, empty: false });
    expect(s.selfConsistency).toBeNull();
  });

  it("matches numbered streams by id: order does not matter, omissions cost one record", () => {
    expect(scoreOutput(ordered, "3: 12\n1: 5\n4: 7\n2: -3").accuracy).toBe(1);
    expect(scoreOutput(ordered, "1: 5\n3: 12\n4: 7").accuracy).toBe(0.75);
    expect(scoreOutput(ordered, "1: 5\n2: -4\n3: 12\n4: 7")).toMatchObject({
      correct: 3,
      exact: false,
    });
  });

  it("keeps the first line of a repeated id", () => {
    expect(scoreOutput(ordered, "1: 6\n1: 5\n2: -3\n3: 12\n4: 7").correct).toBe(3);
  });

  it("cascades an omission in unnumbered streams (every later line shifts)", () => {
    // 5 matches; 12 vs -3, 7 vs 12 and nothing vs 7 are wrong.
    expect(scoreOutput(unnumbered, "5\n12\n7\n").accuracy).toBe(0.25);
  });

  it("ignores blank lines and surrounding whitespace, nothing else", () => {
    expect(scoreOutput(unnumbered, "\n 5 \r\n\n-3\r\n12\n\n7").accuracy).toBe(1);
    expect(scoreOutput(unnumbered, "5.\n-3\n12\n7").correct).toBe(3);
  });
});

describe("uuid sorting", () => {
  const answers = ["0000000a 0000000b", "0000001a 0000002a", "000000ff 00000100"];

  it("scores records exactly and self-consistency as sortedness, numbered", () => {
    const s = scoreOutput(
      lines("uuid", true, answers),
      "1: 0000000b 0000000a\n2: 0000001a 0000002a\n3: 00000001 00000002",
    );
    expect(s.accuracy).toBeCloseTo(1 / 3);
    expect(s.selfConsistency).toBeCloseTo(2 / 3);
  });

  it("counts a missing row as neither correct nor consistent, unnumbered", () => {
    const s = scoreOutput(lines("uuid", false, answers), "0000000a 0000000b\n0000001a 0000002a");
    expect(s.accuracy).toBeCloseTo(2 / 3);
    expect(s.selfConsistency).toBeCloseTo(2 / 3);
  });
});

describe("variable lookup", () => {
  const answers = ["47 + 54", "10 + 99", "23 + 23"];

  it("matches shuffled numbered output by id", () => {
    expect(
      scoreOutput(lines("lookup", true, answers), "2: 10 + 99\n3: 23 + 23\n1: 47 + 54").exact,
    ).toBe(true);
  });

  it("cascades a duplicated line in unnumbered output", () => {
    expect(
      scoreOutput(lines("lookup", false, answers), "47 + 54\n47 + 54\n10 + 99\n23 + 23").accuracy,
    ).toBeCloseTo(1 / 3);
  });
});

describe("tables", () => {
  it("compares numbered CSV cells by position after matching rows by id", () => {
    const expected = table(
      true,
      ["b", "a"],
      [
        ["20", "10"],
        ["40", "30"],
      ],
    );
    // 2 header cells + 4 data cells; one data cell wrong.
    expect(scoreOutput(expected, "id,b,a\n1,20,10\n2,40,31").accuracy).toBeCloseTo(5 / 6);
    expect(scoreOutput(expected, "id,b,a\n2,40,30\n1,20,10").exact).toBe(true);
    // No header line: its two cells are wrong, rows still match by id.
    expect(scoreOutput(expected, "1,20,10\n2,40,30").accuracy).toBeCloseTo(4 / 6);
    // Swapped columns: every cell of the header and rows misplaced.
    expect(scoreOutput(expected, "id,a,b\n1,10,20\n2,30,40").correct).toBe(0);
  });

  it("cascades a dropped row in an unnumbered CSV", () => {
    const expected = table(
      false,
      ["b", "a"],
      [
        ["20", "10"],
        ["40", "30"],
        ["60", "50"],
      ],
    );
    // header 2 + row 1 2 correct; row 2 compared with row 3 and row 3 missing: 4 of 8.
    expect(scoreOutput(expected, "b,a\n20,10\n60,50\n").accuracy).toBe(0.5);
    expect(scoreOutput(expected, "b,a\n20, 10\n40,30\n60,50").exact).toBe(true);
  });

  it("scores key-value phrases exactly, inner spaces included", () => {
    const expected = table(false, ["owner"], [["brave lantern"], ["calm otter"]]);
    expect(scoreOutput(expected, "owner\nbrave lantern\ncalm  otter").correct).toBe(2);
  });
});

describe("reasoning blocks", () => {
  const expected = lines("arith", true, ["5", "-3"]);

  it("keeps only the text after the last </think>", () => {
    expect(stripReasoning("<think>1: 4</think>a<think>b</think>1: 5")).toBe("1: 5");
    expect(scoreOutput(expected, "<think>1: 5\n2: 9</think>\n1: 5\n2: -3").exact).toBe(true);
    expect(scoreOutput(expected, "<think>1: 5\n2: -3</think>\n").accuracy).toBe(0);
  });

  it("scores an unfinished block as empty output", () => {
    const s = scoreOutput(expected, "<think>\n1: 5\n2: -3\n");
    expect(s).toMatchObject({ accuracy: 0, exact: false, empty: true });
    expect(stripReasoning("<think>a</think>1: 5\n<think>b")).toBe("");
  });
});

describe("position-resolved accuracy", () => {
  it("averages records within each tenth of the output", () => {
    const answers = Array.from({ length: 20 }, (_, i) => String(i));
    const output = answers.map((a, i) => `${i + 1}: ${i < 10 ? a : "x"}`).join("\n");
    expect(scoreOutput(lines("arith", true, answers), output).positions).toEqual([
      1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
    ]);
  });

  it("leaves tenths without records empty", () => {
    // 4 records fall in tenths 0, 2, 5 and 7.
    const s = scoreOutput(lines("arith", true, ["1", "2", "3", "4"]), "1: 1\n2: 0\n3: 3\n4: 4");
    expect(s.positions).toEqual([1, null, 0, null, null, 1, null, 1, null, null]);
  });
});
