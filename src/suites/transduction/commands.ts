/**
 * Suite commands: `export doc` writes a generated document as JSON and `export nemo-gym`
 * writes documents as rows of the reference harness; `score` scores an output produced
 * anywhere against an exported document, or a JSONL of rollouts in the reference's row shape.
 */
import { createWriteStream } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { finished } from "node:stream/promises";
import { z } from "zod";
import { LonghaulError, parseOrThrow, type SuiteCommand } from "../../core/index.ts";
import { groupBy, mean } from "../../metrics/index.ts";
import { generateDocument } from "./document.ts";
import { ExpectedOutput } from "./expected.ts";
import { nemoGymRow, type RolloutScore, scoreRollouts } from "./nemo-gym.ts";
import {
  DEFAULT_SEED,
  DEFAULT_TOKENIZER,
  DocumentParams,
  parseTaskId,
  type ScoringMode,
} from "./params.ts";
import { compileGrid, SUBSETS } from "./specs.ts";
import { type DocumentScore, scoreOutput } from "./verify.ts";

/** The part of an exported document the scorer needs; other fields are ignored. */
export const ScorableDocument = z.looseObject({ id: z.string(), expected: ExpectedOutput });

type Options = Record<string, string | boolean | undefined>;

async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new LonghaulError(
      "NOT_FOUND",
      `cannot read ${what} ${path}: ${(error as Error).message}`,
    );
  }
}

function stringOption(options: Options, name: string) {
  const value = options[name];
  return typeof value === "string" ? value : undefined;
}

const modeOf = (options: Options): ScoringMode =>
  options.strict === true ? "strict" : "reference";
const fixed = (x: number | null) => (x === null ? "-" : x.toFixed(4));

function documentLines(id: string, score: DocumentScore, mode: ScoringMode): string {
  return [
    `${id}: ${score.correct}/${score.records} records correct (accuracy ${score.accuracy.toFixed(4)}, ${mode} scoring)`,
    `exact completion: ${score.exact ? "yes" : "no"}`,
    `by tenth: ${score.positions.map((p) => (p === null ? "-" : p.toFixed(2))).join(" ")}`,
    ...(score.selfConsistency === null
      ? []
      : [`self-consistency: ${fixed(score.selfConsistency)}`]),
  ].join("\n");
}

/** Per-row lines and aggregates of scored rollouts; rollouts weigh equally, as the reference's. */
function rolloutReport(scores: RolloutScore[], mode: ScoringMode) {
  const summary = (group: RolloutScore[]) => ({
    rollouts: group.length,
    accuracy: mean(group.map((s) => s.score.accuracy)),
    reward: mean(group.map((s) => s.reward)),
    exact: group.filter((s) => s.score.exact).length,
  });
  const recorded = scores.filter((s) => s.recordedReward !== null);
  const agreeing = recorded.filter((s) => Math.abs(s.reward - s.recordedReward!) < 1e-9);
  const aggregate = {
    scoring: mode,
    ...summary(scores),
    byType: Object.fromEntries(
      [...groupBy(scores, (s) => s.type)].map(([k, g]) => [k, summary(g)]),
    ),
    byTargetTokens: Object.fromEntries(
      [
        ...groupBy(
          scores.filter((s) => s.targetTokens !== null),
          (s) => String(s.targetTokens),
        ),
      ].map(([k, g]) => [k, summary(g)]),
    ),
    recordedRewards: { rows: recorded.length, agreeing: agreeing.length },
  };
  const rows = scores.map((s) => ({
    line: s.line,
    type: s.type,
    id: s.id,
    targetTokens: s.targetTokens,
    records: s.score.records,
    correct: s.score.correct,
    accuracy: s.score.accuracy,
    reward: s.reward,
    recordedReward: s.recordedReward,
    exact: s.score.exact,
    selfConsistency: s.score.selfConsistency,
  }));
  const text = [
    ...rows.map(
      (r) =>
        `line ${r.line} ${r.type}${r.id ? ` ${r.id}` : ""}: ${r.correct}/${r.records} correct, accuracy ${fixed(r.accuracy)}, reward ${fixed(r.reward)}${r.recordedReward === null ? "" : ` (recorded ${fixed(r.recordedReward)})`}${r.exact ? ", exact" : ""}`,
    ),
    "",
    `${aggregate.rollouts} rollouts (${mode} scoring): accuracy ${fixed(aggregate.accuracy)}, reward ${fixed(aggregate.reward)}, exactly complete ${aggregate.exact}`,
    ...Object.entries(aggregate.byType).map(
      ([type, g]) =>
        `  ${type}: ${g.rollouts} rollouts, accuracy ${fixed(g.accuracy)}, reward ${fixed(g.reward)}`,
    ),
    ...Object.entries(aggregate.byTargetTokens).map(
      ([t, g]) => `  target_tokens ${t}: ${g.rollouts} rollouts, accuracy ${fixed(g.accuracy)}`,
    ),
    ...(recorded.length > 0
      ? [`recorded rewards: ${agreeing.length} of ${recorded.length} rows agree with this verifier`]
      : []),
    "accuracy counts a record right when all of it is (arithmetic: copy and value), as the paper; reward is the reference's answer-only score",
  ].join("\n");
  return { text, json: { rows, aggregate } };
}

/**
 * `longhaul score transduction --doc DOC.json --output FILE [--strict]` or
 * `longhaul score transduction --rollouts FILE.jsonl [--strict]`.
 */
export const scoreCommand: SuiteCommand = {
  name: "score",
  description: "Score an output against an exported transduction document, or a rollouts JSONL",
  options: [
    { flag: "--doc <file>", description: "document JSON (from `export doc`)" },
    { flag: "--output <file>", description: "the model's output text for --doc" },
    {
      flag: "--rollouts <file>",
      description: "JSONL of rollouts in the NeMo Gym long_transduction row shape",
    },
    { flag: "--strict", description: "exact text matching instead of the reference tolerances" },
  ],
  async run(options) {
    const mode = modeOf(options);
    const rollouts = stringOption(options, "rollouts");
    const docPath = stringOption(options, "doc");
    const outputPath = stringOption(options, "output");
    if (rollouts) {
      if (docPath || outputPath) {
        throw new LonghaulError(
          "USAGE",
          "score takes --rollouts, or --doc with --output, not both",
        );
      }
      return rolloutReport(
        scoreRollouts(await readText(rollouts, "rollouts"), rollouts, mode),
        mode,
      );
    }
    if (!docPath || !outputPath) {
      throw new LonghaulError("USAGE", "score needs --doc and --output, or --rollouts");
    }
    let json: unknown;
    try {
      json = JSON.parse(await readText(docPath, "document"));
    } catch (error) {
      if (error instanceof LonghaulError) throw error;
      throw new LonghaulError(
        "INVALID_INPUT",
        `${docPath} is not JSON: ${(error as Error).message}`,
      );
    }
    const doc = parseOrThrow(ScorableDocument, json, `document ${docPath}`);
    const score = scoreOutput(doc.expected, await readText(outputPath, "output"), mode);
    return {
      text: documentLines(doc.id, score, mode),
      json: { id: doc.id, scoring: mode, ...score },
    };
  },
};

const seedAndTokenizer = [
  { flag: "--seed <seed>", description: `root seed (default ${DEFAULT_SEED})` },
  {
    flag: "--tokenizer <name>",
    description: `${DEFAULT_TOKENIZER} (default) or o200k_base`,
  },
];

/** `longhaul export doc transduction ID [--out FILE] [--seed S] [--tokenizer T]`. */
export const exportCommand: SuiteCommand = {
  name: "export-doc",
  description: "Write one generated transduction document as JSON (prompt and required output)",
  options: [
    { flag: "--out <path>", description: "doc: write it here instead of printing it" },
    ...seedAndTokenizer,
  ],
  async run(options, args) {
    if (args.length !== 1) {
      throw new LonghaulError(
        "USAGE",
        "export doc takes one task id, e.g. arith/ordered/d2/16k/s3",
      );
    }
    const params = parseOrThrow(
      DocumentParams,
      {
        ...parseTaskId(args[0]!),
        seed: stringOption(options, "seed") ?? DEFAULT_SEED,
        tokenizer: stringOption(options, "tokenizer") ?? DEFAULT_TOKENIZER,
      },
      "export options",
    );
    const doc = generateDocument(params);
    const json = JSON.stringify(doc);
    const out = stringOption(options, "out");
    if (out) await writeFile(out, `${json}\n`);
    const summary = { id: doc.id, tokens: doc.tokens, records: doc.expected.rows.length };
    return { text: out ? `wrote ${doc.id} to ${out}` : json, json: out ? summary : doc };
  },
};

/**
 * `longhaul export nemo-gym transduction [IDS...] [--subset S] --out FILE`: documents as
 * rows of the reference harness's JSONL, written one by one (the full grid is large).
 */
export const exportNemoGymCommand: SuiteCommand = {
  name: "export-nemo-gym",
  description: "Write documents as NeMo Gym long_transduction JSONL rows",
  options: [
    { flag: "--out <path>", description: "nemo-gym: the JSONL file to write", required: true },
    {
      flag: "--subset <name>",
      description: "nemo-gym: only this subset (e.g. smoke, 4k, arith, kv)",
    },
    ...seedAndTokenizer,
  ],
  async run(options, args) {
    const out = stringOption(options, "out");
    if (!out) throw new LonghaulError("USAGE", "export nemo-gym needs --out");
    const subset = stringOption(options, "subset");
    if (subset !== undefined && !SUBSETS[subset]) {
      throw new LonghaulError(
        "USAGE",
        `unknown subset "${subset}" (${Object.keys(SUBSETS).join(", ")})`,
      );
    }
    const compile: Record<string, string> = {};
    for (const key of ["seed", "tokenizer"]) {
      const value = stringOption(options, key);
      if (value !== undefined) compile[key] = value;
    }
    const wanted = new Set(args);
    for (const id of wanted) parseTaskId(id);
    const specs = compileGrid(compile).filter(
      (s) => (!subset || SUBSETS[subset]!(s)) && (wanted.size === 0 || wanted.has(s.id)),
    );
    if (specs.length === 0) throw new LonghaulError("USAGE", "no documents match");
    const stream = createWriteStream(out);
    const progress = process.stderr.isTTY === true;
    for (const [i, spec] of specs.entries()) {
      const row = nemoGymRow(generateDocument(spec.payload.document));
      if (!stream.write(`${JSON.stringify(row)}\n`)) {
        await new Promise<void>((resolve) => stream.once("drain", () => resolve()));
      }
      if (progress) process.stderr.write(`\rexported ${i + 1}/${specs.length} documents`);
    }
    if (progress) process.stderr.write("\n");
    stream.end();
    await finished(stream);
    return {
      text: `wrote ${specs.length} NeMo Gym rows to ${out}`,
      json: { rows: specs.length, out, ids: specs.map((s) => s.id) },
    };
  },
};
