/**
 * The required output of a document, and its one canonical rendering as text. The syntax is
 * the authors' reference implementation's: numbered lines start with `[N]`, arithmetic lines
 * copy the expression before `=value`, identifier lists are comma-separated, and tables are
 * CSV with a `,[C0],[C1],...` header and a `[R0]`-style label opening every row.
 */
import { z } from "zod";
import { TASKS, type TaskName } from "./params.ts";

/**
 * One required row. `cells` holds, by task: arith `[expression, value]`; uuid the sorted
 * identifiers; lookup `[resolved expression]`; table the data cells (the scored records).
 */
const ExpectedRow = z
  .object({
    id: z.number().int().positive(),
    label: z.string().optional().describe("table row label, e.g. [R3] (not scored)"),
    cells: z.array(z.string()).min(1),
  })
  .strict();
/** One required output row. */
export type ExpectedRow = z.infer<typeof ExpectedRow>;

/** Required output: rows in the required order, and the output header of a table. */
export const ExpectedOutput = z
  .object({
    task: z.enum(TASKS),
    numbered: z.boolean().describe("line tasks: output lines carry [N] ids, matched by id"),
    header: z.array(z.string()).describe("table column labels in output order (not scored)"),
    rows: z.array(ExpectedRow),
  })
  .strict();
/** Required output of a document. */
export type ExpectedOutput = z.infer<typeof ExpectedOutput>;

/** `[7]text` in numbered formats, `text` otherwise. */
export function numberedLine(numbered: boolean, id: number, text: string): string {
  return numbered ? `[${id}]${text}` : text;
}

/** What a record line says after its `[N]` prefix, in the task's output syntax. */
export function recordText(task: TaskName, cells: readonly string[]): string {
  if (task === "arith") return `${cells[0]}=${cells[1]}`;
  return cells.join(",");
}

/** A table's header line: an empty corner cell, then the column labels. */
export function tableHeaderLine(labels: readonly string[]): string {
  return `,${labels.join(",")}`;
}

/** The text of one output row. */
export function outputRowLine(expected: ExpectedOutput, row: ExpectedRow): string {
  if (expected.task === "table") return `${row.label ?? ""},${row.cells.join(",")}`;
  return numberedLine(expected.numbered, row.id, recordText(expected.task, row.cells));
}

/** The exact required output lines (header first for tables), for `rows` (all by default). */
export function outputLines(expected: ExpectedOutput, rows = expected.rows): string[] {
  const lines = rows.map((row) => outputRowLine(expected, row));
  return expected.task === "table" ? [tableHeaderLine(expected.header), ...lines] : lines;
}
