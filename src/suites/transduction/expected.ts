/** The required output of a document, and its one canonical rendering as text. */
import { z } from "zod";
import { TASKS } from "./params.ts";

/** Required output: header cells (tables) and rows in the required order, ids ascending. */
export const ExpectedOutput = z
  .object({
    task: z.enum(TASKS),
    numbered: z.boolean(),
    table: z.boolean(),
    header: z.array(z.string()).describe("output header cells without id; empty for lines"),
    rows: z.array(
      z.object({ id: z.number().int().positive(), cells: z.array(z.string()).min(1) }).strict(),
    ),
  })
  .strict();
/** Required output of a document. */
export type ExpectedOutput = z.infer<typeof ExpectedOutput>;

/** One required output row. */
export type ExpectedRow = ExpectedOutput["rows"][number];

/** A record line: `7: text` (numbered lines), `7,text` (numbered CSV) or `text`. */
export function recordLine(
  layout: Pick<ExpectedOutput, "numbered" | "table">,
  id: number,
  text: string,
): string {
  if (!layout.numbered) return text;
  return layout.table ? `${id},${text}` : `${id}: ${text}`;
}

/** A CSV header line, with the id column first in numbered formats. */
export function headerLine(layout: Pick<ExpectedOutput, "numbered">, cells: string[]): string {
  return (layout.numbered ? ["id", ...cells] : cells).join(",");
}

/** The text of one output row. */
export function outputRowLine(expected: ExpectedOutput, row: ExpectedRow): string {
  return recordLine(expected, row.id, row.cells.join(","));
}

/** The exact required output lines (header first for tables), for `rows` (all by default). */
export function outputLines(expected: ExpectedOutput, rows = expected.rows): string[] {
  const lines = rows.map((row) => outputRowLine(expected, row));
  return expected.table ? [headerLine(expected, expected.header), ...lines] : lines;
}
