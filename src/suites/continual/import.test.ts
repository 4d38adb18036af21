import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent } from "../../agents/index.ts";
import { DEFAULT_ACCESS } from "../../core/index.ts";
import { loadRun } from "../../log/index.ts";
import { runSuite } from "../../run/index.ts";
import { compileContinual, streamsOf } from "./compile.ts";
import { ContinualEnvironment, type ContinualLatent, type ContinualView } from "./environment.ts";
import { displayName, normalizePredicate } from "./import.ts";
import { continualSuite } from "./index.ts";

const L2 = (n: number) => `task_L2_HL_v5_child_000${n}`;
const L4 = "task_L4_HL_v5_child_0001";

/** A lamp task in the authors' graph format: look, walk, switch off; a detour via the TV. */
function lampGraph(id: string, variant: "plain" | "fallbacks" = "plain") {
  const lamp = "BP_TableLamp_001";
  const tv = "BP_TV_hanged_002";
  const s = (...p: string[]) => ["exists(BP_TableLamp_001)", ...p];
  const nodes = [
    { id: "state_0000", depth: 0, state: s(`powered_on(${lamp})`, "empty") },
    { id: "state_0001", depth: 1, state: s(`in_view( ${lamp} )`, `powered_on(${lamp})`, "empty") },
    {
      id: "state_0002",
      depth: 2,
      state: s(`in_view(${lamp})`, `with_reach(${lamp})`, `powered_on(${lamp})`, "empty"),
    },
    {
      id: "state_0003",
      depth: 3,
      state: s(`in_view(${lamp})`, `with_reach(${lamp})`, `powered_off(${lamp})`, "empty"),
      is_goal: true,
    },
    { id: "state_0004", depth: 1, state: s(`in_view(${tv})`, `powered_on(${lamp})`, "empty") },
  ];
  const edges = [
    {
      from: "state_0000",
      to: "state_0001",
      action: `look_at_${lamp}`,
      action_type: "look_at",
      template_id: "look_at_{object}",
      role_bindings: { object: lamp },
      is_success_edge: true,
    },
    {
      from: "state_0000",
      to: "state_0004",
      action: `look_at_${tv}`,
      action_type: "look_at",
      template_id: "look_at_{object}",
      role_bindings: { object: tv },
    },
    {
      from: "state_0004",
      to: "state_0001",
      action: `look_at_${lamp}`,
      action_type: "look_at",
      template_id: "look_at_{object}",
      role_bindings: { object: lamp },
    },
    {
      from: "state_0001",
      to: "state_0002",
      action: `walk_to_${lamp}`,
      action_type: "walk_to",
      template_id: "walk_to_{object}",
      role_bindings: { object: lamp },
      is_success_edge: true,
    },
    {
      from: "state_0002",
      to: "state_0002",
      action: `walk_to_${lamp}`,
      action_type: "walk_to",
      template_id: "walk_to_{object}",
      role_bindings: { object: lamp },
    },
    {
      from: "state_0002",
      to: "state_0003",
      action: `switch_off_${lamp}`,
      action_type: "switch_off",
      template_id: "switch_off_{object}",
      role_bindings: { object: lamp },
      is_success_edge: true,
    },
  ];
  if (variant === "fallbacks")
    return {
      task_id: id,
      description_highlevel: `Dim the reading light (${id}).`,
      initial_state: { predicates: nodes[0]?.state },
      final_state: [`powered_off(${lamp})`],
      nodes: nodes.map(({ depth: _d, state, ...n }) => ({
        ...n,
        state: { predicates: state },
        is_goal_state: n.id === "state_0003",
      })),
      edges: edges.map(({ action, ...e }) => ({ ...e, atomic_action: action })),
      goal_nodes: [],
      goal_paths: [
        [
          { action: `look_at_${lamp}` },
          { action: `walk_to_${lamp}` },
          { action: `switch_off_${lamp}` },
        ],
      ],
    };
  return {
    task_id: id,
    description: `Get the bedroom dark for the night (${id}).`,
    initial_state: nodes[0]?.state,
    goal_state: [`powered_off(${lamp})`],
    nodes,
    dag_edges: edges,
    goal_nodes: ["state_0003"],
    goal_paths: [[`look_at_${lamp}`, `walk_to_${lamp}`, `switch_off_${lamp}`]],
  };
}

/** Four choices per state: the authors' bank rows (valid ones name an outgoing edge). */
function bankRows(id: string, fallbacks = false) {
  const lamp = "BP_TableLamp_001";
  const choice = (text: string, kind: string, action = "") =>
    fallbacks
      ? { option_text: text, kind, action_id: action }
      : { text, kind, action_id: action, design_note: "x" };
  const row = (state: string, choices: unknown[]) =>
    fallbacks
      ? { task_id: id, current_state_id: state, choices }
      : { task_id: id, state_id: state, choices, scene_id: "001" };
  return [
    row("state_0000", [
      choice(
        "Head over to the reading light to get it ready for the night.",
        "invalid",
        `walk_to_${lamp}`,
      ),
      choice(
        "The reading light is the first thing to deal with before sleeping.",
        "valid",
        `look_at_${lamp}`,
      ),
      choice(
        "Check the screen on the wall to see whether it is still glowing.",
        "valid",
        "look_at_BP_TV_hanged_002",
      ),
      choice(
        "Switch off the reading light right away to darken the room.",
        "invalid",
        `switch_off_${lamp}`,
      ),
    ]),
    row("state_0004", [
      choice(
        "Turn back to the reading light, which still needs attention tonight.",
        "valid",
        `look_at_${lamp}`,
      ),
      choice(
        "Switch off the reading light so the room goes dark at once.",
        "invalid",
        `switch_off_${lamp}`,
      ),
      choice(
        "Walk over to the reading light and get close to its switch.",
        "invalid",
        `walk_to_${lamp}`,
      ),
      choice("Power down the screen on the wall before heading to bed.", "invalid"),
    ]),
    row("state_0001", [
      choice(
        "Walk over to the reading light so the switch is within reach.",
        "valid",
        `walk_to_${lamp}`,
      ),
      choice(
        "Kill the reading light to start dimming the room for the night.",
        "invalid",
        `switch_off_${lamp}`,
      ),
      choice(
        "Glance at the reading light to confirm how bright it still is.",
        "invalid",
        `look_at_${lamp}`,
      ),
      choice("Brighten the reading light so you can see what is left to tidy.", "invalid"),
    ]),
    row("state_0002", [
      choice(
        "Switch off the reading light so the room can rest for the night.",
        "valid",
        `switch_off_${lamp}`,
      ),
      choice(
        "Step closer to the reading light to get a better grip on the switch.",
        "valid",
        `walk_to_${lamp}`,
      ),
      choice(
        "Focus on the reading light to check how it is doing tonight.",
        "invalid",
        `look_at_${lamp}`,
      ),
      choice("Switch on the reading light to brighten the bedside for cleanup.", "invalid"),
    ]),
  ];
}

function writeSource(
  options: { fallbacks?: boolean; mutate?: (dir: string) => void } = {},
): string {
  const dir = mkdtempSync(join(tmpdir(), "lh-continual-src-"));
  const ids = [L2(1), L2(2), L4];
  for (const id of ids) {
    const input = join(dir, "tasks", id, "input");
    mkdirSync(input, { recursive: true });
    writeFileSync(
      join(input, `${id}_atomic_expanded_graph.json`),
      JSON.stringify(lampGraph(id, options.fallbacks && id === L4 ? "fallbacks" : "plain")),
    );
  }
  const item = (id: string, level: string) => ({
    task_id: id,
    level,
    difficulty_level: level,
    height: "child",
    scene_id: "001",
    description: `A household task (${id}).`,
    task_dir: `tasks/${id}`,
    ability_categories: ["appliance operation"],
    states: [],
  });
  writeFileSync(
    join(dir, "ready_l2_tasks_with_images.json"),
    JSON.stringify([item(L2(1), "L2"), item(L2(2), "L2")]),
  );
  writeFileSync(
    join(dir, "ready_l4_tasks_with_images.json"),
    JSON.stringify({ tasks: [item(L4, "L4")] }),
  );
  writeFileSync(
    join(dir, "learning_plan.json"),
    JSON.stringify({
      schema_version: "tongbench_target_learning_plan_v2",
      easy_level: "L2",
      hard_level: "L4",
      learning_count_per_target: 2,
      targets: [{ target_task_id: L4, learning_task_ids: [L2(1), L2(2)] }],
    }),
  );
  const rows = ids.flatMap((id) => bankRows(id, options.fallbacks && id === L4));
  writeFileSync(
    join(dir, "option_bank_highlevel_v2_smoke.jsonl"),
    `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`,
  );
  options.mutate?.(dir);
  return dir;
}

describe("importing the authors' released format (--compile source=DIR)", () => {
  it("normalizes predicates and object names as the authors' loader does", () => {
    expect(normalizePredicate(" in_view( BP_Lamp_001 ,  x ) ")).toBe("in_view(BP_Lamp_001, x)");
    expect(displayName("BP_TableLamp_001")).toBe("table lamp");
  });

  it("compiles zero-shot episodes and the learning plan's ICL and skill streams", () => {
    const specs = compileContinual({ source: writeSource() });
    expect(specs.map((s) => s.id)).toEqual([
      `zero-shot/${L2(1)}`,
      `zero-shot/${L2(2)}`,
      `zero-shot/${L4}`,
      `icl/${L4}/learn-1`,
      `icl/${L4}/learn-2`,
      `icl/${L4}/test`,
      `skill/${L4}/learn-1`,
      `skill/${L4}/learn-2`,
      `skill/${L4}/test`,
    ]);
    expect(streamsOf(specs)).toEqual([
      {
        id: `icl/${L4}`,
        memory: "trajectories",
        episodes: [
          { task: `icl/${L4}/learn-1`, phase: "learn" },
          { task: `icl/${L4}/learn-2`, phase: "learn" },
          { task: `icl/${L4}/test`, phase: "test" },
        ],
      },
      {
        id: `skill/${L4}`,
        memory: "skill",
        episodes: [
          { task: `skill/${L4}/learn-1`, phase: "learn" },
          { task: `skill/${L4}/learn-2`, phase: "learn" },
          { task: `skill/${L4}/test`, phase: "test" },
        ],
      },
    ]);
    expect(specs[2]?.tags).toMatchObject({
      level: "advanced",
      height: "child",
      path_length: 3,
      category: "appliance operation",
    });
    expect(specs[2]?.payload.pathLength).toBe(3);
  });

  it("runs the authors' graph unchanged: bank order, roles from the graph, invalid choices stay put", () => {
    for (const fallbacks of [false, true]) {
      const spec = compileContinual({ source: writeSource({ fallbacks }) }).find(
        (s) => s.id === `zero-shot/${L4}`,
      );
      if (!spec) throw new Error("no spec");
      const env = new ContinualEnvironment(spec, DEFAULT_ACCESS);
      const view = env.reset().view as unknown as ContinualView;
      expect(view.choices[1]?.text).toBe(
        "The reading light is the first thing to deal with before sleeping.",
      );
      expect(view.scene).toContain("the table lamp is switched on");
      const roles = () => (env.latent() as unknown as ContinualLatent).choices.map((c) => c.role);
      expect(roles()).toEqual(["invalid", "success_path", "valid_detour", "invalid"]);
      expect(
        env.step({ kind: "tool", calls: [{ tool: "select_option", args: { option: "D" } }] }).info
          .invalid?.code,
      ).toBe("precondition");
      expect((env.latent() as unknown as ContinualLatent).state).toBe("state_0000");
      env.step({ kind: "tool", calls: [{ tool: "select_option", args: { option: "C" } }] }); // the detour to the TV
      expect(roles()).toEqual(["success_path", "invalid", "invalid", "invalid"]);
      for (const option of ["A", "A", "A"])
        env.step({ kind: "tool", calls: [{ tool: "select_option", args: { option } }] });
      const outcome = env.outcome();
      expect(outcome.success).toBe(true);
      const score = continualSuite.score(spec, outcome, {} as never);
      expect(score.metrics).toMatchObject({
        steps: 5,
        optimal: 3,
        suboptimal: 1,
        invalid: 1,
        success_step: 5,
      });
    }
  });

  it("the oracle solves the imported suite through the runner, streams included", async () => {
    const outDir = mkdtempSync(join(tmpdir(), "lh-continual-import-run-"));
    const { agent, config } = await createAgent("oracle", {}, continualSuite as never);
    const summary = await runSuite({
      suite: continualSuite,
      compile: { source: writeSource() },
      agent,
      agentConfig: config,
      outDir,
      seed: "0",
      epochs: 1,
      concurrency: 2,
    });
    expect(summary.status).toBe("finished");
    const { records } = loadRun(outDir);
    expect(records).toHaveLength(9);
    expect(records.every((r) => r.status === "success" && r.steps === 3)).toBe(true);
    expect(records.filter((r) => r.stream?.memory === "skill").map((r) => r.stream?.phase)).toEqual(
      ["learn", "learn", "test"],
    );
  });

  it("rejects malformed data with the file and the path of what is wrong", () => {
    const edit =
      (file: string, change: (raw: Record<string, unknown>) => void) => (dir: string) => {
        const path = join(dir, file);
        const raw = JSON.parse(readFileSync(path, "utf8"));
        change(raw);
        writeFileSync(path, JSON.stringify(raw));
      };
    const graphFile = `tasks/${L4}/input/${L4}_atomic_expanded_graph.json`;
    const cases: [(dir: string) => void, RegExp][] = [
      [
        edit(graphFile, (g) => {
          (g.dag_edges as { to: string }[])[1]!.to = "state_9999";
        }),
        /dag_edges\[1\]\.to.*unknown node state_9999/,
      ],
      [
        edit(graphFile, (g) => {
          (g.nodes as { id: string }[])[2]!.id = "state_0001";
        }),
        /nodes\[2\]\.id.*duplicate node/,
      ],
      [
        edit(graphFile, (g) => {
          delete g.task_id;
        }),
        /task_id.*missing/,
      ],
      [
        edit("learning_plan.json", (p) => {
          (p.targets as { learning_task_ids: string[] }[])[0]!.learning_task_ids = ["nope"];
        }),
        /learning task nope/,
      ],
      [
        (dir) =>
          writeFileSync(
            join(dir, "option_bank_highlevel_v2_smoke.jsonl"),
            '{"task_id": "x"}\nnot json\n',
          ),
        /line 1.*needs task_id, state_id and choices/,
      ],
      [
        (dir) =>
          writeFileSync(
            join(dir, "option_bank_highlevel_v2_smoke.jsonl"),
            bankRows(L2(1))
              .map((r) => JSON.stringify(r))
              .join("\n"),
          ),
        /no rows for task task_L2_HL_v5_child_0002/,
      ],
      [
        (dir) => {
          const rows = [...bankRows(L2(1)), ...bankRows(L2(2)), ...bankRows(L4)];
          (rows[8] as { choices: { kind: string; action_id: string }[] }).choices[0] = {
            kind: "valid",
            action_id: "fly_away",
          } as never;
          (rows[8] as { choices: { text?: string }[] }).choices[0]!.text = "Fly away.";
          writeFileSync(
            join(dir, "option_bank_highlevel_v2_smoke.jsonl"),
            rows.map((r) => JSON.stringify(r)).join("\n"),
          );
        },
        /state_0000\.choices\[0\].*valid action fly_away is not an edge out of state_0000/,
      ],
    ];
    for (const [mutate, message] of cases) {
      const dir = writeSource({ mutate });
      let error: unknown;
      try {
        compileContinual({ source: dir });
      } catch (e) {
        error = e;
      }
      expect(error, String(message)).toBeDefined();
      const text = `${(error as { path?: string }).path ?? ""}: ${(error as Error).message}`;
      expect(text).toMatch(message);
    }
  });
});
