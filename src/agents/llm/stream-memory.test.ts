import { describe, expect, it } from "vitest";
import type { Json, StreamPosition } from "../../core/index.ts";
import { EpisodeMemory, readMemory } from "./stream-memory.ts";

const at = (phase: string | undefined, memory?: StreamPosition["memory"]): StreamPosition => ({
  id: "s@0",
  index: 0,
  length: 3,
  ...(phase ? { phase } : {}),
  ...(memory ? { memory } : {}),
});

function play(memory: EpisodeMemory, steps: number, success: boolean): Json | undefined {
  for (let i = 0; i < steps; i++) memory.record(`scene ${i}`, `select_option {"option":"A"}`);
  memory.end({ success, steps });
  return memory.snapshot();
}

describe("llm stream memory", () => {
  it("reads any JSON, keeping only well-formed trajectories and the note", () => {
    expect(readMemory(undefined)).toEqual({ trajectories: [] });
    expect(readMemory("text" as Json)).toEqual({ trajectories: [] });
    expect(
      readMemory({
        trajectories: [{ title: "t", transcript: "x" }, { title: 3 }],
        note: "n",
      } as unknown as Json),
    ).toEqual({ trajectories: [{ title: "t", transcript: "x" }], note: "n" });
  });

  it("trajectories: learning episodes add their transcript; the test sees all of them", () => {
    const first = play(
      new EpisodeMemory({ stream: at("learn", "trajectories") }, "stream", "Task 1"),
      2,
      true,
    );
    expect(first).toEqual({
      trajectories: [
        {
          title: "Task 1",
          phase: "learn",
          transcript:
            'Observation:\nscene 0\n\nYour reply: select_option {"option":"A"}\n\nObservation:\nscene 1\n\nYour reply: select_option {"option":"A"}\n\nOutcome: the task was completed after 2 steps.',
        },
      ],
    });
    const second = play(
      new EpisodeMemory({ stream: at("learn", "trajectories"), memory: first }, "stream", "Task 2"),
      1,
      false,
    );
    const test = new EpisodeMemory(
      { stream: at("test", "trajectories"), memory: second },
      "stream",
      "Task 3",
    );
    const section = test.systemSection() ?? "";
    expect(section).toContain("### Earlier task 1 (learn): Task 1");
    expect(section).toContain("### Earlier task 2 (learn): Task 2");
    expect(section).toContain("the task was not completed after 1 steps");
    expect(test.needsSkillNote()).toBe(false);
    // The test episode adds nothing of its own.
    expect(play(test, 1, true)).toEqual(second);
  });

  it("skill: a note is due only after the learning phase, and then replaces the trajectories", () => {
    const learned = play(
      new EpisodeMemory({ stream: at("learn", "skill") }, "stream", "Task 1"),
      1,
      true,
    );
    const learning = new EpisodeMemory(
      { stream: at("learn", "skill"), memory: learned },
      "stream",
      "Task 2",
    );
    expect(learning.needsSkillNote()).toBe(false);
    expect(learning.systemSection()).toBeUndefined();
    const test = new EpisodeMemory(
      { stream: at("test", "skill"), memory: learned },
      "stream",
      "Task 3",
    );
    expect(test.needsSkillNote()).toBe(true);
    expect(test.pending()).toHaveLength(1);
    test.setNote("  - face, walk, operate\n");
    expect(test.needsSkillNote()).toBe(false);
    expect(test.systemSection()).toContain("<skill>\n- face, walk, operate\n</skill>");
    expect(play(test, 1, true)).toEqual({ trajectories: [], note: "- face, walk, operate" });
  });

  it("a forced policy overrides the stream's; off and streams without a form pass memory on", () => {
    const forced = new EpisodeMemory({ stream: at("test") }, "skill", "t");
    expect(forced.form).toBe("skill");
    const off = new EpisodeMemory({ stream: at("test", "skill"), memory: { x: 1 } }, "off", "t");
    expect(off.form).toBeNull();
    expect(off.systemSection()).toBeUndefined();
    expect(play(off, 1, true)).toEqual({ x: 1 });
    const none = new EpisodeMemory({ stream: at("learn") }, "stream", "t");
    expect(play(none, 1, true)).toBeUndefined();
  });
});
