/**
 * The authors' released data, loaded as it is (`--compile source=DIR`): the ready task lists
 * (`ready_l2_tasks_with_images.json`, `ready_l4_tasks_with_images.json`), the learning plan
 * (`learning_plan.json`), the choice bank (`option_bank_*.jsonl`: one row per task and state
 * with its choices) and each task's graph JSON (`tasks/<id>/input/<id>_atomic_expanded_graph.json`:
 * task_id, description, initial and goal state, nodes with predicates, DAG edges with action
 * and role bindings, goal paths). Field names and fallbacks follow the authors' loader
 * (graph_env/io) and choice interface (protocol/choice_interface). Malformed files are
 * rejected with the file and the JSON path of what is wrong. Images are not read: a text
 * rendering of each node's predicates stands in for them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { LonghaulError } from "../../core/index.ts";
import type { EpisodeGraph } from "./episode-graph.ts";
import { type Choice, LABELS, type Role } from "./options.ts";

/** One node of an authors' task graph. */
export interface ImportedNode {
  id: string;
  depth: number;
  state: string[];
  isGoal: boolean;
}

/** One DAG edge of an authors' task graph. */
export interface ImportedEdge {
  from: string;
  to: string;
  action: string;
  actionType: string;
  templateId: string;
  isSuccessEdge: boolean;
}

/** One choice of a choice-bank row. */
export interface BankChoice {
  text: string;
  kind: "valid" | "invalid";
  action: string;
}

/** An imported task as its spec carries it. */
export interface ImportedTask {
  source: "imported";
  id: string;
  level: "basic" | "advanced";
  height: string | null;
  scene: string | null;
  categories: string[];
  description: string;
  initialState: string[];
  goalState: string[];
  nodes: ImportedNode[];
  edges: ImportedEdge[];
  goalNodes: string[];
  /** Reference action paths: success traces, else goal paths. */
  referencePaths: string[][];
  /** Choice-bank rows by state id. */
  bank: Record<string, BankChoice[]>;
  /** Learning tasks of an advanced task, from the learning plan. */
  related: string[];
}

function fail(file: string, path: string, message: string): never {
  throw new LonghaulError("INVALID_INPUT", `${message}`, `${file}${path ? `: ${path}` : ""}`);
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return fail(file, "", "cannot be read");
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    return fail(file, "", `is not JSON: ${(e as Error).message}`);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** `name(a,b)` with single spaces after commas (the authors' predicate normalizer). */
export function normalizePredicate(predicate: string): string {
  const value = predicate.trim().replace(/\s+/g, " ");
  const m = /^([A-Za-z0-9_]+)\((.*)\)$/.exec(value);
  if (!m) return value;
  const args = (m[2] as string)
    .split(",")
    .map((a) => a.trim().replace(/\s+/g, " "))
    .filter(Boolean);
  return `${m[1]}(${args.join(", ")})`;
}

/** A predicate list: a list, a `{predicates: [...]}` object or one value; normalized, unique. */
function predicateList(value: unknown): string[] {
  let list: unknown[] = [];
  if (Array.isArray(value)) list = value;
  else if (isRecord(value)) list = Array.isArray(value.predicates) ? value.predicates : [];
  else if (value !== undefined && value !== null) list = [value];
  return [...new Set(list.map((p) => normalizePredicate(String(p))))];
}

/** The task's graph file in its directory (the authors' _task_json_path rules). */
function graphFile(taskDir: string, taskId: string): string {
  if (existsSync(taskDir) && statSync(taskDir).isFile()) return taskDir;
  for (const candidate of [
    join(taskDir, "input", `${taskId}_atomic_expanded_graph.json`),
    join(taskDir, `${taskId}_atomic_expanded_graph.json`),
    join(taskDir, "task.json"),
    join(taskDir, "graph.json"),
  ])
    if (existsSync(candidate)) return candidate;
  const jsons = existsSync(taskDir)
    ? readdirSync(taskDir)
        .filter((f) => f.endsWith(".json"))
        .sort()
    : [];
  const preferred = jsons.filter((f) => /task|graph/i.test(f.replace(/\.json$/, "")));
  const only = preferred.length === 1 ? preferred[0] : jsons.length === 1 ? jsons[0] : undefined;
  if (only) return join(taskDir, only);
  return fail(taskDir, "", `no task graph JSON for ${taskId}`);
}

function text(value: unknown): string {
  return value === undefined || value === null ? "" : String(value).trim();
}

/** The description the authors' loader selects: description, then the fallbacks. */
function descriptionOf(raw: Record<string, unknown>): string {
  const task = isRecord(raw.task) ? raw.task : {};
  for (const field of ["description", "description_original", "description_highlevel"]) {
    const value = text(raw[field] ?? task[field]);
    if (value) return value;
  }
  return "";
}

/** Action paths: lists of action strings or of `{action}` objects. */
function actionPaths(value: unknown): string[][] {
  if (!Array.isArray(value)) return [];
  return value
    .filter(Array.isArray)
    .map((path) =>
      (path as unknown[])
        .map((item) =>
          isRecord(item) ? text(item.action) : typeof item === "string" ? item.trim() : "",
        )
        .filter(Boolean),
    )
    .filter((p) => p.length > 0);
}

/** Parse one task graph file. */
export function parseTaskGraph(
  raw: unknown,
  file: string,
): Omit<ImportedTask, "source" | "level" | "height" | "scene" | "categories" | "bank" | "related"> {
  if (!isRecord(raw)) return fail(file, "", "a task graph must be a JSON object");
  const nodesRaw = raw.nodes;
  if (!Array.isArray(nodesRaw) || nodesRaw.length === 0)
    fail(file, "nodes", "must be a non-empty list");
  const edgesRaw = raw.dag_edges ?? raw.edges ?? [];
  if (!Array.isArray(edgesRaw)) fail(file, "dag_edges", "must be a list");
  const nodes: ImportedNode[] = nodesRaw.map((n, i) => {
    if (!isRecord(n)) return fail(file, `nodes[${i}]`, "must be an object");
    const id = text(n.id);
    if (!id) fail(file, `nodes[${i}].id`, "is missing");
    const depth = n.depth === undefined ? -1 : Number(n.depth);
    if (!Number.isInteger(depth)) fail(file, `nodes[${i}].depth`, "must be an integer");
    return {
      id,
      depth,
      state: predicateList(n.state),
      isGoal: Boolean(n.is_goal ?? n.is_goal_state),
    };
  });
  const ids = new Set<string>();
  nodes.forEach((n, i) => {
    if (ids.has(n.id)) fail(file, `nodes[${i}].id`, `duplicate node ${n.id}`);
    ids.add(n.id);
  });
  const edges: ImportedEdge[] = (edgesRaw as unknown[]).map((e, i) => {
    if (!isRecord(e)) return fail(file, `dag_edges[${i}]`, "must be an object");
    const edge = {
      from: text(e.from),
      to: text(e.to),
      action: text(e.action ?? e.atomic_action ?? e.parent_action ?? e.action_id),
      actionType: text(e.action_type),
      templateId: text(e.template_id),
      isSuccessEdge: Boolean(e.is_success_edge),
    };
    if (!ids.has(edge.from)) fail(file, `dag_edges[${i}].from`, `unknown node ${edge.from}`);
    if (!ids.has(edge.to)) fail(file, `dag_edges[${i}].to`, `unknown node ${edge.to}`);
    if (!edge.action) fail(file, `dag_edges[${i}].action`, "is missing");
    return edge;
  });
  const initialState = predicateList(raw.initial_state);
  const goalState = predicateList(raw.goal_state ?? raw.final_state);
  if (nodes.every((n) => n.depth < 0))
    inferDepths(nodes, edges, nodesRaw as unknown[], initialState);
  const successTraces = actionPaths(raw.success_traces);
  const taskId = text(raw.task_id);
  if (!taskId) fail(file, "task_id", "is missing");
  return {
    id: taskId,
    description: descriptionOf(raw),
    initialState,
    goalState,
    nodes: nodes.map((n) => ({ ...n, depth: Math.max(0, n.depth) })),
    edges,
    goalNodes: Array.isArray(raw.goal_nodes) ? raw.goal_nodes.map(text) : [],
    referencePaths: successTraces.length > 0 ? successTraces : actionPaths(raw.goal_paths),
  };
}

/** Depths by breadth-first search from the initial nodes, when the file gives none. */
function inferDepths(
  nodes: ImportedNode[],
  edges: ImportedEdge[],
  raw: unknown[],
  initialState: string[],
): void {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  let start = nodes.filter(
    (_, i) => isRecord(raw[i]) && Boolean((raw[i] as Record<string, unknown>).is_initial_state),
  );
  if (start.length === 0) start = nodes.filter((n) => sameSet(n.state, initialState));
  if (start.length === 0) start = nodes.filter((n) => !edges.some((e) => e.to === n.id));
  if (start.length === 0) start = nodes.slice(0, 1);
  const queue = start.map((n) => n.id);
  for (const n of start) n.depth = 0;
  for (let q = 0; q < queue.length; q++) {
    const from = byId.get(queue[q] as string) as ImportedNode;
    for (const e of edges)
      if (e.from === from.id) {
        const to = byId.get(e.to) as ImportedNode;
        if (to.depth < 0) {
          to.depth = from.depth + 1;
          queue.push(to.id);
        }
      }
  }
}

const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().join("|") === [...b].sort().join("|");

/** Parse a choice-bank JSONL file: rows by task id, then state id. */
export function parseChoiceBank(
  source: string,
  file: string,
): Map<string, Record<string, BankChoice[]>> {
  const bank = new Map<string, Record<string, BankChoice[]>>();
  for (const [i, line] of source.split("\n").entries()) {
    if (!line.trim()) continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch (e) {
      fail(file, `line ${i + 1}`, `is not JSON: ${(e as Error).message}`);
    }
    if (!isRecord(row)) fail(file, `line ${i + 1}`, "is not a JSON object");
    const taskId = text(row.task_id);
    const stateId = text(row.state_id ?? row.current_state_id);
    if (!taskId || !stateId || !Array.isArray(row.choices))
      fail(file, `line ${i + 1}`, "needs task_id, state_id and choices");
    const choices = (row.choices as unknown[]).filter(isRecord).flatMap((c) => {
      const t = text(c.text ?? c.option_text);
      if (!t) return [];
      const kind: BankChoice["kind"] = text(c.kind).toLowerCase() === "valid" ? "valid" : "invalid";
      return [{ text: t, kind, action: text(c.action_id) }];
    });
    if (choices.length === 0) fail(file, `line ${i + 1}.choices`, "has no usable choice");
    const rows = bank.get(taskId) ?? {};
    rows[stateId] = choices;
    bank.set(taskId, rows);
  }
  return bank;
}

/** A ready-list file's items (a list, or a `tasks` / `ready_tasks` / `items` list). */
function readyItems(file: string): Record<string, unknown>[] {
  const raw = readJson(file);
  const list = Array.isArray(raw)
    ? raw
    : isRecord(raw)
      ? ((["tasks", "ready_tasks", "items"].map((k) => raw[k]).find(Array.isArray) as
          | unknown[]
          | undefined) ?? fail(file, "", "has no task list"))
      : fail(file, "", "must be a list of tasks");
  return list.filter(isRecord);
}

/** The level of a ready item: its `level`, else the `_L2_` / `_L4_` in its id. */
function levelOf(item: Record<string, unknown>, id: string): "basic" | "advanced" | null {
  const level = text(item.level ?? item.difficulty_level) || (/(?:^|_)(L\d+)_/.exec(id)?.[1] ?? "");
  if (level === "L2") return "basic";
  if (/^L[3-9]$/.test(level)) return "advanced";
  return null;
}

/** Everything `--compile source=DIR` loads. */
export interface ImportedSource {
  basic: ImportedTask[];
  advanced: ImportedTask[];
}

/** Load the authors' data from a directory (see the module comment for the files). */
export function loadSource(dir: string, choiceBank?: string): ImportedSource {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new LonghaulError("USAGE", `source ${dir} is not a directory`);
  const readyFiles = ["ready_l2_tasks_with_images.json", "ready_l4_tasks_with_images.json"]
    .map((f) => join(dir, f))
    .filter(existsSync);
  const combined = join(dir, "ready_highlevel_v2_tasks_with_images.json");
  const files = readyFiles.length > 0 ? readyFiles : existsSync(combined) ? [combined] : [];
  if (files.length === 0) fail(dir, "", "has no ready_l2/ready_l4 task lists");
  const bankFile =
    choiceBank ??
    readdirSync(dir)
      .filter((f) => f.endsWith(".jsonl") && /option_bank|choice_bank/.test(f))
      .sort()
      .map((f) => join(dir, f))[0];
  if (!bankFile) fail(dir, "", "has no option_bank_*.jsonl choice bank");
  const bank = parseChoiceBank(readFileSync(bankFile, "utf8"), bankFile);
  const planFile = join(dir, "learning_plan.json");
  const related = new Map<string, string[]>();
  if (existsSync(planFile)) {
    const plan = readJson(planFile);
    const targets =
      isRecord(plan) && Array.isArray(plan.targets)
        ? plan.targets
        : fail(planFile, "targets", "must be a list");
    targets.forEach((t, i) => {
      if (!isRecord(t)) fail(planFile, `targets[${i}]`, "must be an object");
      const id = text(t.target_task_id ?? t.task_id);
      const learning = t.learning_task_ids ?? t.icl_learning_task_ids;
      if (!id || !Array.isArray(learning))
        fail(planFile, `targets[${i}]`, "needs target_task_id and learning_task_ids");
      related.set(id, learning.map(text));
    });
  }
  const out: ImportedSource = { basic: [], advanced: [] };
  const seen = new Set<string>();
  for (const file of files)
    readyItems(file).forEach((item, i) => {
      const id = text(item.task_id);
      if (!id) fail(file, `[${i}].task_id`, "is missing");
      if (seen.has(id)) return;
      seen.add(id);
      const level = levelOf(item, id);
      if (!level) fail(file, `[${i}].level`, `cannot tell the level of ${id}`);
      const taskDir = text(item.task_dir);
      const where = taskDir
        ? isAbsolute(taskDir)
          ? taskDir
          : join(dir, taskDir)
        : join(dir, "tasks", id);
      const gfile = graphFile(where, id);
      const graph = parseTaskGraph(readJson(gfile), gfile);
      const rows = bank.get(id) ?? bank.get(graph.id);
      if (!rows) fail(bankFile as string, "", `has no rows for task ${id}`);
      const categories = Array.isArray(item.ability_categories)
        ? item.ability_categories.map(text)
        : text(item.ability_category)
          ? [text(item.ability_category)]
          : [];
      const task: ImportedTask = {
        source: "imported",
        ...graph,
        id,
        description: text(item.description_highlevel_hard ?? item.description) || graph.description,
        level,
        height: text(item.height) || null,
        scene: text(item.scene_id) || null,
        categories,
        bank: rows,
        related: related.get(id) ?? [],
      };
      validateBank(task, bankFile as string);
      (level === "basic" ? out.basic : out.advanced).push(task);
    });
  for (const t of out.advanced)
    for (const r of t.related)
      if (!out.basic.some((b) => b.id === r))
        fail(planFile, t.id, `learning task ${r} is not among the basic tasks`);
  return out;
}

/** Every bank row names a node, and every valid choice is an edge out of it (as the authors check). */
function validateBank(task: ImportedTask, file: string): void {
  const nodes = new Set(task.nodes.map((n) => n.id));
  for (const [state, choices] of Object.entries(task.bank)) {
    if (!nodes.has(state)) fail(file, `${task.id}/${state}`, "names no node of the task graph");
    choices.forEach((c, i) => {
      if (c.kind === "valid" && !task.edges.some((e) => e.from === state && e.action === c.action))
        fail(
          file,
          `${task.id}/${state}.choices[${i}]`,
          `valid action ${c.action} is not an edge out of ${state}`,
        );
    });
    if (dedupe(choices).length < LABELS.length)
      fail(
        file,
        `${task.id}/${state}.choices`,
        `has ${dedupe(choices).length} distinct choices, expected ${LABELS.length}`,
      );
  }
  const start = startNode(task);
  if (!task.bank[start.id] && !isGoalNode(task, start))
    fail(file, task.id, `has no choices for the initial state ${start.id}`);
}

const dedupe = (choices: BankChoice[]) =>
  choices.filter((c, i) => choices.findIndex((d) => d.text === c.text) === i);

/** The initial node: the one whose state is the initial state, else the first at depth 0. */
function startNode(task: ImportedTask): ImportedNode {
  return (
    task.nodes.find((n) => sameSet(n.state, task.initialState)) ??
    [...task.nodes].filter((n) => n.depth === 0).sort((a, b) => (a.id < b.id ? -1 : 1))[0] ??
    (task.nodes[0] as ImportedNode)
  );
}

function isGoalNode(task: ImportedTask, node: ImportedNode): boolean {
  return (
    task.goalNodes.includes(node.id) ||
    node.isGoal ||
    (task.goalState.length > 0 && task.goalState.every((p) => node.state.includes(p)))
  );
}

/** A display name for an authors' object id (`BP_TableLamp_003` -> "table lamp"). */
export function displayName(id: string): string {
  return (
    id
      .replace(/^BP_/, "")
      .replace(/(?<=[a-z])(?=[A-Z])/g, " ")
      .replace(/[_-]+/g, " ")
      .replace(/\b[A-Z]?\d+\b/g, "")
      .replace(/\s+/g, " ")
      .trim()
      .toLowerCase() || "object"
  );
}

/** A node's predicates in words: the text standing in for the node's image. */
function sceneText(node: ImportedNode): string {
  const phrases = node.state.map((p) => {
    const m = /^([A-Za-z0-9_]+)\((.*)\)$/.exec(p);
    if (!m) return p === "empty" ? "your hands are empty" : p.replace(/_/g, " ");
    const [a = "", b = ""] = (m[2] as string).split(", ").map(displayName);
    switch (m[1]) {
      case "in_view":
        return `the ${a} is in view`;
      case "with_reach":
        return `the ${a} is within reach`;
      case "holding":
        return `you are holding the ${a}`;
      case "on":
        return `the ${a} is on the ${b}`;
      case "in":
        return `the ${a} is in the ${b}`;
      case "powered_on":
        return `the ${a} is switched on`;
      case "powered_off":
        return `the ${a} is switched off`;
      case "plugged_in":
        return `the ${a} is plugged in`;
      case "exists":
        return `there is a ${a}`;
      default:
        return `the ${a} is ${(m[1] as string).replace(/_/g, " ")}`;
    }
  });
  return phrases.length > 0 ? `${phrases.join("; ")}.` : "Nothing notable is in view.";
}

/** An imported task as an episode graph. */
export class ImportedGraph implements EpisodeGraph {
  readonly taskId: string;
  readonly description: string;
  readonly pathLength: number;
  readonly goalPredicates: string[];
  readonly referencePaths: string[][];
  readonly maxGoalDepth: number;
  private readonly index = new Map<string, number>();
  private readonly dist: number[];
  private readonly goals: boolean[];
  private readonly nodes: ImportedNode[];

  constructor(private readonly task: ImportedTask) {
    this.taskId = task.id;
    this.description = task.description;
    this.goalPredicates = task.goalState;
    this.referencePaths = task.referencePaths;
    const first = startNode(task);
    // State 0 is the initial node; the others keep their file order.
    const order = [first, ...task.nodes.filter((n) => n !== first)];
    this.nodes = order;
    order.forEach((n, i) => {
      this.index.set(n.id, i);
    });
    this.goals = order.map((n) => isGoalNode(task, n));
    this.dist = this.distances();
    const lengths = task.referencePaths.map((p) => p.length);
    this.pathLength = lengths.length > 0 ? Math.min(...lengths) : (this.dist[0] as number);
    this.maxGoalDepth = Math.max(0, ...order.filter((_, i) => this.goals[i]).map((n) => n.depth));
  }

  private distances(): number[] {
    const dist: number[] = this.nodes.map((_, i) => (this.goals[i] ? 0 : -1));
    const queue = dist.flatMap((d, i) => (d === 0 ? [i] : []));
    for (let q = 0; q < queue.length; q++) {
      const j = queue[q] as number;
      const id = (this.nodes[j] as ImportedNode).id;
      for (const e of this.task.edges) {
        if (e.to !== id) continue;
        const i = this.index.get(e.from) as number;
        if (dist[i] === -1) {
          dist[i] = (dist[j] as number) + 1;
          queue.push(i);
        }
      }
    }
    return dist;
  }

  isGoal(s: number): boolean {
    return this.goals[s] ?? false;
  }
  distance(s: number): number {
    return this.dist[s] ?? -1;
  }
  depth(s: number): number {
    return this.nodes[s]?.depth ?? 0;
  }
  choices(s: number): Choice[] {
    const node = this.nodes[s] as ImportedNode;
    const rows = dedupe(this.task.bank[node.id] ?? []).slice(0, LABELS.length);
    const d = this.distance(s);
    return rows.map((c, i) => {
      const edge = this.task.edges.find((e) => e.from === node.id && e.action === c.action);
      const to = c.kind === "valid" && edge ? (this.index.get(edge.to) as number) : null;
      const role: Role =
        to === null
          ? "invalid"
          : this.distance(to) === d - 1 && d > 0
            ? "success_path"
            : "valid_detour";
      return {
        label: LABELS[i] as string,
        text: c.text,
        role,
        action: c.action || `__INVALID_CHOICE_${LABELS[i]}__`,
        to,
        verb: c.text.split(/\s+/)[0]?.toLowerCase() ?? "",
        style: "direct",
      };
    });
  }
  scene(s: number): string {
    return sceneText(this.nodes[s] as ImportedNode);
  }
  predicates(s: number): string[] {
    return this.nodes[s]?.state ?? [];
  }
  stateId(s: number): string {
    return this.nodes[s]?.id ?? "";
  }
}

const importedGraphs = new WeakMap<ImportedTask, ImportedGraph>();

/** The episode graph of an imported task. */
export function importedGraph(task: ImportedTask): ImportedGraph {
  let graph = importedGraphs.get(task);
  if (!graph) {
    graph = new ImportedGraph(task);
    importedGraphs.set(task, graph);
  }
  return graph;
}
