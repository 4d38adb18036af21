/**
 * Suite commands: `export` writes a generated document as JSON (for other harnesses);
 * `score` scores an output produced anywhere against such a document.
 */
import { readFile, writeFile } from "node:fs/promises";
import { z } from "zod";
import { LonghaulError, parseOrThrow, type SuiteCommand } from "../../core/index.ts";
import { generateDocument } from "./document.ts";
import { ExpectedOutput } from "./expected.ts";
import { DEFAULT_SEED, DocumentParams, parseTaskId } from "./params.ts";
import { scoreOutput } from "./verify.ts";

/** The part of an exported document the scorer needs; other fields are ignored. */
export const ScorableDocument = z.looseObject({ id: z.string(), expected: ExpectedOutput });

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

function stringOption(options: Record<string, string | boolean | undefined>, name: string) {
  const value = options[name];
  return typeof value === "string" ? value : undefined;
}

function required(options: Record<string, string | boolean | undefined>, name: string): string {
  const value = stringOption(options, name);
  if (!value) throw new LonghaulError("USAGE", `missing --${name}`);
  return value;
}

/** `longhaul score transduction --doc DOC.json --output FILE`. */
export const scoreCommand: SuiteCommand = {
  name: "score",
  description: "Score an output file against an exported transduction document",
  options: [
    { flag: "--doc <file>", description: "document JSON (from `export`)", required: true },
    { flag: "--output <file>", description: "the model's output text", required: true },
  ],
  async run(options) {
    const docPath = required(options, "doc");
    const outputPath = required(options, "output");
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
    const score = scoreOutput(doc.expected, await readText(outputPath, "output"));
    const text = [
      `${doc.id}: ${score.correct}/${score.records} records correct (accuracy ${score.accuracy.toFixed(4)})`,
      `exact completion: ${score.exact ? "yes" : "no"}`,
      `by tenth: ${score.positions.map((p) => (p === null ? "-" : p.toFixed(2))).join(" ")}`,
      ...(score.selfConsistency === null
        ? []
        : [`self-consistency: ${score.selfConsistency.toFixed(4)}`]),
    ].join("\n");
    return { text, json: { id: doc.id, ...score } };
  },
};

/** `longhaul export doc transduction ID [--out FILE] [--seed S] [--tokenizer T]`. */
export const exportCommand: SuiteCommand = {
  name: "export-doc",
  description: "Write one generated transduction document as JSON (prompt and required output)",
  options: [
    { flag: "--out <path>", description: "write the document here instead of printing it" },
    { flag: "--seed <seed>", description: `root seed (default ${DEFAULT_SEED})` },
    { flag: "--tokenizer <name>", description: "o200k_base (default) or cl100k_base" },
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
        tokenizer: stringOption(options, "tokenizer") ?? "o200k_base",
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
