/**
 * A floating parallel gripper: a free-jointed palm pulled by a soft weld towards a mocap target
 * (so it has real velocity and friction acts on what it holds), and two slide-jointed fingers
 * under position actuators. Objects are held by contact friction only; nothing is welded to them.
 */
import { num as f, vec as v } from "./mjcf.ts";
import type { Sim } from "./mujoco.ts";

/** Geometry and limits of one gripper. */
export interface GripperSpec {
  name: string;
  /** Initial palm position (metres) and yaw (radians). */
  pos: readonly [number, number, number];
  yaw?: number;
  /** Half the opening between the finger pads when fully open (metres). */
  halfOpen?: number;
  /** Finger pad half-sizes: along the closing axis (thickness), across it, and vertically. */
  fingerHalf?: readonly [number, number, number];
  /** Pad sliding friction. */
  friction?: number;
  /** Maximum squeeze force per finger (newtons). */
  gripForce?: number;
  /** MJCF collision attributes for the palm and pads (default: collide with everything). */
  collision?: string;
}

/** Linear and yaw speed limits of the target (the paper's arm speed limits). */
export const GRIPPER_LIMITS = { speed: 0.5, yawRate: 2.0 } as const;

const DEFAULTS = { halfOpen: 0.045, fingerHalf: [0.006, 0.012, 0.025] as const, friction: 1.5 };

/** How far below the palm the pad centres hang (metres), for the default pad height. */
export const PAD_DROP = DEFAULTS.fingerHalf[2] + 0.012;

/** A yaw rotation as a MuJoCo quaternion (w, x, y, z). */
export function yawQuat(yaw: number): [number, number, number, number] {
  return [Math.cos(yaw / 2), 0, 0, Math.sin(yaw / 2)];
}

/** Yaw of a quaternion (rotation about the world z axis). */
export function quatYaw(q: readonly number[]): number {
  const [w, x, y, z] = q as [number, number, number, number];
  return Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
}

/** The `<worldbody>` part of the gripper's MJCF. */
export function gripperBodies(spec: GripperSpec): string {
  const { name, pos } = spec;
  const yaw = spec.yaw ?? 0;
  const open = spec.halfOpen ?? DEFAULTS.halfOpen;
  const [fx, fy, fz] = spec.fingerHalf ?? DEFAULTS.fingerHalf;
  const mu = spec.friction ?? DEFAULTS.friction;
  const bits = spec.collision ?? "";
  const quat = v(yawQuat(yaw));
  // The pads close along the palm's y axis; joint value 0 = open, `open` = pads touching.
  const finger = (side: "l" | "r", sign: 1 | -1) => `
    <body name="${name}_${side}" pos="0 ${f(sign * (open + fx))} ${f(-fz - 0.012)}" gravcomp="1">
      <joint name="${name}_${side}j" type="slide" axis="0 ${-sign} 0" range="0 ${f(open)}" damping="4" armature="0.01"/>
      <geom name="${name}_${side}pad" type="box" size="${f(fy)} ${f(fx)} ${f(fz)}" mass="0.04" friction="${f(mu)} 0.02 0.002" condim="4" rgba="0.2 0.2 0.25 1" ${bits}/>
    </body>`;
  return `
  <body name="${name}_target" mocap="true" pos="${v(pos)}" quat="${quat}"/>
  <body name="${name}" pos="${v(pos)}" quat="${quat}" gravcomp="1">
    <freejoint name="${name}_free"/>
    <geom name="${name}_palm" type="box" size="0.02 ${f(open + 2 * fx + 0.004)} 0.01" mass="0.6" rgba="0.3 0.3 0.35 1" ${bits}/>
    ${finger("l", 1)}
    ${finger("r", -1)}
  </body>`;
}

/** The `<equality>` and `<actuator>` parts of the gripper's MJCF. */
export function gripperConstraints(spec: GripperSpec): { equality: string; actuator: string } {
  const { name } = spec;
  const open = spec.halfOpen ?? DEFAULTS.halfOpen;
  const force = spec.gripForce ?? 12;
  const act = (side: string) =>
    `<position name="${name}_${side}a" joint="${name}_${side}j" kp="400" kv="8" ctrlrange="0 ${f(open)}" forcerange="-${f(force)} ${f(force)}"/>`;
  return {
    equality: `<weld name="${name}_drive" body1="${name}_target" body2="${name}" solref="0.02 1" solimp="0.95 0.99 0.001"/>`,
    actuator: `${act("l")}\n${act("r")}`,
  };
}

/** A commanded pose for the palm and the finger closure (0 open .. 1 closed). */
export interface GripperCommand {
  pos: [number, number, number];
  yaw: number;
  grip: number;
}

/** What a gripper reports about itself (proprioception). */
export interface GripperReading {
  pos: [number, number, number];
  yaw: number;
  /** Distance between the pads (metres). */
  opening: number;
  /** Commanded closure 0..1. */
  grip: number;
  /** Pad contact normal force, summed over both pads (newtons). */
  padForce: number;
}

/** Drives one gripper inside a Sim: rate-limits the mocap target towards the command. */
export class GripperDriver {
  readonly palm: number;
  readonly pads: [number, number];
  readonly padGeoms: [number, number];
  private readonly mocap: number;
  private readonly joints: [number, number];
  private readonly actuators: [number, number];
  private readonly open: number;
  /** The target pose the mocap body is at now. */
  target: { pos: [number, number, number]; yaw: number };
  command: GripperCommand;

  constructor(
    private readonly sim: Sim,
    spec: GripperSpec,
  ) {
    const n = spec.name;
    this.palm = sim.id("body", n);
    this.pads = [sim.id("body", `${n}_l`), sim.id("body", `${n}_r`)];
    this.padGeoms = [sim.id("geom", `${n}_lpad`), sim.id("geom", `${n}_rpad`)];
    this.mocap = sim.mocapId(sim.id("body", `${n}_target`));
    this.joints = [sim.id("joint", `${n}_lj`), sim.id("joint", `${n}_rj`)];
    this.actuators = [sim.id("actuator", `${n}_la`), sim.id("actuator", `${n}_ra`)];
    this.open = spec.halfOpen ?? DEFAULTS.halfOpen;
    const pos: [number, number, number] = [spec.pos[0], spec.pos[1], spec.pos[2]];
    this.target = { pos, yaw: spec.yaw ?? 0 };
    this.command = { pos: [...pos], yaw: spec.yaw ?? 0, grip: 0 };
  }

  /** Advance the target by one physics step of length `dt` towards the command. */
  beforeStep(dt: number): void {
    // Runs every physics step: no allocation, and no mocap write while the target rests on the
    // command (a parked gripper is most of a launcher episode). Skipping is exact: the
    // arithmetic below leaves a resting target unchanged, and the first step always writes
    // (it replaces the MJCF's 6-decimal quaternion with the full-precision one).
    const { pos } = this.target;
    const c = this.command.pos;
    const dx = c[0] - pos[0];
    const dy = c[1] - pos[1];
    const dz = c[2] - pos[2];
    const dyawRaw = this.command.yaw - this.target.yaw;
    if (this.mocapDirty || dx !== 0 || dy !== 0 || dz !== 0 || dyawRaw !== 0) {
      this.mocapDirty = false;
      const dist = Math.hypot(dx, dy, dz);
      const maxStep = GRIPPER_LIMITS.speed * dt;
      const k = dist > maxStep ? maxStep / dist : 1;
      pos[0] += dx * k;
      pos[1] += dy * k;
      pos[2] += dz * k;
      const dyaw = Math.atan2(Math.sin(dyawRaw), Math.cos(dyawRaw));
      const maxYaw = GRIPPER_LIMITS.yawRate * dt;
      this.target.yaw += Math.max(-maxYaw, Math.min(maxYaw, dyaw));
      const q = this.quat;
      q[0] = Math.cos(this.target.yaw / 2);
      q[3] = Math.sin(this.target.yaw / 2);
      this.sim.setMocap(this.mocap, pos, q);
    }
    const closure = Math.max(0, Math.min(1, this.command.grip)) * this.open;
    this.sim.setCtrl(this.actuators[0], closure);
    this.sim.setCtrl(this.actuators[1], closure);
  }

  /** The mocap orientation buffer (w, 0, 0, z: a yaw), reused every step. */
  private readonly quat = [1, 0, 0, 0];
  /** True until the first step has written the mocap pose. */
  private mocapDirty = true;

  /** True when the target has reached the commanded pose. */
  settled(): boolean {
    const { pos, yaw } = this.target;
    const c = this.command;
    return (
      Math.hypot(pos[0] - c.pos[0], pos[1] - c.pos[1], pos[2] - c.pos[2]) < 1e-9 &&
      Math.abs(yaw - c.yaw) < 1e-9
    );
  }

  /** Pad separation in metres. */
  opening(): number {
    const q = this.sim.jointPos(this.joints[0]) + this.sim.jointPos(this.joints[1]);
    return Math.max(0, 2 * this.open - q);
  }

  reading(padForce: number): GripperReading {
    return {
      pos: this.sim.bodyPos(this.palm),
      yaw: quatYaw(this.sim.bodyQuat(this.palm)),
      opening: this.opening(),
      grip: this.command.grip,
      padForce,
    };
  }
}
