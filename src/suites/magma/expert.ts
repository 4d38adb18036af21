/**
 * The reactive expert (the oracle agent's policy and the compiler's horizon counter): from the
 * latent symbolic state and the stage script it dispatches, for every free robot, the family
 * program's next skill on the open units of the current stage; retries failed skills (the state
 * did not change, so the same step comes again), detects again after a missed detection (the
 * item stays unknown), follows interruptions and resumes (it always works on the current
 * stage's open units). Text stages get the expected answer or an acknowledgement.
 */
import type { Action, ToolCall } from "../../core/index.ts";
import type { MagmaLatent } from "./environment.ts";
import type { Family } from "./family.ts";
import type { Renamer } from "./realize.ts";
import { NodeIndex, SymState } from "./sym-state.ts";
import type { MagmaPayload, Stage, Unit } from "./types.ts";

/** What the expert says on an acknowledgement stage. */
export function acknowledgement(stage: Stage): string {
  if (stage.request === "report") return "Done: the task you asked for is complete.";
  if (stage.request === "update") return "Understood, I will apply the new rule from now on.";
  return "Understood, I will remember that.";
}

/** The expert for one episode. */
export class Expert {
  private readonly index: NodeIndex;

  constructor(
    private readonly family: Family,
    private readonly payload: MagmaPayload,
    private readonly names: Renamer,
  ) {
    this.index = new NodeIndex(payload.scene);
  }

  /** The expert's decision on this latent state. */
  decide(latent: MagmaLatent): Action {
    const stage = this.payload.stages[latent.stage] as Stage;
    if (stage.type === "acknowledge") return { kind: "say", text: acknowledgement(stage) };
    if (stage.type === "answer") return { kind: "say", text: stage.answer ?? "I do not know." };
    const calls = this.calls(latent, stage);
    if (calls.length > 0) return { kind: "tool", calls };
    if (Object.keys(latent.running).length > 0) return { kind: "wait" };
    return { kind: "say", text: "I cannot make progress on this task." };
  }

  /** One call per free robot that can advance an open unit. */
  private calls(latent: MagmaLatent, stage: Stage): ToolCall[] {
    const units = stage.units ?? [];
    const isOpen = new Set(latent.open);
    // Units waiting for a predecessor are not eligible yet.
    const ready = latent.open.filter(
      (j) => !(stage.precedes ?? []).some(([i, k]) => k === j && isOpen.has(i)),
    );
    let open: Unit[] = ready.map((i) => units[i] as Unit);
    if (stage.ordered) open = open.slice(0, 1);
    const s = new SymState(this.index, latent.world);
    const known = new Set(latent.known);
    const busy = new Set(Object.keys(latent.running));
    const reserved = new Set<string>();
    const reserveRooms = (args: Record<string, string>) => {
      for (const v of Object.values(args))
        if (this.index.type(v) === "room") reserved.add(`room:${v}`);
    };
    for (const r of Object.values(latent.running)) {
      for (const item of r.items) reserved.add(item);
      reserveRooms(r.args);
      if (this.family.skills.find((k) => k.name === r.skill)?.kind === "perception")
        reserved.add("$detect");
    }
    const out: ToolCall[] = [];
    for (const robot of this.index.robots) {
      if (busy.has(robot)) continue;
      const call = this.family.step({ s, robot, known, reserved, busy, open });
      if (!call) continue;
      busy.add(robot);
      const def = this.family.skills.find((k) => k.name === call.skill);
      if (def?.kind === "perception") reserved.add("$detect");
      for (const v of Object.values(call.args)) reserved.add(v);
      reserveRooms(call.args);
      const held = s.held(robot);
      if (held) reserved.add(held);
      const args: Record<string, string> = {};
      for (const [k, v] of Object.entries(call.args)) args[k] = this.names.name(v);
      out.push({ tool: this.names.name(call.skill), args, robot: this.names.name(robot) });
    }
    return out;
  }
}
