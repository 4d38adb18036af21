import { describe, expect, it } from "vitest";
import type { ExpectedOutput } from "./expected.ts";
import { scoreOutput, stripReasoning } from "./verify.ts";

const rows = (task: ExpectedOutput["task"], numbered: boolean, cells: string[][]) =>
  ({
    task,
    numbered,
    header: [],
    rows: cells.map((c, i) => ({ id: i + 1, cells: c })),
  }) satisfies ExpectedOutput;

// Four expressions: 5+6=11, 2+4-1=5, 9-9=0, 4+8-3+2=11.
const arith = (numbered: boolean) =>
  rows("arith", numbered, [
    ["5+6", "11"],
    ["2+4-1", "5"],
    ["9-9", "0"],
    ["4+8-3+2", "11"],
  ]);

describe("arithmetic: the whole line is the record", () => {
  it("scores an exact numbered output 1, with full self-consistency", () => {
    const s = scoreOutput(arith(true), "[1]5+6=11\n[2]2+4-1=5\n[3]9-9=0\n[4]4+8-3+2=11\n");
    expect(s).toMatchObject({ records: 4, correct: 4, answers: 4, exact: true, empty: false });
    expect(s.selfConsistency).toBe(1);
  });

  it("counts the copy: a right value after a miscopied expression is wrong but consistent", () => {
    // Row 2 copies 2+4+1 (= 7) and writes 5: answer right, copy wrong, inconsistent.
    // Row 3 copies 9-8 and writes 1: answer wrong, copy wrong, consistent.
    const s = scoreOutput(arith(true), "[1]5+6=11\n[2]2+4+1=5\n[3]9-8=1\n[4]4+8-3+2=11");
    expect(s).toMatchObject({ correct: 2, answers: 3 });
    expect(s.selfConsistency).toBe(0.75);
  });

  it("reference mode: whitespace, number spelling and order do not matter", () => {
    const out = "[3] 9 - 9 = 0.0\n[1]5 + 6=11\n[4]4+8-3+2= 11\n[2]  2+4-1 =5.";
    expect(scoreOutput(arith(true), out).exact).toBe(true);
    // Strict: only [1]... is not the canonical text either ("5 + 6"): nothing matches.
    expect(scoreOutput(arith(true), out, "strict").correct).toBe(0);
  });

  it("matches numbered streams by id: the first parsable line of an id wins", () => {
    const out = "[1]5+6=12\n[1]5+6=11\n[2]garbage\n[2]2+4-1=5\n[4]4+8-3+2=11";
    // Reference: [1] takes 5+6=12 (wrong); [2]garbage is no record, so [2]2+4-1=5 counts.
    expect(scoreOutput(arith(true), out).correct).toBe(2);
    // Strict: [2]garbage is the record of id 2.
    expect(scoreOutput(arith(true), out, "strict").correct).toBe(1);
  });

  it("unnumbered: skips non-record lines in reference mode, cascades an omission", () => {
    const out = "Here are the results:\n5+6=11\n2+4-1=5\n```\n4+8-3+2=11";
    // Reference: prose and the fence are skipped; 9-9=0 is missing, so line 3 holds row 4's
    // record (wrong for row 3) and row 4 has none: 2 of 4.
    expect(scoreOutput(arith(false), out).correct).toBe(2);
    // Strict: every line counts, so nothing lines up.
    expect(scoreOutput(arith(false), out, "strict").correct).toBe(0);
  });
});

describe("UUID sorting", () => {
  const uuid = (numbered: boolean) =>
    rows("uuid", numbered, [
      ["0000000a", "0000000b"],
      ["0000001a", "0000002a"],
      ["000000ff", "00000100"],
    ]);

  it("scores lists exactly and self-consistency as sortedness", () => {
    const s = scoreOutput(
      uuid(true),
      "[1]0000000b,0000000a\n[2]0000001a,0000002a\n[3]00000001,00000002",
    );
    expect(s.accuracy).toBeCloseTo(1 / 3);
    expect(s.selfConsistency).toBeCloseTo(2 / 3);
  });

  it("reference mode: any separator, any case; strict wants the canonical text", () => {
    const out = "[1]0000000A 0000000B\n[2] (0000001a), (0000002A)\n[3]000000ff,00000100";
    expect(scoreOutput(uuid(true), out).correct).toBe(3);
    expect(scoreOutput(uuid(true), out, "strict").correct).toBe(1);
  });

  it("unnumbered: a missing row is neither correct nor consistent; prose is skipped", () => {
    const s = scoreOutput(uuid(false), "Sorted:\n0000000a,0000000b\n0000001a,0000002a");
    expect(s.accuracy).toBeCloseTo(2 / 3);
    expect(s.selfConsistency).toBeCloseTo(2 / 3);
    expect(scoreOutput(uuid(false), "Sorted:\n0000000a,0000000b", "strict").correct).toBe(0);
  });
});

describe("variable lookup", () => {
  const lookup = (numbered: boolean) => rows("lookup", numbered, [["47 + 54"], ["10 + 99"]]);

  it("matches shuffled numbered output by id", () => {
    expect(scoreOutput(lookup(true), "[2]10 + 99\n[1]47 + 54").exact).toBe(true);
  });

  it("reference mode collapses whitespace and ignores case; strict does not", () => {
    expect(scoreOutput(lookup(true), "[1]  47   + 54\n[2]10 + 99").correct).toBe(2);
    expect(scoreOutput(lookup(true), "[1]  47   + 54\n[2]10 + 99", "strict").correct).toBe(1);
    expect(scoreOutput(lookup(false), "47+54\n10 + 99").correct).toBe(1);
  });

  it("does not skip lines, even in reference mode: a duplicate cascades", () => {
    expect(scoreOutput(lookup(false), "47 + 54\n47 + 54\n10 + 99").accuracy).toBe(0.5);
  });
});

describe("tables: data cells only, by position", () => {
  const table: ExpectedOutput = {
    task: "table",
    numbered: false,
    header: ["[C1]", "[C0]"],
    rows: [
      { id: 1, label: "[R1]", cells: ["20", "10"] },
      { id: 2, label: "[R0]", cells: ["40", "30"] },
      { id: 3, label: "[R2]", cells: ["60", "50"] },
    ],
  };

  it("never scores the header or the row labels", () => {
    const s = scoreOutput(table, ",[C1],[C0]\n[R1],20,10\n[R0],40,30\n[R2],60,50\n");
    expect(s).toMatchObject({ records: 6, correct: 6, exact: true });
    // Wrong header and labels cost nothing.
    expect(scoreOutput(table, ",x,y\nA,20,10\nB,40,30\nC,60,50").correct).toBe(6);
  });

  it("compares cells by position: one wrong cell, a swapped pair of columns", () => {
    expect(scoreOutput(table, ",[C1],[C0]\n[R1],20,10\n[R0],40,31\n[R2],60, 50 ").correct).toBe(5);
    expect(scoreOutput(table, ",[C0],[C1]\n[R1],10,20\n[R0],30,40\n[R2],50,60").correct).toBe(0);
  });

  it("cascades a dropped row and treats a header without its leading comma as a row", () => {
    // Row [R0] dropped: [R2]'s cells meet row 2, row 3 is missing: 2 of 6.
    expect(scoreOutput(table, ",[C1],[C0]\n[R1],20,10\n[R2],60,50").correct).toBe(2);
    // "[C1],[C0]" without the corner comma is read as row 1 (its cells: "[C0]").
    expect(scoreOutput(table, "[C1],[C0]\n[R1],20,10\n[R0],40,30\n[R2],60,50").correct).toBe(0);
  });

  it("scores the same in strict mode", () => {
    const out = ",[C1],[C0]\n[R1],20,10\n[R0],40 ,30\n";
    expect(scoreOutput(table, out, "strict")).toEqual(scoreOutput(table, out));
  });
});

describe("reasoning", () => {
  const expected = arith(true);
  const answer = "[1]5+6=11\n[2]2+4-1=5\n[3]9-9=0\n[4]4+8-3+2=11";

  it("keeps only the text after the last </think>", () => {
    expect(stripReasoning("<think>a</think>b<think>c</think>\n\nanswer")).toBe("answer");
    expect(scoreOutput(expected, `<think>[1]5+6=12</think>\n${answer}`).exact).toBe(true);
    expect(scoreOutput(expected, `<think>${answer}</think>\n`).correct).toBe(0);
  });

  it("scores an unfinished block as empty output", () => {
    expect(scoreOutput(expected, `<think>\n${answer}`)).toMatchObject({
      correct: 0,
      empty: true,
    });
  });

  it("keeps the answer when a <think> follows the last </think>", () => {
    const text = `<think>plan</think>\n${answer}\n<think>`;
    expect(stripReasoning(text)).toBe(`${answer}\n<think>`);
    expect(scoreOutput(expected, text).exact).toBe(true);
  });

  it("keeps the final channel of Harmony output; analysis alone is no answer", () => {
    const harmony = `<|channel|>analysis<|message|>[1]5+6=12<|end|><|start|>assistant<|channel|>final<|message|>\n${answer}`;
    expect(scoreOutput(expected, harmony).exact).toBe(true);
    expect(stripReasoning("<|channel|>analysis<|message|>[1]5+6=11")).toBe("");
  });
});

describe("position-resolved accuracy", () => {
  it("averages records within each tenth of the output", () => {
    const cells = Array.from({ length: 20 }, (_, i) => [`${i}+0`, String(i)]);
    const output = cells.map((c, i) => `[${i + 1}]${c[0]}=${i < 10 ? c[1] : "x"}`).join("\n");
    expect(scoreOutput(rows("arith", true, cells), output).positions).toEqual([
      1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
    ]);
  });

  it("leaves tenths without records empty", () => {
    // 4 records fall in tenths 0, 2, 5 and 7.
    const s = scoreOutput(arith(true), "[1]5+6=11\n[2]2+4-1=0\n[3]9-9=0\n[4]4+8-3+2=11");
    expect(s.positions).toEqual([1, null, 0, null, null, 1, null, 1, null, null]);
  });
});
