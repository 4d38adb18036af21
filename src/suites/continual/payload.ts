/** What a continual spec carries: the task, its setting and phase, and its step budget. */
import type { ImportedTask } from "./import.ts";
import type { TaskDef } from "./task.ts";

/** The paper's three evaluation settings (§4.1). */
export const SETTINGS = ["zero-shot", "icl", "skill"] as const;
export type Setting = (typeof SETTINGS)[number];

/** Extra steps beyond the shortest path: 3 in the testing phase, 6 in the learning phase. */
export const TEST_EXTRA = 3;
export const LEARN_EXTRA = 6;
/** Related basic tasks learned from before each advanced task in the main experiment. */
export const DEFAULT_K = 2;

/** A generated task (its definition; the graph is rebuilt from it). */
export interface GeneratedTask {
  source: "generated";
  def: TaskDef;
}

/** The payload of a continual spec. */
export interface ContinualPayload {
  setting: Setting;
  phase: "learn" | "test";
  /** The stream the episode belongs to (ICL and skill learning), with its place in it. */
  stream: { id: string; index: number; length: number } | null;
  /** Extra steps of this episode's budget (budget = shortest path + extra). */
  extra: number;
  /** Learning tasks before the test (0 in zero-shot). */
  k: number;
  pathLength: number;
  /** Root seed of the option bank. */
  seed: string;
  task: GeneratedTask | ImportedTask;
}

/** The task id of a payload. */
export function taskIdOf(payload: ContinualPayload): string {
  return payload.task.source === "generated" ? payload.task.def.id : payload.task.id;
}
