/**
 * The viewer's scene graph per step (docs/viewer.md) for generated tasks: the episode is
 * replayed from its task and logged selections (the graph is deterministic), and at every
 * observation the room is drawn as a tree (objects on or in furniture, what the agent holds
 * under the agent), what the agent faces and can reach as side relations, a node visible when
 * the scene description of that step showed it, the goal's objects marked. Imported tasks
 * have predicates, not a scene: they get a note instead.
 */
import type {
  EpisodeInspection,
  GraphEdge,
  GraphFrame,
  GraphNode,
  TaskSpec,
  Trace,
} from "../../core/index.ts";
import { ContinualEnvironment, type ContinualLatent } from "./environment.ts";
import { generatedGraph } from "./episode-graph.ts";
import { AGENT, stateAt, type TaskGraph, viewOf } from "./graph.ts";
import type { ContinualPayload } from "./payload.ts";

/** Short state text of an object's attributes, e.g. "on, plugged in". */
function stateText(attrs: Record<string, boolean>): string | undefined {
  const words: Record<string, [string, string | null]> = {
    on: ["on", "off"],
    open: ["open", "closed"],
    plugged: ["plugged in", "unplugged"],
    filled: ["filled", "empty"],
    cut: ["cut", null],
    turned: ["turned", null],
  };
  const parts = Object.entries(words)
    .filter(([name]) => name in attrs)
    .map(([name, [yes, no]]) => (attrs[name] ? yes : no))
    .filter((w): w is string => w !== null);
  return parts.length > 0 ? parts.join(", ") : undefined;
}

/** The frame of state `s`: the room as a tree, the agent's gaze and reach beside it. */
export function sceneFrame(graph: TaskGraph, s: number): GraphFrame {
  const state = stateAt(graph, s);
  const scene = state.toScene();
  const view = viewOf(graph, s, state);
  const room = graph.def.room;
  const shown = new Set<string>([
    room,
    AGENT,
    ...[...view.visible, ...(view.focus ? [view.focus] : [])].flatMap((o) => [o.id, ...o.holds]),
    ...(view.near ? [view.near] : []),
    ...(view.held ? [view.held] : []),
  ]);
  const marked = new Set(
    graph.def.goals.flatMap((g) => [g.object, ...(g.target ? [g.target] : [])]),
  );
  const parents = new Map(scene.edges.map((e) => [e.from, e]));
  const held = new Set(scene.robots.flatMap((r) => r.hands).filter((h) => h !== null));
  const nodes: GraphNode[] = [
    ...scene.nodes.map((n) => {
      const parent = held.has(n.id)
        ? { to: AGENT, rel: "HELD" }
        : (parents.get(n.id) as { to: string; rel: string } | undefined);
      const text = stateText(n.attrs);
      return {
        id: n.id,
        label: n.name.replace(/_/g, " "),
        kind: n.type,
        ...(parent ? { parent: parent.to, relation: parent.rel } : {}),
        visible: shown.has(n.id),
        ...(marked.has(n.id) ? { marked: true } : {}),
        ...(text ? { state: text } : {}),
      };
    }),
    { id: AGENT, label: "agent", kind: "robot", parent: room, relation: "IN_ROOM", visible: true },
  ];
  const edges: GraphEdge[] = [
    ...(view.focus ? [{ from: AGENT, to: view.focus.id, label: "FACING", visible: true }] : []),
    ...(view.near ? [{ from: AGENT, to: view.near, label: "WITHIN_REACH", visible: true }] : []),
  ];
  return { nodes, edges };
}

/** Replay the episode's logged selections and draw the scene at every observation. */
export function inspectContinual(
  spec: TaskSpec<ContinualPayload>,
  trace: Trace,
): EpisodeInspection {
  const task = spec.payload.task;
  if (task.source !== "generated")
    return { notes: ["Imported tasks describe states by predicates, not a scene: no graph."] };
  const graph = generatedGraph(task.def, spec.payload.seed).graph;
  const env = new ContinualEnvironment(spec, trace.card.access, trace.card.budgets);
  env.reset();
  // State ids of generated tasks are `s` and the state's number (EpisodeGraph.stateId).
  const current = () => Number((env.latent() as unknown as ContinualLatent).state.slice(1));
  const graphs: GraphFrame[] = [sceneFrame(graph, 0)];
  for (const step of trace.steps) {
    if (step.action) env.step(step.action);
    graphs.push(sceneFrame(graph, current()));
  }
  return { graphs };
}
