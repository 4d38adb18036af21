/**
 * What a command sees of its invocation: the output streams (injected, so tests run the CLI in
 * process), the arguments, the global options and the exit code it sets.
 */
import type { Command } from "commander";
import type { Redactor } from "../core/redact.ts";
import type { Cell } from "../core/report-model.ts";

/** A stream the CLI writes to; process.stdout and process.stderr are ones. */
export interface Writer {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Where an invocation writes. */
export interface CliIo {
  stdout: Writer;
  stderr: Writer;
}

/** One invocation of the CLI, shared by the commands. */
export class CliContext {
  /** Set by a command that finished but must exit non-zero (130 interrupted, 1 --fail-under). */
  exitCode = 0;

  constructor(
    /** The invocation's streams, already passing through `redactor`. */
    readonly io: CliIo,
    readonly argv: readonly string[],
    private readonly program: Command,
    /** Secrets kept out of everything printed or written; commands add what they learn. */
    readonly redactor: Redactor,
    /**
     * Run this invocation again in a child Node process with more Node flags and resolve with
     * its exit code: only the real executable (bin.ts) can; a CLI run in process cannot.
     */
    readonly relaunch?: (nodeFlags: readonly string[]) => Promise<number>,
  ) {}

  /** Print a line on stdout. */
  println(text = ""): void {
    this.io.stdout.write(`${text}\n`);
  }

  /** Print a value as pretty JSON on stdout. */
  printJson(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** How commands get suites: through the compile cache unless --no-cache. */
  get suiteOptions(): { cache: boolean } {
    return { cache: this.program.opts().cache !== false };
  }
}

/** A writer whose text passes through `redact` first (isTTY and columns stay the stream's). */
export function redactingWriter(writer: Writer, redact: (text: string) => string): Writer {
  return {
    write: (text: string) => writer.write(redact(text)),
    get isTTY() {
      return writer.isTTY;
    },
    get columns() {
      return writer.columns;
    },
  };
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
