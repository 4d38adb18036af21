/**
 * What an episode walks: a task's states, the options at each, where each option leads, the
 * scene text of each state and the grader's inputs. Generated tasks (the engine's graph and
 * the option generator) and imported ones (the authors' task graph and choice bank) both
 * provide it, so one environment, one oracle and one scorer serve both.
 */

import { buildGraph, goalPredicates, predicatesOf, type TaskGraph, viewOf } from "./graph.ts";
import { importedGraph } from "./import.ts";
import { type Choice, OptionBank } from "./options.ts";
import type { ContinualPayload } from "./payload.ts";
import { describeScene } from "./phrasing.ts";
import type { TaskDef } from "./task.ts";

/** A task's states as an episode sees them; states are numbers, 0 is the initial one. */
export interface EpisodeGraph {
  readonly taskId: string;
  readonly description: string;
  /** Length of the shortest path from the initial state to the goal. */
  readonly pathLength: number;
  /** The goal as predicates, and the reference action paths (the grader's inputs). */
  readonly goalPredicates: string[];
  readonly referencePaths: string[][];
  /** The deepest goal state's depth (the authors' max_goal_depth). */
  readonly maxGoalDepth: number;
  isGoal(s: number): boolean;
  /** Shortest distance to the goal (-1: unreachable). */
  distance(s: number): number;
  /** Depth from the initial state. */
  depth(s: number): number;
  /** The four options (none at a goal state). */
  choices(s: number): Choice[];
  /** The scene description standing in for the image. */
  scene(s: number): string;
  predicates(s: number): string[];
  /** A stable name of the state for logs (`s0012`, or an imported node id). */
  stateId(s: number): string;
}

/** A generated task's graph with its option bank. */
export class GeneratedGraph implements EpisodeGraph {
  readonly taskId: string;
  readonly description: string;
  readonly pathLength: number;
  readonly goalPredicates: string[];
  readonly referencePaths: string[][];
  readonly maxGoalDepth: number;
  readonly bank: OptionBank;

  constructor(
    readonly graph: TaskGraph,
    seed: string,
  ) {
    const def = graph.def;
    this.taskId = def.id;
    this.description = def.description;
    this.pathLength = graph.dist[0] as number;
    this.goalPredicates = goalPredicates(def);
    this.referencePaths = [graph.pathActions.map((a) => graph.groundings[a]?.id ?? "")];
    let deepest = 0;
    for (let s = 0; s < graph.size; s++)
      if (graph.dist[s] === 0) deepest = Math.max(deepest, graph.depth[s] as number);
    this.maxGoalDepth = deepest;
    this.bank = new OptionBank(graph, seed);
  }

  isGoal(s: number): boolean {
    return this.graph.dist[s] === 0;
  }
  distance(s: number): number {
    return this.graph.dist[s] ?? -1;
  }
  depth(s: number): number {
    return this.graph.depth[s] ?? 0;
  }
  choices(s: number): Choice[] {
    return this.bank.at(s);
  }
  scene(s: number): string {
    return describeScene(viewOf(this.graph, s));
  }
  predicates(s: number): string[] {
    return predicatesOf(this.graph, s);
  }
  stateId(s: number): string {
    return `s${String(s).padStart(4, "0")}`;
  }
}

/** The episode graph of a spec's task. */
export function episodeGraphOf(payload: ContinualPayload): EpisodeGraph {
  return payload.task.source === "generated"
    ? generatedGraph(payload.task.def, payload.seed)
    : importedGraph(payload.task);
}

/** Built graphs by task content, most recently used last (a bounded cache: graphs are large). */
const built = new Map<string, GeneratedGraph>();
const CACHE_SIZE = 320;

/** The graph of a generated task, built once per process while it stays in the cache. */
export function generatedGraph(def: TaskDef, seed: string): GeneratedGraph {
  const key = `${seed}\n${JSON.stringify(def)}`;
  let graph = built.get(key);
  if (graph) built.delete(key);
  else graph = new GeneratedGraph(buildGraph(def), seed);
  built.set(key, graph);
  if (built.size > CACHE_SIZE) built.delete(built.keys().next().value as string);
  return graph;
}
