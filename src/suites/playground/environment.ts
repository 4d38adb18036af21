/**
 * The shared playground environment (§3.1): describe / observe / step / finish over a family's
 * MuJoCo world. Observation reads leave simulated time unchanged; every control period the
 * world runs counts as one action against Table 4's budgets, whether it came from `step`, a
 * planning tool or a program in code mode.
 */
import type {
  AccessProfile,
  Action,
  Environment,
  EpisodeOutcome,
  Json,
  Observation,
  StepResult,
  TaskCard,
  TaskSpec,
  ToolCall,
  ToolSpec,
} from "../../core/index.ts";
import { loadSandbox, runProgram } from "./code-mode.ts";
import { evaluateEpisode } from "./evaluator.ts";
import type { PlaygroundLatent } from "./hidden.ts";
import type { PlaygroundPayload } from "./payload.ts";
import { type Grant, grantsOf, type Violation } from "./protocol.ts";
import {
  type Control,
  ToolRefusal,
  type ToolResult,
  type Verdict,
  type World,
  type WorldTool,
} from "./world.ts";

/** A task family: its tool and command declarations and how to build a world. */
export interface FamilyDef {
  tools: { spec: ToolSpec; grant: Grant }[];
  commandSchema: Record<string, unknown>;
  /** Builds the world of a task (async: the physics module loads on first use). */
  build(payload: PlaygroundPayload): Promise<World>;
  /** The independent goal check over the world's evidence. */
  verdict(evidence: Json): Verdict;
}

/** How the episode's physical execution ended, as the environment saw it. */
export interface Termination {
  code: "TIME" | "AMMO" | "DROP" | "VIOLATION" | "FINISH" | "REJECTED";
  time: number;
  detail: string;
}

/** Control periods one `step` call may request. */
const MAX_PERIODS_PER_STEP = 500;

const GENERIC_TOOLS: { spec: ToolSpec; grant: Grant }[] = [
  {
    grant: "control",
    spec: {
      name: "observe",
      description: "Read the permitted observations. Does not advance simulated time.",
      parameters: { type: "object", properties: {}, additionalProperties: false },
    },
  },
  {
    grant: "control",
    spec: {
      name: "wait",
      description: "Hold the current commands and let the physics run for `seconds`.",
      parameters: {
        type: "object",
        properties: { seconds: { type: "number", exclusiveMinimum: 0, maximum: 30 } },
        required: ["seconds"],
        additionalProperties: false,
      },
    },
  },
  {
    grant: "code",
    spec: {
      name: "run_program",
      description:
        "Run a JavaScript program in a sandbox. It may call observe(), step(command, periods), " +
        "wait(seconds) and tool(name, args) in loops; console.log lines and the returned value " +
        "come back. Budgets apply to every call; the program stops when the episode ends.",
      parameters: {
        type: "object",
        properties: { code: { type: "string", minLength: 1 } },
        required: ["code"],
        additionalProperties: false,
      },
    },
  },
];

/** One playground episode. */
export class PlaygroundEnvironment implements Environment {
  private world: World | undefined;
  private actions = 0;
  private startedWall = 0;
  private termination: Termination | undefined;
  private finished = false;
  /** Rejected actions so far (direct calls and program bridge calls), §5.4. */
  private rejected = 0;
  private readonly grants: Grant[];
  private worldTools: Record<string, WorldTool> = {};
  private sandbox: Awaited<ReturnType<typeof loadSandbox>> | undefined;

  constructor(
    private readonly spec: TaskSpec<PlaygroundPayload>,
    private readonly access: AccessProfile,
    private readonly def: FamilyDef,
  ) {
    this.grants = grantsOf(spec.payload.level);
  }

  describe(): TaskCard {
    const p = this.spec.payload;
    const b = p.budget;
    const tools = [
      ...GENERIC_TOOLS.filter((t) => this.grants.includes(t.grant)).map((t) => t.spec),
      this.stepSpec(),
      ...this.def.tools.filter((t) => this.grants.includes(t.grant)).map((t) => t.spec),
    ];
    return {
      id: this.spec.id,
      suite: "playground",
      title: `${p.entry.index} ${p.entry.title} (condition ${p.condition + 1}, ${p.level})`,
      instructions: p.instructions,
      tools,
      modes: ["tool", "wait", "finish"],
      rules: p.rules,
      budgets: { maxSimTime: b.maxSimTime, maxWallMs: b.maxWallSeconds * 1000 },
      access: this.access,
    };
  }

  private stepSpec(): ToolSpec {
    const schema = this.def.commandSchema;
    const properties = { ...(schema.properties as Record<string, unknown>) };
    properties.periods = {
      type: "integer",
      minimum: 1,
      maximum: MAX_PERIODS_PER_STEP,
      description: "control periods to hold this command (each is one action); default 1",
    };
    return {
      name: "step",
      description: `Apply a low-level command and advance the physics by control periods (1/${this.spec.payload.budget.controlHz} s each).`,
      parameters: { ...schema, properties },
    };
  }

  async reset(): Promise<Observation> {
    this.world?.close();
    this.startedWall = Date.now();
    this.world = await this.def.build(this.spec.payload);
    const all = this.world.tools();
    this.worldTools = Object.fromEntries(
      this.def.tools
        .filter((t) => this.grants.includes(t.grant) && all[t.spec.name])
        .map((t) => [t.spec.name, all[t.spec.name]!]),
    );
    this.sandbox = await loadSandbox();
    this.actions = 0;
    this.rejected = 0;
    this.termination = undefined;
    this.finished = false;
    return this.observation([{ type: "start", text: this.spec.payload.instructions }]);
  }

  step(action: Action): StepResult {
    const world = this.live();
    if (this.termination) return this.result([], "the episode has ended");
    switch (action.kind) {
      case "finish":
        this.finished = true;
        this.termination = { code: "FINISH", time: world.sim.time, detail: action.answer ?? "" };
        return this.result([{ type: "finished", text: "finish called; the evaluator decides" }]);
      case "wait":
        this.control().run(1);
        return this.result([]);
      case "say":
        this.reject("say: this suite takes tool calls, wait or finish");
        return this.result([], undefined, {
          code: "wrong-mode",
          reason: "this suite takes tool calls, wait or finish",
        });
      case "tool": {
        const events: Observation["events"] = [];
        for (const call of action.calls) {
          const answer = this.dispatch(call);
          if ("refusal" in answer) {
            const r = answer.refusal;
            this.reject(`${call.tool}: ${r.message}`);
            return this.result(events, undefined, {
              code: r.code,
              reason: `${call.tool}: ${r.message}`,
              ...(r.path ? { path: r.path } : {}),
            });
          }
          events.push({
            type: "tool-result",
            text: `${call.tool}: ${answer.result.text}`,
            ...(answer.result.data !== undefined ? { data: answer.result.data } : {}),
          });
          if (this.termination) break;
        }
        return this.result(events);
      }
    }
  }

  /** Run one tool call; refusals are returned, never thrown. */
  private dispatch(call: ToolCall): { result: ToolResult } | { refusal: ToolRefusal } {
    try {
      return { result: this.runTool(call.tool, call.args) };
    } catch (e) {
      if (e instanceof ToolRefusal) return { refusal: e };
      throw e;
    }
  }

  private runTool(name: string, args: Record<string, unknown>): ToolResult {
    const world = this.live();
    switch (name) {
      case "observe":
        return { text: "observed", data: this.view() };
      case "wait": {
        const seconds = args.seconds;
        if (typeof seconds !== "number" || !(seconds > 0) || seconds > 30) {
          throw new ToolRefusal("bad-arguments", "seconds must be a number in (0, 30]", "seconds");
        }
        const periods = Math.max(1, Math.round(seconds * this.spec.payload.budget.controlHz));
        this.control().run(periods);
        return { text: `waited ${periods} control periods` };
      }
      case "step": {
        const { periods = 1, ...command } = args;
        if (
          typeof periods !== "number" ||
          !Number.isInteger(periods) ||
          periods < 1 ||
          periods > MAX_PERIODS_PER_STEP
        ) {
          throw new ToolRefusal(
            "bad-arguments",
            `periods must be an integer in [1, ${MAX_PERIODS_PER_STEP}]`,
            "periods",
          );
        }
        world.applyCommand(command);
        this.control().run(periods);
        return { text: `stepped ${periods} control periods` };
      }
      case "run_program": {
        if (!this.grants.includes("code"))
          throw new ToolRefusal("not-allowed", "code mode is not granted");
        if (typeof args.code !== "string" || args.code.length === 0) {
          throw new ToolRefusal("bad-arguments", "code must be a non-empty string", "code");
        }
        return this.program(args.code);
      }
    }
    const tool = this.worldTools[name];
    if (!tool) {
      const known = this.def.tools.some((t) => t.spec.name === name);
      throw new ToolRefusal(
        known ? "not-allowed" : "unknown-tool",
        known ? `not granted at ${this.spec.payload.level}` : "no such tool",
      );
    }
    return tool(args, this.control());
  }

  private program(code: string): ToolResult {
    const budget = this.spec.payload.budget;
    const deadlineMs = this.startedWall + budget.maxWallSeconds * 1000;
    const result = runProgram(
      this.sandbox!,
      code,
      (name, args) => {
        if (this.termination)
          return { error: `the episode ended (${this.termination.code})`, fatal: true };
        if (name === "run_program") return { error: "programs cannot start programs" };
        if (args === null || typeof args !== "object" || Array.isArray(args)) {
          return { error: "arguments must be an object" };
        }
        try {
          const r = this.runTool(name, args as Record<string, unknown>);
          if (this.termination) return { result: r.data ?? r.text, error: undefined };
          return { result: r.data ?? r.text };
        } catch (e) {
          if (!(e instanceof ToolRefusal)) throw e;
          this.reject(`${name} (in a program): ${e.message}`);
          return { error: `${e.code}: ${e.message}`, fatal: this.termination !== undefined };
        }
      },
      { deadlineMs },
    );
    if (!result.ok && Date.now() > deadlineMs && !this.termination) {
      this.termination = { code: "TIME", time: this.live().sim.time, detail: "wall-clock budget" };
    }
    const data: Json = {
      ok: result.ok,
      ...(result.value !== undefined ? { value: result.value } : {}),
      ...(result.error !== undefined ? { error: result.error } : {}),
      log: result.log,
      calls: result.bridgeCalls,
    };
    return { text: result.ok ? "program finished" : `program stopped: ${result.error}`, data };
  }

  /** Runs control periods against the budgets. */
  private control(): Control {
    const world = this.live();
    const { physicsHz, controlHz, maxWallSeconds } = this.spec.payload.budget;
    const substeps = Math.round(physicsHz / controlHz);
    const dt = world.sim.timestep;
    return {
      hz: controlHz,
      run: (max, done) => {
        for (let i = 0; i < max; i++) {
          if (this.termination) return false;
          for (let s = 0; s < substeps; s++) {
            world.beforePhysics(dt);
            world.sim.step();
            world.afterPhysics();
          }
          world.afterControl();
          this.actions++;
          this.checkEnd();
          if (this.termination) return false;
          if (done?.()) return true;
        }
        if (Date.now() - this.startedWall > maxWallSeconds * 1000)
          this.end("TIME", "wall-clock budget");
        return !this.termination;
      },
    };
  }

  private checkEnd(): void {
    const world = this.live();
    const first: Violation | undefined = world.violations[0];
    const ended = world.ended();
    const b = this.spec.payload.budget;
    if (first) this.end("VIOLATION", `${first.code}: ${first.detail}`);
    else if (ended) this.end(ended.code, ended.detail);
    else if (this.actions >= b.maxActions) this.end("TIME", `${b.maxActions} actions used`);
    else if (world.sim.time >= b.maxSimTime - 1e-9) this.end("TIME", `${b.maxSimTime} s simulated`);
  }

  /** Count a rejected action; under the paper's rule (§5.4) it ends the attempt as invalid. */
  private reject(detail: string): void {
    this.rejected++;
    if (this.spec.payload.rejected === "invalid") this.end("REJECTED", detail);
  }

  private end(code: Termination["code"], detail: string): void {
    this.termination ??= { code, time: this.live().sim.time, detail };
  }

  private view(): Json {
    const world = this.live();
    const b = this.spec.payload.budget;
    return {
      time: round(world.sim.time),
      actions: this.actions,
      remaining: {
        actions: b.maxActions - this.actions,
        simTime: round(b.maxSimTime - world.sim.time),
      },
      ...(world.publicView() as Record<string, Json>),
      ...(this.grants.includes("simulator") ? { simulator: world.simulatorView() } : {}),
    };
  }

  private observation(events: Observation["events"]): Observation {
    const world = this.live();
    const happened = world.drainEvents().map((text) => ({ type: "event", text }));
    return {
      step: this.actions,
      simTime: round(world.sim.time),
      events: [...events, ...happened],
      view: this.view(),
    };
  }

  private result(
    events: Observation["events"],
    note?: string,
    invalid?: StepResult["info"]["invalid"],
  ): StepResult {
    const ended = this.termination !== undefined && !this.finished;
    const extra = note ? [{ type: "note", text: note }] : [];
    if (ended && this.termination) {
      extra.push({ type: "ended", text: `${this.termination.code}: ${this.termination.detail}` });
    }
    return {
      observation: this.observation([...events, ...extra]),
      reward: 0,
      terminated: ended,
      truncated: false,
      info: {
        actions: this.actions,
        ...(invalid ? { invalid } : {}),
      },
    };
  }

  outcome(): EpisodeOutcome {
    const world = this.live();
    return evaluateEpisode(this.spec.payload, world, this.def.verdict, {
      actions: this.actions,
      rejected: this.rejected,
      termination: this.termination,
    });
  }

  latent(): Json {
    if (!this.world) return null;
    const latent: PlaygroundLatent = {
      state: this.world.sim.state() as unknown as Json,
      evidence: this.world.evidence(),
      view: {
        ...(this.world.publicView() as Record<string, Json>),
        simulator: this.world.simulatorView(),
      },
    };
    return latent as unknown as Json;
  }

  close(): void {
    this.world?.close();
    this.world = undefined;
  }

  private live(): World {
    if (!this.world) throw new Error("reset() first (or the environment was closed)");
    return this.world;
  }
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
