/**
 * Specs and streams (paper §4.1 and §5): zero-shot episodes of every task; in-context learning
 * and skill learning as ordered streams "learn on the k related basic tasks, then test on the
 * advanced task" (budget: shortest path + 6 extra steps when learning, + 3 when testing). The
 * studies are compile options: k (0..6 learning samples, k = 0 being zero-shot), extra (0..6
 * extra testing steps) and complexity (3..6 atomic goals per advanced task).
 */
import { LonghaulError, type StreamPlan, type TaskSpec } from "../../core/index.ts";
import { generatedGraph } from "./episode-graph.ts";
import {
  ADVANCED_GOALS,
  complexityVariant,
  type GeneratedTasks,
  generateTasks,
  MAX_RELATED,
} from "./generator.ts";
import { type ImportedTask, importedGraph, loadSource } from "./import.ts";
import {
  type ContinualPayload,
  DEFAULT_K,
  type GeneratedTask,
  LEARN_EXTRA,
  SETTINGS,
  type Setting,
  TEST_EXTRA,
} from "./payload.ts";
import type { TaskDef } from "./task.ts";

/** The root seed of the generated benchmark. */
export const DEFAULT_SEED = "embodiedclbench-v1";

/** Compile options (`--compile key=value`); lists as "2", "1,2,4" or "0-6". */
export interface ContinualCompileOptions {
  seed?: string;
  /** Settings to compile (default all three). */
  settings?: string;
  /** Learning tasks per advanced task (default 2). */
  k?: string | number;
  /** Extra testing steps (default 3). */
  extra?: string | number;
  /** Extra learning steps (default 6). */
  learnExtra?: string | number;
  /** Atomic goals per advanced task (default 4). */
  complexity?: string | number;
  /** A directory of the authors' released data to run instead of the generated tasks. */
  source?: string;
  /** The choice bank file, when it is not in the source directory. */
  choiceBank?: string;
}

const KNOWN = new Set([
  "seed",
  "settings",
  "k",
  "extra",
  "learnExtra",
  "complexity",
  "source",
  "choiceBank",
]);

/** Parse "3", "1,2,4" or "0-6" into integers within [lo, hi]. */
export function parseList(value: unknown, name: string, lo: number, hi: number): number[] {
  const text = String(value).trim();
  const out = new Set<number>();
  for (const part of text.split(",")) {
    const range = /^(\d+)-(\d+)$/.exec(part.trim());
    const [a, b] = range ? [Number(range[1]), Number(range[2])] : [Number(part), Number(part)];
    if (!Number.isInteger(a) || !Number.isInteger(b) || a > b || a < lo || b > hi)
      throw new LonghaulError(
        "USAGE",
        `compile option ${name}=${text}: expected integers in ${lo}..${hi} ("2", "1,2,4" or "0-6")`,
      );
    for (let x = a; x <= b; x++) out.add(x);
  }
  return [...out].sort((x, y) => x - y);
}

/** A task of either source, with what specs need to know about it. */
interface SpecTask {
  id: string;
  level: "basic" | "advanced";
  family: string;
  tags: Record<string, string | number>;
  pathLength: number;
  related: string[];
  payload: GeneratedTask | ImportedTask;
}

/** Generated tasks by seed: compiling twice (listing, then running) generates once. */
const generated = new Map<string, GeneratedTasks>();

function generatedTasks(
  seed: string,
  complexities: number[],
): { basic: SpecTask[]; advanced: SpecTask[] } {
  const gen = generated.get(seed) ?? generateTasks(seed);
  generated.set(seed, gen);
  const wrap = (def: TaskDef): SpecTask => {
    const graph = generatedGraph(def, seed);
    // Compiling builds the option bank of the released graph: the path and one step off it.
    for (const s of graph.bank.released()) graph.choices(s);
    if (graph.pathLength !== 3 * def.goals.length)
      throw new LonghaulError(
        "RUNTIME",
        `task ${def.id}: shortest path ${graph.pathLength}, expected ${3 * def.goals.length}`,
      );
    return {
      id: def.id,
      level: def.level,
      family: def.level === "basic" ? (def.categories[0] as string) : "advanced",
      tags: {
        level: def.level,
        height: def.height,
        scene: def.scene,
        room: def.room,
        category: def.level === "basic" ? (def.categories[0] as string) : def.categories.join("+"),
        ncat: def.categories.length,
        goals: def.goals.length,
      },
      pathLength: graph.pathLength,
      related: def.related,
      payload: { source: "generated", def },
    };
  };
  const advanced = complexities.flatMap((c) =>
    gen.advanced.map((parent) =>
      wrap(
        complexityVariant(
          parent,
          gen.units.get(parent.id) ?? [],
          gen.inventories.get(parent.id) as NonNullable<ReturnType<typeof gen.inventories.get>>,
          c,
          seed,
        ),
      ),
    ),
  );
  return { basic: gen.basic.map(wrap), advanced };
}

function importedTasks(
  dir: string,
  choiceBank: string | undefined,
): { basic: SpecTask[]; advanced: SpecTask[] } {
  const source = loadSource(dir, choiceBank);
  const wrap = (task: ImportedTask): SpecTask => ({
    id: task.id,
    level: task.level,
    family: task.level === "basic" ? (task.categories[0] ?? "basic") : "advanced",
    tags: {
      level: task.level,
      ...(task.height ? { height: task.height } : {}),
      ...(task.scene ? { scene: task.scene } : {}),
      category: task.categories.join("+") || task.level,
      ncat: task.categories.length,
    },
    pathLength: importedGraph(task).pathLength,
    related: task.related,
    payload: task,
  });
  return { basic: source.basic.map(wrap), advanced: source.advanced.map(wrap) };
}

/** Compile the suite's specs. */
export function compileContinual(
  options: ContinualCompileOptions = {},
): TaskSpec<ContinualPayload>[] {
  for (const key of Object.keys(options))
    if (!KNOWN.has(key))
      throw new LonghaulError(
        "USAGE",
        `unknown compile option ${key}; known: ${[...KNOWN].join(", ")}`,
      );
  const seed = options.seed ?? DEFAULT_SEED;
  const settings = options.settings
    ? String(options.settings)
        .split(",")
        .map((s) => s.trim())
    : [...SETTINGS];
  for (const s of settings)
    if (!(SETTINGS as readonly string[]).includes(s))
      throw new LonghaulError(
        "USAGE",
        `compile option settings: unknown setting ${s}; known: ${SETTINGS.join(", ")}`,
      );
  const ks = parseList(options.k ?? DEFAULT_K, "k", 0, MAX_RELATED);
  const extras = parseList(options.extra ?? TEST_EXTRA, "extra", 0, 30);
  const [learnExtra = LEARN_EXTRA] = parseList(
    options.learnExtra ?? LEARN_EXTRA,
    "learnExtra",
    0,
    30,
  );
  const complexities = options.source
    ? [ADVANCED_GOALS]
    : parseList(options.complexity ?? ADVANCED_GOALS, "complexity", 3, 6);
  const { basic, advanced } = options.source
    ? importedTasks(options.source, options.choiceBank)
    : generatedTasks(seed, complexities);
  const byId = new Map(basic.map((t) => [t.id, t]));
  const specs: TaskSpec<ContinualPayload>[] = [];
  const spec = (
    id: string,
    task: SpecTask,
    setting: Setting,
    phase: "learn" | "test",
    extra: number,
    k: number,
    stream: ContinualPayload["stream"],
    target?: string,
  ): TaskSpec<ContinualPayload> => ({
    suite: "continual",
    id,
    family: task.family,
    tags: {
      setting,
      phase,
      ...task.tags,
      k,
      extra,
      path_length: task.pathLength,
      ...(target ? { target } : {}),
    },
    seed,
    payload: {
      setting,
      phase,
      stream,
      extra,
      k,
      pathLength: task.pathLength,
      seed,
      task: task.payload,
    },
  });
  const suffix = (k: number | null, extra: number) =>
    `${k !== null && k !== DEFAULT_K ? `-k${k}` : ""}${extra !== TEST_EXTRA ? `-e${extra}` : ""}`;
  for (const extra of extras) {
    if (settings.includes("zero-shot") || ks.includes(0))
      for (const task of [...basic, ...advanced])
        specs.push(
          spec(
            `zero-shot${suffix(null, extra)}/${task.id}`,
            task,
            "zero-shot",
            "test",
            extra,
            0,
            null,
          ),
        );
    for (const setting of settings.filter((s): s is Setting => s !== "zero-shot"))
      for (const k of ks.filter((x) => x > 0))
        for (const target of advanced) {
          if (target.related.length < k)
            throw new LonghaulError(
              "INVALID_INPUT",
              `advanced task ${target.id} has ${target.related.length} learning tasks, fewer than k=${k}`,
            );
          const stream = `${setting}${suffix(k, extra)}/${target.id}`;
          target.related.slice(0, k).forEach((id, i) => {
            const learn = byId.get(id) as SpecTask;
            const position = { id: stream, index: i, length: k + 1 };
            specs.push(
              spec(
                `${stream}/learn-${i + 1}`,
                learn,
                setting,
                "learn",
                learnExtra,
                k,
                position,
                target.id,
              ),
            );
          });
          specs.push(
            spec(
              `${stream}/test`,
              target,
              setting,
              "test",
              extra,
              k,
              { id: stream, index: k, length: k + 1 },
              target.id,
            ),
          );
        }
  }
  return specs;
}

/** The ordered streams among the selected specs (each cut down to what is selected). */
export function streamsOf(specs: TaskSpec<ContinualPayload>[]): StreamPlan[] {
  const streams = new Map<
    string,
    { plan: StreamPlan; members: { index: number; task: string; phase: string }[] }
  >();
  for (const s of specs) {
    const position = s.payload.stream;
    if (!position) continue;
    let entry = streams.get(position.id);
    if (!entry) {
      entry = {
        plan: {
          id: position.id,
          episodes: [],
          memory: s.payload.setting === "skill" ? "skill" : "trajectories",
        },
        members: [],
      };
      streams.set(position.id, entry);
    }
    entry.members.push({ index: position.index, task: s.id, phase: s.payload.phase });
  }
  return [...streams.values()].map(({ plan, members }) => ({
    ...plan,
    episodes: members.sort((a, b) => a.index - b.index).map(({ task, phase }) => ({ task, phase })),
  }));
}
