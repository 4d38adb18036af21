/**
 * Token statistics of a set of documents for `longhaul stats transduction`: per horizon, per
 * task and horizon, and per cell, mean prompt and required-output tokens and record counts,
 * each table naming the tokenizer. Documents are
 * generated (that is the only way to know their size) and dropped one by one.
 */
import type { ReportTable, StatsModel, TaskSpec } from "../../core/index.ts";
import { groupBy, mean } from "../../metrics/index.ts";
import { generateDocument } from "./document.ts";
import type { TaskPayload } from "./params.ts";

interface Sizes {
  prompt: number;
  output: number;
  records: number;
  target: number;
}

const round = (x: number) => Math.round(x);

/** A group's key columns (tab-separated), its size and its mean prompt, output and records. */
function meanRow(key: string, docs: { sizes: Sizes }[]) {
  return [
    ...key.split("\t"),
    docs.length,
    round(mean(docs.map((d) => d.sizes.prompt))),
    round(mean(docs.map((d) => d.sizes.output))),
    round(mean(docs.map((d) => d.sizes.records))),
  ];
}

/** Per-cell and per-horizon token statistics of the documents the specs describe. */
export function transductionStats(specs: TaskSpec<TaskPayload>[]): StatsModel {
  const sized = specs.map((spec) => {
    const doc = generateDocument(spec.payload.document);
    const sizes: Sizes = {
      prompt: doc.tokens.prompt,
      output: doc.tokens.output,
      records: doc.expected.rows.length,
      target: doc.tokens.target,
    };
    return { params: spec.payload.document, sizes };
  });

  const cells = groupBy(sized, ({ params: p }) =>
    [p.task, p.format, `d${p.difficulty}`, `${p.horizonK}K`].join("\t"),
  );
  // Every figure depends on the encoding: say which one, in every table.
  const tokenizers = [...new Set(sized.map((d) => d.params.tokenizer))].join(", ") || "none";
  const cellTable: ReportTable = {
    title: `Token statistics per cell (${tokenizers})`,
    columns: [
      "task",
      "format or variant",
      "difficulty",
      "horizon",
      "documents",
      "prompt",
      "output",
      "records",
    ],
    formats: ["text", "text", "text", "text", "int", "int", "int", "int"],
    rows: [...cells].map(([key, docs]) => meanRow(key, docs)),
  };

  const horizons = groupBy(sized, ({ params }) => String(params.horizonK));
  const horizonRows = [...horizons].map(([h, docs]) => {
    const deviation = Math.max(
      ...docs.map((d) => Math.abs((d.sizes.prompt + d.sizes.output) / d.sizes.target - 1)),
    );
    return {
      h,
      prompt: mean(docs.map((d) => d.sizes.prompt)),
      output: mean(docs.map((d) => d.sizes.output)),
      row: [
        `${h}K`,
        docs.length,
        docs[0]!.sizes.target,
        round(mean(docs.map((d) => d.sizes.prompt))),
        round(mean(docs.map((d) => d.sizes.output))),
        round(mean(docs.map((d) => d.sizes.records))),
        deviation,
      ],
    };
  });
  const horizonTable: ReportTable = {
    title: `Token statistics per horizon (${tokenizers})`,
    caption: `Mean prompt and required-output tokens counted with ${tokenizers}; worst deviation of their sum from the target.`,
    columns: ["horizon", "documents", "target", "prompt", "output", "records", "max deviation"],
    formats: ["text", "int", "int", "int", "int", "int", "rate"],
    rows: horizonRows.map((r) => r.row),
  };

  const byTask = groupBy(sized, ({ params }) => `${params.task}\t${params.horizonK}K`);
  const taskTable: ReportTable = {
    title: `Token statistics per task and horizon (${tokenizers})`,
    columns: ["task", "horizon", "documents", "prompt", "output", "records"],
    formats: ["text", "text", "int", "int", "int", "int"],
    rows: [...byTask].map(([key, docs]) => meanRow(key, docs)),
  };

  const largest = horizonRows.reduce<(typeof horizonRows)[number] | undefined>(
    (best, r) => (best === undefined || Number(r.h) > Number(best.h) ? r : best),
    undefined,
  );
  return {
    suite: "transduction",
    tables: [horizonTable, taskTable, cellTable],
    summary: {
      documents: sized.length,
      largestHorizonK: largest ? Number(largest.h) : 0,
      meanPromptTokensAtLargest: largest ? round(largest.prompt) : 0,
      meanOutputTokensAtLargest: largest ? round(largest.output) : 0,
    },
  };
}
