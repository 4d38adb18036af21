/**
 * Streams training rows to JSONL files, one per format and split, with a sha256 and a row
 * count per file and counts per family and split, then writes the manifest. Generator-agnostic:
 * `longhaul export sft` feeds it a run's decisions; an expert-trace generator can feed it its own.
 */
import { createHash, type Hash } from "node:crypto";
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { authorsRow } from "./authors-row.ts";
import { openAiChatRow } from "./openai-chat.ts";
import type { DecisionSample } from "./sample.ts";
import { type Split, splitOf } from "./split.ts";

/** The row formats: OpenAI chat fine-tuning rows and the MAGMA-Bench authors' rows. */
export const ROW_FORMATS = ["openai", "authors"] as const;
export type RowFormat = (typeof ROW_FORMATS)[number];

/** Where rows go and how they are split. */
export interface WriterOptions {
  /** The OpenAI training file, e.g. out/sft.jsonl; the other files are named after it. */
  out: string;
  formats: readonly RowFormat[];
  /** Share of split groups held out for validation (0: everything is training). */
  valFraction: number;
  /** Seed of the split hash. */
  seed: string;
}

/** One written file as the manifest lists it. */
export interface WrittenFile {
  path: string;
  format: RowFormat;
  split: Split;
  rows: number;
  bytes: number;
  sha256: string;
}

/** What a writer wrote. */
export interface WriterSummary {
  rows: Record<Split, number>;
  /** Rows per family and split (one count per decision, whatever the number of formats). */
  families: Record<string, Record<Split, number>>;
  groups: Record<Split, number>;
  files: WrittenFile[];
}

class JsonlFile {
  rows = 0;
  bytes = 0;
  private readonly fd: number;
  private readonly hash: Hash = createHash("sha256");

  constructor(readonly path: string) {
    this.fd = openSync(path, "w");
  }

  /**
   * Append one row's line (ending in a newline). The string goes straight to the hash and the
   * file, each encoding UTF-8 natively: joining lines first, or Buffer.from, cost several times
   * more on the two-byte strings a prompt with one non-Latin-1 character makes.
   */
  write(line: string | Uint8Array, rows = 1): void {
    if (typeof line === "string") {
      this.hash.update(line, "utf8");
      this.bytes += writeSync(this.fd, line);
    } else {
      this.hash.update(line);
      this.bytes += writeSync(this.fd, line);
    }
    this.rows += rows;
  }

  close(): string {
    closeSync(this.fd);
    return this.hash.digest("hex");
  }
}

/** A sample rendered to its JSONL lines and split: pure, so worker threads can make it. */
export interface RenderedSample {
  split: Split;
  family: string;
  group: string;
  /** One line per format, each ending in a newline (a Buffer from the line encoders). */
  lines: Partial<Record<RowFormat, string | Buffer>>;
}

/** Rows of one group, their lines joined per format. */
export interface RenderedBatch extends Omit<RenderedSample, "lines"> {
  rows: number;
  lines: Partial<Record<RowFormat, Uint8Array>>;
}

/** Render a sample in `formats` and pick its group's split. */
export function renderSample(
  sample: DecisionSample,
  options: Pick<WriterOptions, "formats" | "valFraction" | "seed">,
): RenderedSample {
  const lines: RenderedSample["lines"] = {};
  for (const format of options.formats) {
    const row = format === "openai" ? openAiChatRow(sample) : authorsRow(sample);
    lines[format] = `${JSON.stringify(row)}\n`;
  }
  return {
    split: splitOf(sample.group, options.valFraction, options.seed),
    family: sample.family,
    group: sample.group,
    lines,
  };
}

/** The file of a format and split: out.jsonl, out.val.jsonl, out.authors.jsonl, out.authors.val.jsonl. */
export function rowFilePath(out: string, format: RowFormat, split: Split): string {
  const base = out.endsWith(".jsonl") ? out.slice(0, -".jsonl".length) : out;
  return `${base}${format === "authors" ? ".authors" : ""}${split === "validation" ? ".val" : ""}.jsonl`;
}

/** The manifest's path beside the rows: out.manifest.json. */
export function manifestPath(out: string): string {
  const base = out.endsWith(".jsonl") ? out.slice(0, -".jsonl".length) : out;
  return `${base}.manifest.json`;
}

/** Streams rows of both formats; close() returns what was written. */
export class SftWriter {
  private readonly files = new Map<string, JsonlFile>();
  private readonly summary: Omit<WriterSummary, "files"> = {
    rows: { train: 0, validation: 0 },
    families: {},
    groups: { train: 0, validation: 0 },
  };
  private readonly seenGroups = new Set<string>();

  constructor(private readonly options: WriterOptions) {
    mkdirSync(dirname(options.out), { recursive: true });
    const splits: Split[] = options.valFraction > 0 ? ["train", "validation"] : ["train"];
    for (const format of options.formats) {
      for (const split of splits) {
        this.files.set(
          `${format}/${split}`,
          new JsonlFile(rowFilePath(options.out, format, split)),
        );
      }
    }
  }

  /** Write one decision in every format, into its group's split. */
  add(sample: DecisionSample): void {
    this.write(renderSample(sample, this.options));
  }

  /** Write a rendered decision (in the order decisions should appear). */
  write(rendered: RenderedSample): void {
    const { split, family, group, lines } = rendered;
    for (const format of this.options.formats) {
      (this.files.get(`${format}/${split}`) as JsonlFile).write(lines[format] as string | Buffer);
    }
    this.count(split, family, group, 1);
  }

  /**
   * Write a batch of rows of one group whose lines are already joined per format (`rows` lines
   * each), as a generator that renders a whole task at once hands them over.
   */
  writeBatch(batch: RenderedBatch): void {
    const { split, family, group, rows, lines } = batch;
    for (const format of this.options.formats) {
      (this.files.get(`${format}/${split}`) as JsonlFile).write(lines[format] as Uint8Array, rows);
    }
    this.count(split, family, group, rows);
  }

  private count(split: Split, family: string, group: string, rows: number): void {
    this.summary.rows[split] += rows;
    const counts = this.summary.families[family] ?? { train: 0, validation: 0 };
    counts[split] += rows;
    this.summary.families[family] = counts;
    if (!this.seenGroups.has(group)) {
      this.seenGroups.add(group);
      this.summary.groups[split]++;
    }
  }

  /** Close every file; the summary lists them with their row counts and sha256. */
  close(): WriterSummary {
    const files: WrittenFile[] = [];
    for (const [key, file] of this.files) {
      const [format, split] = key.split("/") as [RowFormat, Split];
      const sha256 = file.close();
      files.push({ path: file.path, format, split, rows: file.rows, bytes: file.bytes, sha256 });
    }
    return { ...this.summary, files };
  }
}

/** Write `manifest` beside the rows, naming files relative to it. */
export function writeManifest(
  out: string,
  manifest: Record<string, unknown> & { files: WrittenFile[] },
): string {
  const path = manifestPath(out);
  const files = manifest.files.map((f) => ({ ...f, path: relativeTo(path, f.path) }));
  writeFileSync(path, `${JSON.stringify({ ...manifest, files }, null, 2)}\n`);
  return path;
}

function relativeTo(manifest: string, file: string): string {
  return dirname(file) === dirname(manifest) ? basename(file) : join(dirname(file), basename(file));
}
