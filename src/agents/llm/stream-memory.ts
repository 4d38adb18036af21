/**
 * What the llm agent carries from one episode of an ordered stream to the next, for any suite
 * run as a curriculum. Two forms (a stream asks for one with `memory`, docs/protocol.md):
 *
 * - trajectories (in-context learning): the full interaction of every earlier learning
 *   episode (each user message as the model saw it, each raw reply, the outcome) goes into the
 *   system prompt of the next episode;
 * - skill (skill learning): the learning episodes' trajectories are kept until the first
 *   episode after the learning phase, whose first decision starts with one extra model call
 *   that distills them into a Markdown skill note; from then on only the note is in context.
 *
 * The memory is JSON (the agent's `snapshot()`), so the runner checkpoints it and a resumed
 * stream continues with exactly what the agent had.
 */
import type { AgentContext, Json, StreamMemory } from "../../core/index.ts";

/** The llm agent's memory policy option: follow the stream, or force one form, or none. */
export type MemoryPolicy = "stream" | "off" | StreamMemory;

/** One remembered episode. */
export interface Trajectory {
  title: string;
  phase?: string;
  transcript: string;
}

/** The llm agent's stream memory (its snapshot). */
export interface LlmMemory {
  trajectories: Trajectory[];
  note?: string;
}

/** The system prompt of the distillation call. */
export const SKILL_WRITER_SYSTEM =
  "You turn the record of an agent's earlier tasks into a concise skill note for harder tasks in the same environment.";

/** The request of the distillation call (the paper's "concise skill summary in Markdown"). */
export function skillRequest(trajectories: Trajectory[]): string {
  return [
    "Below are your full interaction trajectories from the learning tasks you just completed.",
    "Write a concise skill summary in Markdown of what you learned that will help you solve new, more complex tasks in this environment: reusable procedures, how actions have to be sequenced, and what made choices fail. Do not restate the individual tasks. Reply with the Markdown only.",
    "",
    trajectoriesText(trajectories),
  ].join("\n");
}

function trajectoriesText(trajectories: Trajectory[]): string {
  return trajectories
    .map(
      (t, i) =>
        `### Earlier task ${i + 1}${t.phase ? ` (${t.phase})` : ""}: ${t.title}\n\n${t.transcript}`,
    )
    .join("\n\n");
}

/** Memory from a context's JSON, tolerating anything else (a fresh memory). */
export function readMemory(json: Json | undefined): LlmMemory {
  const m = json as Partial<LlmMemory> | null | undefined;
  const trajectories = Array.isArray(m?.trajectories)
    ? m.trajectories.filter(
        (t): t is Trajectory => typeof t?.title === "string" && typeof t?.transcript === "string",
      )
    : [];
  return { trajectories, ...(typeof m?.note === "string" ? { note: m.note } : {}) };
}

/** One episode's view of the stream memory: what goes into its prompt and what it hands on. */
export class EpisodeMemory {
  readonly form: StreamMemory | null;
  private memory: LlmMemory;
  private readonly lines: string[] = [];
  private readonly phase: string | undefined;
  private readonly received: Json | undefined;

  constructor(
    context: Pick<AgentContext, "stream" | "memory">,
    policy: MemoryPolicy,
    private readonly title: string,
  ) {
    this.form =
      policy === "off" ? null : policy === "stream" ? (context.stream?.memory ?? null) : policy;
    this.received = context.memory;
    this.memory = readMemory(context.memory);
    this.phase = context.stream?.phase;
  }

  /** Learning trajectories are waiting to be distilled into a note before this episode acts. */
  needsSkillNote(): boolean {
    return this.form === "skill" && this.phase !== "learn" && this.memory.trajectories.length > 0;
  }

  /** The trajectories to distill. */
  pending(): Trajectory[] {
    return this.memory.trajectories;
  }

  /** Keep the distilled note; the trajectories it came from are dropped. */
  setNote(note: string): void {
    this.memory = { trajectories: [], note: note.trim() };
  }

  /** What this episode's system prompt adds, if anything. */
  systemSection(): string | undefined {
    if (this.form === "trajectories" && this.memory.trajectories.length > 0)
      return [
        "Experience from your earlier tasks in this sequence (full interaction trajectories):",
        "",
        trajectoriesText(this.memory.trajectories),
      ].join("\n");
    if (this.form === "skill" && this.memory.note)
      return [
        "Use the following skill summary as learned guidance. It holds reusable knowledge from your earlier interaction experience; the current task, scene, feedback and choices remain the source of truth. The current task is new and has just started.",
        "",
        "<skill>",
        this.memory.note,
        "</skill>",
      ].join("\n");
    return undefined;
  }

  /** Record one exchange of this episode. */
  record(prompt: string, reply: string): void {
    this.lines.push(`Observation:\n${prompt}\n\nYour reply: ${reply}`);
  }

  /** Record the episode's end. */
  end(summary: { success: boolean; steps: number }): void {
    this.lines.push(
      `Outcome: ${summary.success ? "the task was completed" : "the task was not completed"} after ${summary.steps} steps.`,
    );
  }

  /**
   * The memory handed to the next episode: learning episodes (and episodes of streams without
   * phases) add their trajectory; without a form the memory passes through unchanged.
   */
  snapshot(): Json | undefined {
    if (!this.form) return this.received;
    const trajectories = [...this.memory.trajectories];
    if (this.phase === undefined || this.phase === "learn")
      trajectories.push({
        title: this.title,
        ...(this.phase ? { phase: this.phase } : {}),
        transcript: this.lines.join("\n\n"),
      });
    return {
      trajectories,
      ...(this.memory.note !== undefined ? { note: this.memory.note } : {}),
    } as unknown as Json;
  }
}
