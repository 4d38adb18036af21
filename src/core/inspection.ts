/**
 * What a suite adds to the viewer's replay of one episode (docs/viewer.md): the scene graph at
 * every step with what the agent could see, and an output compared with the required one,
 * record by record. `Suite.inspect` computes it from the task and the trace.
 */

/** A node of a scene graph. `parent` places it in the drawing's tree (e.g. a cup ON a table). */
export interface GraphNode {
  id: string;
  label: string;
  /** The node's kind (room, furniture, object, ...): its shape and color in the drawing. */
  kind?: string;
  /** The node it hangs from in the drawing, with the relation written on that link. */
  parent?: string;
  relation?: string;
  /** In the agent's observation at this step. */
  visible: boolean;
  /** Named by the task's goal: drawn with an accent. */
  marked?: boolean;
  /** Short state text shown beside the label, e.g. "open". */
  state?: string;
}

/** A relation beside the tree (adjacency, occlusion, holding), drawn dashed. */
export interface GraphEdge {
  from: string;
  to: string;
  label: string;
  visible: boolean;
}

/** The scene graph at one observation. */
export interface GraphFrame {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** One required output row next to what the output stated for it. */
export interface ComparedRow {
  /** The row's id or label, e.g. "[12]" or "[R3]". */
  label: string;
  expected: string;
  /** What the output stated for this row (null: nothing matched it). */
  stated: string | null;
  /** Whether each scored record of the row is right (one per row; one per cell for tables). */
  marks: boolean[];
}

/** An episode's input document and output, compared record by record. */
export interface TextComparison {
  input: string;
  output: string | null;
  rows: ComparedRow[];
}

/** Everything a suite adds to one episode's page; every part is optional. */
export interface EpisodeInspection {
  /**
   * The scene graph per observation: frames[i] goes with trace.steps[i].observation, and one
   * more frame after the last step goes with the final observation.
   */
  graphs?: GraphFrame[];
  comparison?: TextComparison;
  /** Why a part could not be computed (e.g. the task no longer compiles as it was run). */
  notes?: string[];
}
