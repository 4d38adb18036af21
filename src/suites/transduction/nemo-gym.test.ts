import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exportNemoGymCommand, scoreCommand } from "./commands.ts";
import { generateDocument } from "./document.ts";
import { scoreRollouts } from "./nemo-gym.ts";
import { DocumentParams } from "./params.ts";
import { referenceOutput } from "./reference.ts";
import { scoreOutput } from "./verify.ts";

/** A Responses API response holding one output message. */
const response = (text: string) => ({
  id: "resp_1",
  output: [
    { type: "reasoning", summary: [] },
    { type: "message", role: "assistant", content: [{ type: "output_text", text }] },
  ],
});

// Hand-made rollouts in the reference harness's row shape, one per verifier branch family.
const ROWS = [
  {
    type: "streaming_sum",
    responses_create_params: { input: [{ role: "user", content: "...", type: "message" }] },
    expressions: [
      { expr: "5+6", answer: 11 },
      { expr: "2+4-1", answer: 5 },
      { expr: "9-9", answer: 0 },
    ],
    max_operands: 4,
    target_tokens: 2048,
    // Row 1 right; row 2 miscopied (2+4+1) with the right value; row 3 copied, value wrong.
    response: response("[1]5+6=11\n[2]2+4+1=5\n[3]9-9=1"),
    reward: 2 / 3,
  },
  {
    type: "unnumbered_uuid_sort",
    uuid_lines: [
      ["0000000B", "0000000a"],
      ["00000002", "00000001"],
    ],
    uuids_per_line: 2,
    target_tokens: 2048,
    // Reasoning and a prose line are dropped; line 1 right in any case, line 2 unsorted.
    response: response("<think>sorting</think>\nSure:\n0000000A,0000000B\n00000002,00000001"),
    reward: 0.5,
  },
  {
    type: "shuffled_streaming_var_expand",
    expressions: [
      { expr: "a3f+7b2", answer: "big dog" },
      { expr: "0c1+9e4", answer: "black cat" },
    ],
    n_variables: 8,
    target_tokens: 4096,
    response: response("[2]Black  Cat\n[1]big dog"),
  },
  {
    type: "csv_permutation_homogeneous",
    expected_output: ",[C1],[C0]\n[R1],4,3\n[R0],2,1",
    n_rows: 2,
    n_cols: 2,
    perm_fraction: 1,
    target_tokens: 4096,
    // Labels are not scored; one of four cells is wrong.
    response: response(",[C1],[C0]\n[R9],4,3\n[R0],2,9"),
    reward: 0.5,
  },
  // No type: the reference's default, unnumbered arithmetic; a plain string response.
  { expressions: [{ expr: "1+1", answer: 2 }], response: "1+1=2" },
];

const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`;

describe("scoring rollouts in the reference row shape", () => {
  it("scores each hand-made row as computed by hand", () => {
    const scores = scoreRollouts(jsonl(ROWS), "r.jsonl", "reference");
    expect(scores.map((s) => [s.type, s.score.correct, s.score.records, s.reward])).toEqual([
      ["streaming_sum", 1, 3, 2 / 3],
      ["unnumbered_uuid_sort", 1, 2, 0.5],
      ["shuffled_streaming_var_expand", 2, 2, 1],
      ["csv_permutation_homogeneous", 3, 4, 0.75],
      ["unnumbered_streaming_sum", 1, 1, 1],
    ]);
    // Only 5+6=11 agrees with itself: 2+4+1 is 7, 9-9 is 0.
    expect(scores[0]!.score.selfConsistency).toBeCloseTo(1 / 3);
    expect(scores.map((s) => s.recordedReward)).toEqual([2 / 3, 0.5, null, 0.5, null]);
    expect(scores.map((s) => s.line)).toEqual([1, 2, 3, 4, 5]);
  });

  it("prints per-row and aggregate scores, rollouts weighted equally", async () => {
    const dir = await mkdtemp(join(tmpdir(), "rollouts-"));
    const file = join(dir, "rollouts.jsonl");
    await writeFile(file, jsonl(ROWS));
    const result = await scoreCommand.run({ rollouts: file }, []);
    const { rows, aggregate } = result.json as {
      rows: { line: number; accuracy: number }[];
      aggregate: Record<string, unknown>;
    };
    expect(rows).toHaveLength(5);
    // (1/3 + 1/2 + 1 + 3/4 + 1) / 5
    expect(aggregate.accuracy).toBeCloseTo((1 / 3 + 0.5 + 1 + 0.75 + 1) / 5);
    expect(aggregate).toMatchObject({
      rollouts: 5,
      exact: 2,
      scoring: "reference",
      recordedRewards: { rows: 3, agreeing: 2 },
      byTargetTokens: { "2048": { rollouts: 2 }, "4096": { rollouts: 2 } },
    });
    expect(result.text).toMatch(/^line 1 streaming_sum: 1\/3 correct/);
    expect(result.text).toMatch(/recorded rewards: 2 of 3 rows agree/);
    // Strict: the case of the identifiers and of the words now counts.
    const strict = (await scoreCommand.run({ rollouts: file, strict: true }, [])).json as {
      rows: { correct: number }[];
    };
    expect(strict.rows.map((r) => r.correct)).toEqual([1, 0, 1, 3, 1]);
  });

  it("rejects a malformed file naming the line and the field", () => {
    expect(() =>
      scoreRollouts(`${jsonl(ROWS.slice(0, 1))}{oops\n`, "r.jsonl", "reference"),
    ).toThrow(/r\.jsonl line 2: not JSON/);
    expect(() =>
      scoreRollouts(jsonl([{ ...ROWS[0], type: "csv_magic" }]), "r.jsonl", "reference"),
    ).toThrow(/r\.jsonl line 1: type: "csv_magic" is not a long_transduction type/);
    expect(() =>
      scoreRollouts(
        jsonl([{ type: "streaming_uuid_sort", response: "x" }]),
        "r.jsonl",
        "reference",
      ),
    ).toThrow(/line 1: uuid_lines: required/);
    const { response: _dropped, ...dataset } = ROWS[0]!;
    expect(() => scoreRollouts(jsonl([dataset]), "r.jsonl", "reference")).toThrow(
      /r\.jsonl line 1.*response/,
    );
    expect(() => scoreRollouts("\n", "r.jsonl", "reference")).toThrow(/no rollout rows/);
  });
});

describe("exporting documents as reference rows", () => {
  it("writes the rows the reference harness reads, which score like the documents", async () => {
    const dir = await mkdtemp(join(tmpdir(), "nemo-"));
    const out = join(dir, "rows.jsonl");
    const result = await exportNemoGymCommand.run({ out, subset: "smoke" }, []);
    expect(result.json).toMatchObject({ rows: 48 });
    const rows = (await readFile(out, "utf8"))
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(new Set(rows.map((r) => r.type)).size).toBe(12);
    const sum = rows.find((r) => r.longhaul.id === "arith/shuffled/d2/4k/s1")!;
    expect(sum).toMatchObject({
      type: "shuffled_streaming_sum",
      max_operands: 4,
      target_tokens: 2048,
      responses_create_params: { max_output_tokens: 3072, temperature: 0 },
    });
    expect(sum.responses_create_params.input[0].content).toBe(sum.question);
    expect(sum.expressions[0]).toEqual({
      expr: expect.stringMatching(/^\d([+-]\d)+$/),
      answer: expect.any(Number),
    });
    const kv = rows.find((r) => r.type === "csv_kv_lookup")!;
    expect(kv).toMatchObject({ n_vocab: 4, vocab_fraction: 0.125 });
    expect(kv.n_rows).toBeGreaterThan(1);

    // Rollouts answering with the oracle's and drop-one's outputs score as in longhaul.
    for (const kind of ["oracle", "drop-one"] as const) {
      const docs = rows.map((r) => generateDocument(DocumentParams.parse(r.longhaul.params)));
      const rollouts = rows.map((r, i) => ({
        ...r,
        response: response(referenceOutput(kind, docs[i]!.expected)),
      }));
      const scores = scoreRollouts(jsonl(rollouts), "r.jsonl", "reference");
      scores.forEach((s, i) => {
        const doc = docs[i]!;
        const own = scoreOutput(doc.expected, referenceOutput(kind, doc.expected));
        expect([s.id, s.score.correct, s.score.records]).toEqual([
          doc.id,
          own.correct,
          own.records,
        ]);
      });
      if (kind === "oracle") expect(scores.every((s) => s.score.exact)).toBe(true);
    }
  });

  it("exports chosen ids, and refuses an unknown subset or a missing --out", async () => {
    const dir = await mkdtemp(join(tmpdir(), "nemo-"));
    const out = join(dir, "rows.jsonl");
    const one = await exportNemoGymCommand.run({ out }, ["table/permute-hex/d1/4k/s2"]);
    expect(one.json).toMatchObject({ rows: 1, ids: ["table/permute-hex/d1/4k/s2"] });
    const [row] = (await readFile(out, "utf8"))
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(row).toMatchObject({ type: "csv_permutation_heterogeneous", perm_fraction: 0.2 });
    expect(row.expected_output.split("\n")[0]).toMatch(/^,\[C\d+\],/);
    await expect(exportNemoGymCommand.run({ out, subset: "nope" }, [])).rejects.toThrow(
      /unknown subset "nope"/,
    );
    await expect(exportNemoGymCommand.run({}, [])).rejects.toThrow(/needs --out/);
  });
});
