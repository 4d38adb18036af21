/**
 * The viewer's scene graph per step (docs/viewer.md): the episode is replayed from its task
 * and logged actions (the world is deterministic), the latent scene graph is taken after every
 * action, and each node is marked visible when the observation logged at that step shows it.
 */
import type {
  EpisodeInspection,
  GraphEdge,
  GraphFrame,
  GraphNode,
  Observation,
  TaskSpec,
  Trace,
} from "../../core/index.ts";
import type { Relation, SceneGraph } from "../../world/index.ts";
import type { RoboGraphPayload } from "./compiler.ts";
import { goalNodeIds, RoboGraphEnvironment, type RoboGraphLatent } from "./environment.ts";

/** Relations that place a node under another (child -> parent); the rest are drawn dashed. */
const TREE: ReadonlySet<Relation> = new Set(["ON", "INSIDE", "ATTACHED", "IN_ROOM"]);
/** Ids of the nodes an observation shows (RoboGraph's view graph), empty for anything else. */
function visibleIds(observation: Observation | undefined): Set<string> {
  const view = observation?.view as
    | { current_observation?: { visible_nodes?: { id: string }[] } }
    | null
    | undefined;
  return new Set((view?.current_observation?.visible_nodes ?? []).map((n) => n.id));
}

/** Short state text of a node's attributes, e.g. "open". */
function stateText(attrs: SceneGraph["nodes"][number]["attrs"]): string | undefined {
  const parts: string[] = [];
  if (attrs.open !== undefined) parts.push(attrs.open ? "open" : "closed");
  if (attrs.pressed) parts.push("pressed");
  if (attrs.assembled) parts.push("assembled");
  if (attrs.moved_aside) parts.push("moved aside");
  return parts.length > 0 ? parts.join(", ") : undefined;
}

/** One frame: the latent scene as a tree of locations, visibility from the observation. */
export function sceneFrame(
  scene: SceneGraph,
  visible: ReadonlySet<string>,
  marked: ReadonlySet<string>,
): GraphFrame {
  const parents = new Map<string, { to: string; rel: Relation }>();
  const edges: GraphEdge[] = [];
  const seen = (a: string, b: string) => visible.has(a) && visible.has(b);
  for (const e of scene.edges) {
    if (TREE.has(e.rel) && !parents.has(e.from)) parents.set(e.from, { to: e.to, rel: e.rel });
    else edges.push({ from: e.from, to: e.to, label: e.rel, visible: seen(e.from, e.to) });
  }
  const nodes: GraphNode[] = scene.nodes.map((n) => {
    const parent = parents.get(n.id);
    const state = stateText(n.attrs);
    return {
      id: n.id,
      label: n.name,
      kind: n.type,
      ...(parent ? { parent: parent.to, relation: parent.rel } : {}),
      visible: visible.has(n.id),
      ...(marked.has(n.id) ? { marked: true } : {}),
      ...(state ? { state } : {}),
    };
  });
  // Each robot stands in its room and holds what is in its hands (the latent state keeps held
  // objects in the hands, not on an edge); a robot without a node of its own gets one.
  for (const robot of scene.robots) {
    const own = nodes.find((n) => n.id === robot.id);
    if (own) Object.assign(own, { parent: robot.room, relation: "IN_ROOM" });
    else {
      nodes.push({
        id: robot.id,
        label: robot.name ?? robot.id,
        kind: "robot",
        parent: robot.room,
        relation: "IN_ROOM",
        visible: true,
      });
    }
    for (const held of robot.hands) {
      const node = nodes.find((n) => n.id === held);
      if (node) Object.assign(node, { parent: robot.id, relation: "HELD" });
    }
  }
  return { nodes, edges };
}

/** Replay the episode's logged actions and draw the scene at every observation. */
export async function inspectRoboGraph(
  spec: TaskSpec<RoboGraphPayload>,
  trace: Trace,
): Promise<EpisodeInspection> {
  const env = new RoboGraphEnvironment(spec, trace.card.access, trace.card.budgets);
  const marked = new Set(goalNodeIds(spec.payload.goal));
  const frame = (observation: Observation | undefined) =>
    sceneFrame((env.latent() as unknown as RoboGraphLatent).scene, visibleIds(observation), marked);
  const observations = [...trace.steps.map((s) => s.observation), trace.final];
  const graphs: GraphFrame[] = [frame(observations[0])];
  for (const [i, step] of trace.steps.entries()) {
    if (step.action) await env.step(step.action);
    graphs.push(frame(observations[i + 1]));
  }
  return { graphs };
}
