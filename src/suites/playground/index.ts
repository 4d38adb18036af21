/**
 * Embodied Playground (Chen et al., EP-100), part 1: the shared protocol on MuJoCo physics and
 * the Launch (34 tasks) and Tower (Plan 5 + Physics 8) suites, four conditions per task.
 * Lock, Cube, Home and Tower-Dex are not implemented (docs/playground.md).
 */
import { z } from "zod";
import type { EpisodeScore, Suite, TaskSpec } from "../../core/index.ts";
import { defineAgent, NO_OPTIONS, parseOrThrow } from "../../core/index.ts";
import { aggregatePlayground } from "./aggregate.ts";
import { EP100 } from "./catalog.ts";
import { type FamilyDef, PlaygroundEnvironment } from "./environment.ts";
import type { PlaygroundOutcomeData } from "./evaluator.ts";
import { playgroundGoalState } from "./goal-state.ts";
import { hiddenValues } from "./hidden.ts";
import { LAUNCH_FAMILY, launchPayload } from "./launch/family.ts";
import { launchScenes } from "./launch/scene.ts";
import { type PlaygroundPayload, withRejectionRule } from "./payload.ts";
import { DEFAULT_LEVEL, FAMILY_BUDGETS, type Family, LEVELS, REJECTION_RULES } from "./protocol.ts";
import { referenceAgent } from "./reference-agent.ts";
import { playgroundRenderer } from "./renderer.ts";
import { playgroundStats } from "./stats.ts";
import { HANOI_FAMILY, towerPayload } from "./tower/family.ts";

export { EP100 } from "./catalog.ts";
export { PlaygroundEnvironment } from "./environment.ts";
export { FAILURE_CODES, FAMILY_BUDGETS, grantsOf, LEVELS } from "./protocol.ts";

const FAMILIES: Record<Family, FamilyDef> = { launcher: LAUNCH_FAMILY, hanoi: HANOI_FAMILY };

/** Compile options: the access level every spec is compiled at (recorded in its tags). */
const CompileOptions = z.looseObject({
  seed: z.string().optional(),
  level: z.enum(LEVELS).optional(),
  rejected: z.enum(REJECTION_RULES).optional(),
});

/** The EP-100 entries implemented here. */
export function implementedEntries() {
  const scenes = launchScenes();
  return EP100.filter(
    (e) =>
      (e.suite === "Launch" && scenes.has(e.index)) ||
      (e.suite === "Tower" && (e.type === "Plan" || e.type === "Physics")),
  );
}

function specOf(payload: PlaygroundPayload): TaskSpec<PlaygroundPayload> {
  const e = payload.entry;
  return {
    suite: "playground",
    id: `${e.index}/c${payload.condition + 1}`,
    family: e.suite,
    tags: {
      suite: e.suite,
      type: e.type,
      index: e.index,
      case: e.caseId,
      split: e.split,
      ep20: e.ep20 ? "yes" : "no",
      condition: payload.condition + 1,
      level: payload.level,
      rejected: payload.rejected,
      workload: payload.workload,
    },
    seed: `${e.index}/c${payload.condition + 1}`,
    payload,
  };
}

function score(
  _spec: TaskSpec<PlaygroundPayload>,
  outcome: { success: boolean; category?: string; data?: unknown },
): EpisodeScore {
  const d = outcome.data as PlaygroundOutcomeData | undefined;
  return {
    success: outcome.success,
    ...(outcome.category ? { category: outcome.category } : {}),
    metrics: {
      success: outcome.success ? 1 : 0,
      actions: d?.actions ?? null,
      simTime: d?.simTime ?? null,
      successSimTime: d?.successTime ?? null,
    },
  };
}

export const playgroundSuite: Suite<PlaygroundPayload> = {
  id: "playground",
  version: "0.1.0",
  title: "Embodied Playground (EP-100): Launch and Tower on MuJoCo",
  dimensions: ["suite", "type", "split", "condition"],
  compile(options = {}) {
    const opts = parseOrThrow(CompileOptions, options, "playground compile options");
    const level = opts.level ?? DEFAULT_LEVEL;
    const rejected = opts.rejected ?? "invalid";
    return implementedEntries().flatMap((entry) =>
      [0, 1, 2, 3].map((c) =>
        specOf(
          withRejectionRule(
            entry.suite === "Launch"
              ? launchPayload(entry, c, level)
              : towerPayload(entry, c, level),
            rejected,
          ),
        ),
      ),
    );
  },
  subsets: {
    "ep-easy": (s) => s.payload.entry.split === "Easy",
    "ep-hard": (s) => s.payload.entry.split === "Hard",
    "ep-20": (s) => s.payload.entry.ep20,
    launch: (s) => s.payload.entry.suite === "Launch",
    tower: (s) => s.payload.entry.suite === "Tower",
    smoke: (s) =>
      s.payload.condition === 0 && ["Launch-02", "Tower-01"].includes(s.payload.entry.index),
  },
  // The run-level limits are the largest family's (Table 4); each card carries its family's.
  budgets: { maxWallMs: FAMILY_BUDGETS.hanoi.maxWallSeconds * 1000 },
  make(spec, options) {
    return new PlaygroundEnvironment(spec, options.access, FAMILIES[spec.payload.family]);
  },
  score,
  aggregate: aggregatePlayground,
  renderer: playgroundRenderer,
  hidden: hiddenValues,
  goalState: playgroundGoalState,
  stats: playgroundStats,
  agents: [
    defineAgent({
      name: "reference",
      description:
        "privileged: the families' reference controllers (solvability proof), L3 specs only",
      privileged: true,
      options: NO_OPTIONS,
      create: () => referenceAgent(),
    }),
  ],
};
