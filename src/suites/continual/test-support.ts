/** Hand-made tasks for the continual suite's tests. */
import type { Action, TaskSpec } from "../../core/index.ts";
import type { ContinualPayload } from "./payload.ts";
import type { TaskDef } from "./task.ts";

/** The paper's Table 3 task: turn off the overhead light and open the media cabinet. */
export const movieNight: TaskDef = {
  id: "L2-test-001",
  level: "basic",
  height: "adult",
  scene: "scene_001",
  room: "living_room",
  goals: [
    { action: "switch_off", object: "ceiling_light", category: "appliance" },
    { action: "open", object: "media_cabinet", category: "container" },
  ],
  categories: ["appliance", "container"],
  objects: ["ceiling_light", "media_cabinet", "television"],
  distractors: ["television"],
  initial: { ceiling_light: { on: true }, media_cabinet: { open: false } },
  scenario: "movie",
  description:
    "I'm about to watch a movie in the living room. Turn off the overhead light and open up the TV cabinet for the movie.",
  related: [],
};

/** A pick-and-place task with the object already in hand for one goal. */
export const tidy: TaskDef = {
  ...movieNight,
  id: "L4-test-001",
  level: "advanced",
  goals: [
    { action: "drop", object: "magazine", target: "trash_can", category: "handling" },
    { action: "pick_up", object: "cup", category: "placement" },
    { action: "place_on", object: "cup", target: "bookshelf", category: "placement" },
    { action: "switch_on", object: "floor_lamp", category: "appliance" },
  ],
  categories: ["handling", "placement", "appliance"],
  objects: ["magazine", "trash_can", "cup", "bookshelf", "floor_lamp", "television"],
  held: "magazine",
  initial: { floor_lamp: { on: false } },
  scenario: "guest",
};

/** A zero-shot test episode of movie night with 3 extra steps. */
export const movieNightSpec: TaskSpec<ContinualPayload> = {
  suite: "continual",
  id: "zero-shot/L2-test-001",
  family: "appliance",
  tags: {},
  seed: "s",
  payload: {
    setting: "zero-shot",
    phase: "test",
    stream: null,
    extra: 3,
    k: 0,
    pathLength: 6,
    seed: "test-seed",
    task: { source: "generated", def: movieNight },
  },
};

/** The action that selects one option (a letter, or anything to test rejection). */
export const select = (option: unknown): Action => ({
  kind: "tool",
  calls: [{ tool: "select_option", args: { option, reason: "test" } }],
});
