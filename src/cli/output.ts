/** Terminal output helpers shared by the commands: JSON, aligned tables, numbers. */
import type { Cell } from "../core/index.ts";

/** Print a value as pretty JSON on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Print a line on stdout. */
export function println(text = ""): void {
  process.stdout.write(`${text}\n`);
}

/** A cell as text: numbers up to 4 significant decimals, null as "-". */
export function cellText(cell: Cell): string {
  if (cell === null) return "-";
  if (typeof cell === "number")
    return Number.isInteger(cell) ? String(cell) : cell.toFixed(4).replace(/0+$/, "");
  return cell;
}

/** Columns padded to their widest cell. */
export function formatTable(columns: string[], rows: Cell[][]): string {
  const text = [columns, ...rows.map((r) => r.map(cellText))];
  const widths = columns.map((_, i) => Math.max(...text.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [
    line(text[0] ?? []),
    line(widths.map((w) => "-".repeat(w))),
    ...text.slice(1).map(line),
  ].join("\n");
}
