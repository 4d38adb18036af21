/**
 * The Hanoi world: the board in MuJoCo, one floating parallel gripper, the legal-move rule
 * checked physically (a ring resting on a smaller ring; two rings off their seats at once),
 * drops, penetration and speed limits, and the 1 s seated dwell of §5.4.
 */
import type { Json } from "../../../core/index.ts";
import { GripperDriver, PAD_DROP, quatYaw, Sim } from "../../../physics/index.ts";
import { readGripperCommand, readPose } from "../commands.ts";
import { FAMILY_BUDGETS, PHYSICAL_LIMITS, type Violation } from "../protocol.ts";
import { type Control, ToolRefusal, type World, type WorldEnd, type WorldTool } from "../world.ts";
import { handleGraspRadius, TOWER_GRIPPER, type TowerScene, towerMjcf } from "./board.ts";
import { RINGS } from "./hanoi.ts";

/** The §5.4 stability window for Hanoi (seconds). */
export const HANOI_DWELL = 1.0;
/** A ring counts as at rest below these speeds (m/s, rad/s). */
export const REST_SPEED = 0.03;
export const REST_SPIN = 0.5;
/** Off-seat for this many control periods at once makes "two rings lifted" (filters bounces). */
export const LIFT_PERIODS = 3;
/** Where a pad's bottom sits above the handle's bottom when grasping. */
const GRASP_LIFT = 0.003;

/** Palm height above a ring's bottom face that centres the pads on its handle tab. */
export const PALM_ABOVE_RING_BOTTOM = GRASP_LIFT + 0.025 + PAD_DROP;

/** What the world knows of one ring this control period. */
interface RingStatus {
  resting: boolean;
  pos: [number, number, number];
  yaw: number;
  speed: number;
  /** Peg the ring is seated on, or -1. */
  seat: number;
  /** Peg the ring encircles (seated or not), or -1. */
  around: number;
  /** Touching a gripper pad. */
  held: boolean;
}

export class HanoiWorld implements World {
  readonly family = "hanoi" as const;
  readonly budget = FAMILY_BUDGETS.hanoi;
  readonly violations: Violation[] = [];
  private readonly gripper: GripperDriver;
  private readonly ringBodies: number[];
  private readonly geomRing: Map<number, number>;
  private readonly padGeoms: Set<number>;
  private status: RingStatus[] = [];
  private events: string[] = [];
  private lastSeat: number[];
  private offSeatPeriods = 0;
  private goalSince: number | undefined;
  private moves: { ring: number; from: number; to: number; time: number }[] = [];
  private lifted: Map<number, number> = new Map();
  private endState: WorldEnd | undefined;

  private constructor(
    readonly sim: Sim,
    readonly scene: TowerScene,
  ) {
    this.gripper = new GripperDriver(sim, { name: TOWER_GRIPPER, pos: scene.gripperStart });
    this.ringBodies = scene.rings.map((r) => sim.id("body", `ring${r.size}`));
    // A ring's walls and handle are on its body, its feet and deck on a rigid child body.
    const seats = scene.rings.map((r) => sim.id("body", `ring${r.size}_seat`));
    this.geomRing = new Map();
    for (let g = 0; g < sim.model.ngeom; g++) {
      const body = sim.geomBody(g);
      const ring = Math.max(this.ringBodies.indexOf(body), seats.indexOf(body));
      if (ring >= 0) this.geomRing.set(g, ring + 1);
    }
    this.padGeoms = new Set(this.gripper.padGeoms);
    this.lastSeat = [...scene.start];
    this.refresh();
  }

  static async create(scene: TowerScene): Promise<HanoiWorld> {
    const sim = await Sim.fromXml(towerMjcf(scene, 1 / FAMILY_BUDGETS.hanoi.physicsHz));
    return new HanoiWorld(sim, scene);
  }

  tools(): Record<string, WorldTool> {
    return {
      move_to: (args, control) => this.moveTo(args, control),
      grasp: (_args, control) => this.setGrip(1, control),
      release: (_args, control) => this.setGrip(0, control),
      grasp_pose: (args) => this.graspPose(args),
    };
  }

  applyCommand(args: Record<string, unknown>): void {
    this.gripper.command = readGripperCommand(args, this.gripper.command, "gripper");
  }

  beforePhysics(dt: number): void {
    this.gripper.beforeStep(dt);
  }

  afterPhysics(): void {}

  afterControl(): void {
    this.refresh();
    this.monitor();
  }

  ended(): WorldEnd | undefined {
    return this.endState;
  }

  /** The Hanoi state as seated now (-1 for a ring not seated). */
  seatedState(): number[] {
    return this.status.map((s) => s.seat);
  }

  private refresh(): void {
    const { sim, scene } = this;
    const contacts = sim.contacts();
    const held = new Set<number>();
    for (const c of contacts) {
      if (this.padGeoms.has(c.geom1) && this.geomRing.has(c.geom2))
        held.add(this.geomRing.get(c.geom2)!);
      if (this.padGeoms.has(c.geom2) && this.geomRing.has(c.geom1))
        held.add(this.geomRing.get(c.geom1)!);
    }
    const slack = scene.holeRadius - scene.pegRadius + 0.003;
    this.status = this.ringBodies.map((body, i) => {
      const pos = sim.bodyPos(body);
      const speed = sim.bodyLinearSpeed(body);
      const spin = sim.bodyAngularSpeed(body);
      let around = -1;
      scene.pegs.forEach((peg, p) => {
        const r = Math.hypot(pos[0] - peg.x, pos[1] - peg.y);
        if (r < slack && pos[2] < peg.base + peg.height) around = p;
      });
      return {
        pos,
        yaw: quatYaw(sim.bodyQuat(body)),
        speed,
        seat: -1,
        around,
        held: held.has(i + 1),
        resting: speed < REST_SPEED && spin < REST_SPIN,
      };
    });
    // Seated: around a peg at the height of the rings below it (or on the base).
    for (let p = 0; p < scene.pegs.length; p++) {
      const onPeg = this.status
        .map((s, i) => ({ s: s, size: i + 1 }))
        .filter(({ s }) => s.around === p)
        .sort((a, b) => a.s.pos[2] - b.s.pos[2]);
      let level = scene.pegs[p]!.base;
      for (const { s } of onPeg) {
        if (Math.abs(s.pos[2] - level) > 0.006) break;
        s.seat = p;
        level += scene.ringHeight;
      }
    }
  }

  private violate(code: Violation["code"], detail: string): void {
    this.violations.push({ code, time: this.sim.time, detail });
  }

  private monitor(): void {
    const { sim, scene, status } = this;
    const t = sim.time;
    // Seat changes: a ring leaving its peg and arriving on another is one move.
    status.forEach((s, i) => {
      const ring = i + 1;
      const was = this.lastSeat[i]!;
      if (s.seat >= 0 && s.seat !== was) {
        const from = this.lifted.get(ring) ?? was;
        if (from !== s.seat) {
          this.moves.push({ ring, from, to: s.seat, time: t });
          this.events.push(`ring ${ring} seated on peg ${"ABC"[s.seat]}`);
        }
        this.lifted.delete(ring);
      }
      if (s.seat < 0 && was >= 0) this.lifted.set(ring, was);
      this.lastSeat[i] = s.seat;
    });
    // Rule: a ring resting on a smaller ring.
    for (const c of sim.contacts()) {
      if (c.dist < -PHYSICAL_LIMITS.penetration) {
        this.violate("PEN", `penetration ${(-c.dist * 1000).toFixed(1)} mm`);
        return;
      }
      const a = this.geomRing.get(c.geom1);
      const b = this.geomRing.get(c.geom2);
      if (a === undefined || b === undefined || a === b) continue;
      const [upper, lower] = status[a - 1]!.pos[2] > status[b - 1]!.pos[2] ? [a, b] : [b, a];
      const gap = status[upper - 1]!.pos[2] - status[lower - 1]!.pos[2];
      if (upper > lower && gap > scene.ringHeight * 0.5 && !status[upper - 1]!.held) {
        this.violate("RULE", `ring ${upper} rests on the smaller ring ${lower}`);
        return;
      }
    }
    // Rule: only one ring off its seat at a time.
    const off = status.filter((s) => s.seat < 0).length;
    this.offSeatPeriods = off >= 2 ? this.offSeatPeriods + 1 : 0;
    if (this.offSeatPeriods >= LIFT_PERIODS) {
      const rings = status.flatMap((s, i) => (s.seat < 0 ? [i + 1] : [])).join(" and ");
      this.violate("RULE", `rings ${rings} are off their seats at once`);
      return;
    }
    // Drop: a ring at rest that is neither seated nor held, or one that left the workspace.
    status.forEach((s, i) => {
      const resting = s.resting;
      if (this.endState) return;
      if (s.pos[2] < -0.05 || Math.hypot(s.pos[0], s.pos[1]) > 0.6) {
        this.endState = { code: "DROP", detail: `ring ${i + 1} left the workspace` };
      } else if (s.seat < 0 && !s.held && resting && s.around < 0) {
        this.endState = { code: "DROP", detail: `ring ${i + 1} came to rest off the pegs` };
      }
    });
    const palmSpeed = sim.bodyLinearSpeed(this.gripper.palm);
    if (palmSpeed > PHYSICAL_LIMITS.palmSpeed) {
      this.violate("LIMIT", `gripper speed ${palmSpeed.toFixed(2)} m/s`);
      return;
    }
    // Goal with the gripper released: every ring seated as required, dwell timed from here.
    const goal =
      status.every((s, i) => s.seat === scene.goal[i]) && status.every((s) => !s.held && s.resting);
    if (goal) this.goalSince ??= t;
    else this.goalSince = undefined;
  }

  private moveTo(args: Record<string, unknown>, control: Control) {
    const target = readPose(args, this.gripper.command);
    const path = args.path ?? "direct";
    if (path !== "direct" && path !== "lift") {
      throw new ToolRefusal("bad-arguments", 'path must be "direct" or "lift"', "path");
    }
    const legs: [number, number, number][] = [];
    if (path === "lift") {
      const cur = this.gripper.target.pos;
      const safe = Math.max(this.safeHeight(), cur[2], target.pos[2]);
      legs.push([cur[0], cur[1], safe], [target.pos[0], target.pos[1], safe]);
    }
    legs.push(target.pos);
    let periods = 0;
    for (const leg of legs) {
      this.gripper.command = { ...this.gripper.command, pos: leg, yaw: target.yaw };
      const start = periods;
      control.run(30 * control.hz, () => ++periods > 0 && this.gripper.settled());
      if (!this.gripper.settled()) {
        return { text: `stopped after ${periods - start} periods (episode ended)` };
      }
    }
    // Let the soft drive catch up with the target.
    control.run(Math.ceil(0.15 * control.hz));
    const reading = this.gripper.reading(0);
    return {
      text: `moved in ${periods} periods`,
      data: { pos: round3(reading.pos), yaw: round3([reading.yaw])[0]! },
    };
  }

  private setGrip(grip: number, control: Control) {
    this.gripper.command = { ...this.gripper.command, grip };
    control.run(Math.ceil(0.3 * control.hz));
    return {
      text: grip > 0 ? "closed" : "opened",
      data: { opening: round3([this.gripper.opening()])[0]! },
    };
  }

  /** L2 grasp proposal: the palm pose that centres the pads on a ring's handle. */
  private graspPose(args: Record<string, unknown>) {
    const ring = args.ring;
    if (typeof ring !== "number" || !Number.isInteger(ring) || ring < 1 || ring > RINGS) {
      throw new ToolRefusal("bad-arguments", "ring must be an integer 1-5", "ring");
    }
    const s = this.status[ring - 1]!;
    const r = handleGraspRadius(this.scene.rings[ring - 1]!);
    const pos: [number, number, number] = [
      s.pos[0] + r * Math.cos(s.yaw),
      s.pos[1] + r * Math.sin(s.yaw),
      s.pos[2] + PALM_ABOVE_RING_BOTTOM,
    ];
    return { text: `grasp ring ${ring}`, data: { pos: round3(pos), yaw: round3([s.yaw])[0]! } };
  }

  /** Palm height at which a held ring clears every peg and barrier. */
  safeHeight(): number {
    const tops = [
      ...this.scene.pegs.map((p) => p.base + p.height),
      ...this.scene.barriers.map((b) => b.pos[2] + b.half[2]),
    ];
    return Math.max(...tops) + 0.02 + PALM_ABOVE_RING_BOTTOM;
  }

  publicView(): Json {
    const r = this.gripper.reading(this.padForce());
    return {
      gripper: {
        pos: round3(r.pos),
        yaw: round3([r.yaw])[0]!,
        opening: round3([r.opening])[0]!,
        grip: r.grip,
        padForce: round3([r.padForce])[0]!,
      },
      // The symbolic seat sensor stands in for the camera (README: what L0 gets instead of images).
      seated: this.status.map((s) => (s.seat >= 0 ? "ABC"[s.seat]! : null)),
      held: this.status.flatMap((s, i) => (s.held ? [i + 1] : [])),
    };
  }

  simulatorView(): Json {
    return {
      rings: this.status.map((s, i) => ({
        ring: i + 1,
        pos: round3(s.pos),
        handleYaw: round3([s.yaw])[0]!,
        speed: round3([s.speed])[0]!,
        around: s.around >= 0 ? "ABC"[s.around]! : null,
      })),
      pegs: this.scene.pegs.map((p, i) => ({
        peg: "ABC"[i]!,
        x: round3([p.x])[0]!,
        y: round3([p.y])[0]!,
        base: p.base,
        top: round3([p.base + p.height])[0]!,
      })),
    };
  }

  private padForce(): number {
    let f = 0;
    for (const c of this.sim.contacts()) {
      if (this.padGeoms.has(c.geom1) || this.padGeoms.has(c.geom2)) f += Math.abs(c.force);
    }
    return f;
  }

  drainEvents(): string[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  evidence(): Json {
    return {
      time: this.sim.time,
      seated: this.seatedState(),
      goal: this.scene.goal,
      goalSince: this.goalSince ?? null,
      moves: this.moves,
      held: this.status.some((s) => s.held),
      violations: this.violations.map((v) => ({ ...v })),
    };
  }

  close(): void {
    this.sim.close();
  }
}

function round3(xs: readonly number[]): number[] {
  return xs.map((x) => Math.round(x * 1000) / 1000);
}
