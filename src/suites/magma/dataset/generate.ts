/**
 * `longhaul dataset magma`: MAGMA-Bench's training set (§4.4) generated off-policy from expert
 * traces: training tasks on their own seed stream (checked disjoint from the evaluation specs),
 * every expert decision as a next-decision row with the magma harness prompt, two augmented
 * variants per row (instruction paraphrase, consistent renaming), a grouped 95/5 split, written
 * task by task through the SFT writer (src/training) in both row formats, then a manifest.
 */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import {
  LonghaulError,
  type Observation,
  type Renderer,
  Rng,
  type TaskSpec,
} from "../../../core/index.ts";
import {
  AuthorsLineEncoder,
  ChatLineEncoder,
  type DecisionSample,
  type RenderedBatch,
  type RowFormat,
  SftWriter,
  splitOf,
  type WriterSummary,
  writeManifest,
} from "../../../training/index.ts";
import { DEFAULT_SEED as EVALUATION_SEED } from "../compiler.ts";
import { FAMILIES } from "../families/index.ts";
import { magmaRenderer } from "../renderer.ts";
import type { MagmaPayload } from "../types.ts";
import { disjointFingerprint, evaluationFingerprints, type Fingerprints } from "./disjoint.ts";
import { paraphrase } from "./paraphrase.ts";
import { renderInWorkers } from "./pool.ts";
import { type RenameMap, renameCard, renameMap, renameStep } from "./rename.ts";
import { MIN_DECISIONS, TRAINING_FAMILIES, type TrainingTask, trainingTask } from "./tasks.ts";

/** Bumped whenever the same options would give different rows. */
export const GENERATOR_VERSION = "1.0.0";
export const DEFAULT_DATASET_SEED = "magma-train-1";
/** The paper's export: 261,646 training and 13,574 validation rows (§4.4). */
export const PAPER_ROWS = { train: 261_646, validation: 13_574 } as const;
/** Rows per source decision: the row itself and its two augmented variants. */
export const VARIANTS = ["source", "paraphrase", "rename"] as const;
export type Variant = (typeof VARIANTS)[number];

/** What to generate. */
export interface DatasetOptions {
  /** Output directory: magma.jsonl, magma.val.jsonl, magma.authors*.jsonl, magma.manifest.json. */
  outDir: string;
  seed?: string;
  /** Exactly this many tasks; otherwise tasks until `scale` x the paper's rows. */
  tasks?: number;
  /** Share of the paper's row count to reach (default 1). */
  scale?: number;
  formats?: readonly RowFormat[];
  valFraction?: number;
  /** The evaluation specs the training tasks must differ from (the compiled magma suite). */
  evaluation: readonly TaskSpec<MagmaPayload>[];
  /** Worker threads building and rendering tasks (the files are the same whatever N). */
  workers?: number;
  /** Called after every task. */
  onProgress?: (p: DatasetProgress) => void;
}

/** Progress of a generation. */
export interface DatasetProgress {
  tasks: number;
  rows: number;
  /** Rows aimed at (null with an exact --tasks count). */
  targetRows: number | null;
  tasksTotal: number | null;
}

/** What a generation wrote. */
export interface DatasetResult {
  manifest: string;
  seed: string;
  generatorVersion: string;
  tasks: { total: number; byFamily: Record<string, number>; byCondition: Record<string, number> };
  decisions: { min: number; max: number; mean: number };
  rows: WriterSummary["rows"];
  groups: WriterSummary["groups"];
  families: WriterSummary["families"];
  files: WriterSummary["files"];
}

/** The harness renderer with each observation's prompt computed once (chat rows repeat them). */
function memoized(renderer: Renderer): Renderer {
  const cache = new WeakMap<Observation, string>();
  return {
    ...renderer,
    user(observation, state) {
      let text = cache.get(observation);
      if (text === undefined) {
        text = renderer.user(observation, state);
        cache.set(observation, text);
      }
      return text;
    },
  };
}

/** The latest user utterance a row shows: in the current batch, else in the history. */
function latestUtterance(
  steps: TrainingTask["steps"],
  i: number,
): { step: number; event: number } | null {
  for (let s = i; s >= 0; s--) {
    const events = (steps[s] as TrainingTask["steps"][number]).observation.events;
    for (let e = events.length - 1; e >= 0; e--)
      if (events[e]?.type === "user" && events[e]?.text) return { step: s, event: e };
  }
  return null;
}

/** Source rows of one task, each followed by its paraphrased and renamed variants. */
export function* taskSamples(
  task: TrainingTask,
  group: string,
  seed: string,
  renderer: Renderer = memoized(magmaRenderer),
): Generator<DecisionSample & { variant: Variant }> {
  const family = (FAMILIES[task.family] as (typeof FAMILIES)[string]).family;
  const rng = new Rng(seed, `augment/${task.id}`);
  const renamed = new Map<1 | 2, { card: TrainingTask["card"]; steps: TrainingTask["steps"] }>();
  const world = (variant: 1 | 2) => {
    let w = renamed.get(variant);
    if (!w) {
      const map: RenameMap = renameMap(family, task.spec.payload, variant);
      w = {
        card: renameCard(task.card, map),
        steps: task.steps.map((s) => renameStep(s, map)),
      };
      renamed.set(variant, w);
    }
    return w;
  };
  const base = { renderer, group, family: task.family };
  for (const [i, step] of task.steps.entries()) {
    const source = { episodeId: task.id, taskId: task.id };
    const before = task.steps.slice(0, i);
    yield { ...base, card: task.card, before, step, source, variant: "source" };
    // Paraphrase: the latest user utterance, and nothing else, in other words.
    // One stream per task, drawn in row order (deriving a stream per row costs a hash each).
    const at = latestUtterance(task.steps, i);
    if (at) {
      const orig = task.steps[at.step] as TrainingTask["steps"][number];
      const events = orig.observation.events.slice();
      const event = events[at.event] as Observation["events"][number];
      const text = event.text as string;
      events[at.event] = {
        ...event,
        text: paraphrase(text, task.phrasings.get(text), rng),
      };
      const changed = { ...orig, observation: { ...orig.observation, events } };
      const para = at.step === i ? changed : step;
      const history = at.step === i ? before : before.map((s, k) => (k === at.step ? changed : s));
      yield {
        ...base,
        card: task.card,
        before: history,
        step: para,
        source,
        variant: "paraphrase",
      };
    } else {
      yield { ...base, card: task.card, before, step, source, variant: "paraphrase" };
    }
    const w = world(rng.chance(0.5) ? 1 : 2);
    yield {
      ...base,
      card: w.card,
      before: w.steps.slice(0, i),
      step: w.steps[i] as TrainingTask["steps"][number],
      source,
      variant: "rename",
    };
  }
}

/** Source rows the default scale aims at: the paper's rows over three variants per decision. */
export function targetSourceRows(scale: number): number {
  return Math.ceil(((PAPER_ROWS.train + PAPER_ROWS.validation) * scale) / VARIANTS.length);
}

/** The split group of a task: its definition (fingerprint), arguments and seed (§4.4). */
export function groupOf(task: TrainingTask, fingerprint: string): string {
  return `${task.family}/${fingerprint.slice(0, 16)}/${task.spec.seed}`;
}

/** Refuse the evaluation set's seed (§4.4: "from distinct seeds"). */
export function checkTrainingSeed(seed: string): void {
  if (seed === EVALUATION_SEED)
    throw new LonghaulError(
      "USAGE",
      `--seed ${seed} is the evaluation set's seed; training seeds must be distinct (§4.4)`,
    );
}

/** What rendering a task needs besides its index. */
export interface TaskContext {
  seed: string;
  formats: readonly RowFormat[];
  valFraction: number;
  evaluation: Fingerprints;
}

/** One task's rows, joined per format, with what the manifest counts. */
export interface TaskBatch extends RenderedBatch {
  index: number;
  condition: string;
  decisions: number;
  rejected: Record<string, number>;
}

/** Build task `index`, check it against the evaluation set and render all its rows. */
export function renderTask(index: number, ctx: TaskContext): TaskBatch {
  const task = trainingTask(ctx.seed, index);
  const fingerprint = disjointFingerprint(
    { id: task.id, payload: task.spec.payload },
    ctx.evaluation,
  );
  const group = groupOf(task, fingerprint);
  const encoders = { openai: new ChatLineEncoder(), authors: new AuthorsLineEncoder() };
  const parts: Record<RowFormat, Buffer[]> = { openai: [], authors: [] };
  let rows = 0;
  for (const sample of taskSamples(task, group, ctx.seed)) {
    for (const format of ctx.formats) parts[format].push(...encoders[format].parts(sample));
    rows++;
  }
  const lines: TaskBatch["lines"] = {};
  for (const format of ctx.formats) lines[format] = Buffer.concat(parts[format]);
  return {
    index,
    split: splitOf(group, ctx.valFraction, ctx.seed),
    family: task.family,
    group,
    rows,
    lines,
    condition: task.condition,
    decisions: task.steps.length,
    rejected: task.rejected,
  };
}

/** Generate the dataset, streaming it to disk task by task. */
export async function generateMagmaDataset(options: DatasetOptions): Promise<DatasetResult> {
  const seed = options.seed ?? DEFAULT_DATASET_SEED;
  checkTrainingSeed(seed);
  const scale = options.scale ?? 1;
  if (options.tasks === undefined && !(scale > 0))
    throw new LonghaulError("USAGE", `--scale must be positive, got ${scale}`);
  const formats = options.formats ?? ["openai", "authors"];
  const valFraction = options.valFraction ?? 0.05;
  const ctx: TaskContext = {
    seed,
    formats,
    valFraction,
    evaluation: evaluationFingerprints(options.evaluation),
  };
  const out = join(options.outDir, "magma.jsonl");
  const writer = new SftWriter({ out, formats, valFraction, seed });
  const targetRows = options.tasks === undefined ? targetSourceRows(scale) : null;
  const byFamily: Record<string, number> = {};
  const byCondition: Record<string, number> = {};
  const rejected: Record<string, number> = {};
  let sourceRows = 0;
  let rows = 0;
  let tasks = 0;
  let minD = Number.POSITIVE_INFINITY;
  let maxD = 0;
  const more = () =>
    options.tasks !== undefined ? tasks < options.tasks : sourceRows < (targetRows as number);
  const write = (batch: TaskBatch) => {
    writer.writeBatch(batch);
    rows += batch.rows;
    tasks++;
    sourceRows += batch.decisions;
    minD = Math.min(minD, batch.decisions);
    maxD = Math.max(maxD, batch.decisions);
    byFamily[batch.family] = (byFamily[batch.family] ?? 0) + 1;
    byCondition[batch.condition] = (byCondition[batch.condition] ?? 0) + 1;
    for (const [why, n] of Object.entries(batch.rejected)) rejected[why] = (rejected[why] ?? 0) + n;
    options.onProgress?.({
      tasks,
      rows,
      targetRows: targetRows === null ? null : targetRows * VARIANTS.length,
      tasksTotal: options.tasks ?? null,
    });
  };
  try {
    const workers = Math.min(options.workers ?? 1, availableParallelism());
    if (workers > 1) await renderInWorkers(ctx, workers, more, write);
    else for (let index = 0; more(); index++) write(renderTask(index, ctx));
  } catch (error) {
    writer.close();
    throw error;
  }
  const summary = writer.close();
  const result: Omit<DatasetResult, "manifest"> = {
    seed,
    generatorVersion: GENERATOR_VERSION,
    tasks: { total: tasks, byFamily, byCondition },
    decisions: { min: tasks ? minD : 0, max: maxD, mean: tasks ? sourceRows / tasks : 0 },
    rows: summary.rows,
    groups: summary.groups,
    families: summary.families,
    files: summary.files,
  };
  const manifest = writeManifest(out, {
    generator: { name: "longhaul dataset magma", version: GENERATOR_VERSION },
    paper: { section: "MAGMA-Bench 4.4", rows: PAPER_ROWS },
    options: {
      tasks: options.tasks ?? null,
      workers: options.workers ?? 1,
      scale: options.tasks === undefined ? scale : null,
      formats,
      valFraction,
    },
    trainingFamilies: TRAINING_FAMILIES,
    heldOut: ["packaging"],
    minDecisions: MIN_DECISIONS,
    variants: VARIANTS,
    excluded: ["stochastic skill failures", "missed detections (partial observation)"],
    disjointness: {
      evaluationSpecs: options.evaluation.length,
      evaluationSeed: EVALUATION_SEED,
      checked: tasks,
      overlaps: 0,
    },
    attemptsRejected: rejected,
    ...result,
    files: summary.files,
  });
  return { manifest, ...result };
}
