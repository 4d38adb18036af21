/**
 * The viewer's side-by-side view of a document (docs/viewer.md): the input the model read, its
 * output, and every required row with what the output stated for it and which records are
 * wrong, as the verifier aligned them (by id, by position, or cell by cell for tables).
 */
import type { EpisodeInspection, TaskSpec, Trace } from "../../core/index.ts";
import { generateDocument } from "./document.ts";
import { outputRowLine } from "./expected.ts";
import type { TaskPayload } from "./params.ts";
import { verifyRows } from "./verify.ts";

/** The document regenerated from the task, the episode's answer and the per-record verdicts. */
export function inspectTransduction(spec: TaskSpec<TaskPayload>, trace: Trace): EpisodeInspection {
  const document = generateDocument(spec.payload.document);
  const { expected } = document;
  const answer = trace.steps.findLast((s) => s.action?.kind === "say")?.action;
  const output = answer?.kind === "say" ? answer.text : null;
  const verdicts = verifyRows(expected, output ?? "", spec.payload.scoring);
  return {
    comparison: {
      input: document.input,
      output,
      rows: expected.rows.map((row, i) => {
        const verdict = verdicts[i];
        return {
          label: expected.task === "table" ? (row.label ?? `[R${i}]`) : `[${row.id}]`,
          expected: outputRowLine(expected, row),
          stated: verdict?.stated ?? null,
          marks: verdict?.marks ?? row.cells.map(() => false),
        };
      }),
    },
  };
}
