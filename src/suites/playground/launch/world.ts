/**
 * The launcher world: the scene, the spring launcher with its handwheels, brake, winch and
 * latch, the marble tray and a floating gripper that loads marbles. Monitors: plate clearing,
 * glass fracture (touch sensors every physics step), impact order, protected targets, the
 * aiming-cycle interlock, angle limits, and the end of ammunition.
 */
import type { Json } from "../../../core/index.ts";
import {
  GripperDriver,
  gripperBodies,
  gripperConstraints,
  mjcf,
  num,
  PAD_DROP,
  Sim,
  vec,
} from "../../../physics/index.ts";
import { readGripperCommand, readNumber } from "../commands.ts";
import { FAMILY_BUDGETS, PHYSICAL_LIMITS, type Violation } from "../protocol.ts";
import { type Control, ToolRefusal, type World, type WorldEnd, type WorldTool } from "../world.ts";
import {
  LAUNCH_COLLISION,
  LAUNCHER,
  launcherActuators,
  launcherBodies,
  marbleBody,
} from "./launcher.ts";
import type { SceneObject } from "./scene.ts";
import type { LaunchScene } from "./tasks.ts";

/** A plate is cleared once it has fallen this far (radians). */
export const PLATE_CLEARED = 0.6;
/** A target box is cleared once tilted this far (radians) or moved this far (metres). */
export const BLOCK_TILT = 0.5;
export const BLOCK_SHIFT = 0.05;
/** §5.4: protected-target scenes need 3 s after the last required hit. */
export const PROTECTED_WINDOW = 3;
/** Start pose of the turret. */
export const START_ANGLES = { az: 0, el: 0.3 } as const;
const GRIPPER = "hand";
const OUT_OF_BOUNDS = 6;

type MarbleState = "tray" | "channel" | "flight" | "spent";

export class LaunchWorld implements World {
  readonly family = "launcher" as const;
  readonly budget = FAMILY_BUDGETS.launcher;
  readonly violations: Violation[] = [];
  private readonly gripper: GripperDriver;
  private readonly joints: { az: number; el: number; draw: number };
  private readonly actuators: { az: number; el: number; winch: number };
  private readonly sites: { breech: number; muzzle: number };
  private readonly marbles: { body: number; state: MarbleState }[];
  private readonly plates: { id: string; joint: number; cleared: number | null }[];
  private readonly panes: {
    id: string;
    geom: number;
    sensor: number;
    threshold: number;
    broken: number | null;
  }[];
  private readonly freeBodies: number[];
  /** The gripper's bodies (palm and pads). */
  private readonly hand: Set<number>;
  /** Scene bodies the gripper must not touch (COLL), by body id: their ids for the record. */
  private readonly untouchable: Map<number, string>;
  private readonly blocks: {
    id: string;
    body: number;
    start: [number, number, number];
    cleared: number | null;
  }[];
  /** Handwheel and winch commands (held until changed). */
  private rates = { az: 0, el: 0, draw: 0 };
  private target: { az: number; el: number; draw: number };
  private brake = true;
  private latched = true;
  private releasedAt: number | null = null;
  private fireRequest = false;
  private events: string[] = [];
  private clearOrder: { id: string; time: number }[] = [];
  private endState: WorldEnd | undefined;
  private shots = 0;

  private constructor(
    readonly sim: Sim,
    readonly scene: LaunchScene,
  ) {
    this.gripper = new GripperDriver(sim, gripperSpec(scene));
    this.joints = {
      az: sim.id("joint", "az"),
      el: sim.id("joint", "el"),
      draw: sim.id("joint", "draw"),
    };
    this.actuators = {
      az: sim.id("actuator", "az_drive"),
      el: sim.id("actuator", "el_drive"),
      winch: sim.id("actuator", "winch"),
    };
    this.sites = { breech: sim.id("site", "breech"), muzzle: sim.id("site", "muzzle") };
    this.marbles = Array.from({ length: scene.file.ammo }, (_, i) => ({
      body: sim.id("body", `marble${i}`),
      state: (i === 0 ? "channel" : "tray") as MarbleState,
    }));
    this.plates = scene.file.objects.flatMap((o) =>
      o.kind === "plate"
        ? [{ id: o.id, joint: sim.id("joint", `plate_${o.id}`), cleared: null }]
        : [],
    );
    this.panes = scene.file.objects.flatMap((o) =>
      o.kind === "glass"
        ? [
            {
              id: o.id,
              geom: sim.id("geom", `glass_${o.id}`),
              sensor: sim.id("sensor", `glass_${o.id}`),
              threshold: o.threshold,
              broken: null,
            },
          ]
        : [],
    );
    this.freeBodies = scene.file.objects.flatMap((o, i) =>
      (o.kind === "box" && !o.static) || o.kind === "ball" ? [sim.id("body", `obj${i}`)] : [],
    );
    this.blocks = scene.file.objects.flatMap((o, i) =>
      o.kind === "box" && o.id && !o.static
        ? [
            {
              id: o.id,
              body: sim.id("body", `obj${i}`),
              start: [...o.pos] as [number, number, number],
              cleared: null,
            },
          ]
        : [],
    );
    this.hand = new Set([this.gripper.palm, ...this.gripper.pads]);
    // Targets are cleared by shots only: the gripper loads marbles and must not touch the
    // scene's boxes, balls or panes (plates do not collide with it at all).
    this.untouchable = new Map(
      scene.file.objects.flatMap((o, i): [number, string][] => {
        if (o.kind === "glass") return [[sim.id("body", `glass_${o.id}_b`), o.id]];
        if (o.kind === "plate") return [];
        return [[sim.id("body", `obj${i}`), o.id ?? `${o.kind} ${i}`]];
      }),
    );
    // Start pose: turret angles, plates leaning on their stops.
    sim.setJoint(this.joints.az, START_ANGLES.az);
    sim.setJoint(this.joints.el, START_ANGLES.el);
    for (const p of this.plates) sim.setJoint(p.joint, -0.03);
    this.target = { az: START_ANGLES.az, el: START_ANGLES.el, draw: 0 };
    sim.setCtrl(this.actuators.az, this.target.az);
    sim.setCtrl(this.actuators.el, this.target.el);
    sim.forward();
  }

  static async create(scene: LaunchScene): Promise<LaunchWorld> {
    const sim = await Sim.fromXml(launchMjcf(scene));
    return new LaunchWorld(sim, scene);
  }

  tools(): Record<string, WorldTool> {
    return {
      set_azimuth: (args, control) =>
        this.turn("az", readNumber(args.degrees, "degrees", -180, 180), control),
      set_elevation: (args, control) =>
        this.turn("el", readNumber(args.degrees, "degrees", -90, 90), control),
      set_draw: (args, control) =>
        this.setDraw(readNumber(args.metres, "metres", 0, LAUNCHER.maxDraw), control),
      fire: (_args, control) => this.fireTool(control),
      reload: (_args, control) => this.reload(control),
    };
  }

  applyCommand(args: Record<string, unknown>): void {
    this.gripper.command = readGripperCommand(args, this.gripper.command, "gripper");
    const raw = args.launcher;
    if (raw === undefined) return;
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      throw new ToolRefusal("bad-arguments", "must be an object", "launcher");
    }
    const l = raw as Record<string, unknown>;
    const rate = (key: string, max: number, now: number) =>
      l[key] === undefined ? now : readNumber(l[key], `launcher.${key}`, -max, max);
    this.rates = {
      az: rate("azimuthRate", LAUNCHER.azimuthRate, this.rates.az),
      el: rate("elevationRate", LAUNCHER.elevationRate, this.rates.el),
      draw: rate("drawRate", LAUNCHER.drawRate, this.rates.draw),
    };
    if (l.brake !== undefined) {
      if (typeof l.brake !== "boolean")
        throw new ToolRefusal("bad-arguments", "must be a boolean", "launcher.brake");
      this.brake = l.brake;
    }
    if (l.fire !== undefined) {
      if (typeof l.fire !== "boolean")
        throw new ToolRefusal("bad-arguments", "must be a boolean", "launcher.fire");
      this.fireRequest = l.fire;
    }
  }

  beforePhysics(dt: number): void {
    const { sim } = this;
    this.gripper.beforeStep(dt);
    if (this.fireRequest) {
      this.fireRequest = false;
      this.fire();
    }
    // Handwheels move the drive targets; the brake holds them.
    if (this.rates.az !== 0 || this.rates.el !== 0) {
      if (this.brake) {
        this.violate("MECH", "a handwheel was turned with the brake engaged");
        this.rates.az = 0;
        this.rates.el = 0;
      } else {
        this.target.az += this.rates.az * dt;
        this.target.el += this.rates.el * dt;
        this.checkLimits();
      }
    }
    sim.setCtrl(this.actuators.az, this.target.az);
    sim.setCtrl(this.actuators.el, this.target.el);
    // Winch: draw target moves at the winch rate; the latch holds the plunger there.
    if (this.rates.draw !== 0) {
      this.target.draw = Math.max(
        0,
        Math.min(LAUNCHER.maxDraw, this.target.draw + this.rates.draw * dt),
      );
    }
    if (!this.latched && this.releasedAt !== null && sim.time - this.releasedAt > 0.4) {
      this.latched = true;
      this.target.draw = 0;
      this.rates.draw = 0;
    }
    const q = sim.jointPos(this.joints.draw);
    const qd = sim.jointVel(this.joints.draw);
    const k = this.scene.k;
    // The motor cancels the spring and servoes the plunger to -draw while latched.
    const force = this.latched ? k * q + 300 * (-this.target.draw - q) - 4 * qd : 0;
    sim.setCtrl(this.actuators.winch, Math.max(-60, Math.min(60, force)));
  }

  afterPhysics(): void {
    const t = this.sim.time;
    for (const pane of this.panes) {
      if (pane.broken !== null) continue;
      if (this.sim.sensor(pane.sensor) > pane.threshold) {
        // A pane pushed by the gripper shatters in this very step: record who broke it first
        // (a violation ends the episode at the end of this control period).
        if (this.violations.length > 0 || this.checkContacts()) return;
        pane.broken = t;
        this.sim.disableGeom(pane.geom);
        this.events.push(`glass ${pane.id} shattered`);
        this.cleared(pane.id, t);
      }
    }
  }

  afterControl(): void {
    const { sim } = this;
    const t = sim.time;
    if (this.checkContacts()) return;
    for (const p of this.plates) {
      if (p.cleared === null && sim.jointPos(p.joint) > PLATE_CLEARED) {
        p.cleared = t;
        this.events.push(`plate ${p.id} knocked down`);
        this.cleared(p.id, t);
      }
    }
    for (const b of this.blocks) {
      if (b.cleared !== null) continue;
      const p = sim.bodyPos(b.body);
      const q = sim.bodyQuat(b.body);
      // Tilt of the body's z axis from vertical: cos = 1 - 2(qx^2 + qy^2).
      const tilt = Math.acos(Math.max(-1, Math.min(1, 1 - 2 * (q[1] ** 2 + q[2] ** 2))));
      if (
        tilt > BLOCK_TILT ||
        Math.hypot(p[0] - b.start[0], p[1] - b.start[1], p[2] - b.start[2]) > BLOCK_SHIFT
      ) {
        b.cleared = t;
        this.events.push(`${b.id} knocked over`);
        this.cleared(b.id, t);
      }
    }
    const pivot = sim.bodyPos(sim.id("body", "turret"));
    for (const m of this.marbles) {
      const pos = sim.bodyPos(m.body);
      const speed = sim.bodyLinearSpeed(m.body);
      const fromPivot = Math.hypot(pos[0] - pivot[0], pos[1] - pivot[1], pos[2] - pivot[2]);
      if (m.state === "channel" && fromPivot > LAUNCHER.muzzle + 0.05) {
        m.state = "flight";
        this.shots++;
        this.events.push(`shot ${this.shots} left the muzzle at ${speed.toFixed(2)} m/s`);
      } else if (m.state === "tray" && fromPivot < LAUNCHER.muzzle + 0.02 && this.inChannel(pos)) {
        m.state = "channel";
        this.events.push("a marble is loaded");
      } else if (m.state === "flight") {
        const out =
          Math.abs(pos[0]) > OUT_OF_BOUNDS || Math.abs(pos[1]) > OUT_OF_BOUNDS || pos[2] < -0.5;
        if (out || speed < 0.02) m.state = "spent";
      }
    }
    this.checkAmmo();
  }

  /**
   * Table 19's contact checks on the gripper: touching a scene object is COLL (a forbidden
   * robot-object contact), pressing into anything deeper than the audited limit is PEN. Only
   * the gripper's contacts count for PEN: a marble striking at 4-6 m/s sinks 10-15 mm into
   * MuJoCo's soft contact for a step or two, which is the projectile's impact, not an invalid
   * state. True when a violation was recorded.
   */
  private checkContacts(): boolean {
    const { sim } = this;
    for (const c of sim.contacts()) {
      const a = sim.geomBody(c.geom1);
      const b = sim.geomBody(c.geom2);
      const other = this.hand.has(a) ? b : this.hand.has(b) ? a : -1;
      if (other < 0) continue;
      if (c.dist < -PHYSICAL_LIMITS.penetration) {
        this.violate("PEN", `gripper penetration ${(-c.dist * 1000).toFixed(1)} mm`);
        return true;
      }
      const id = this.untouchable.get(other);
      if (id !== undefined) {
        this.violate("COLL", `the gripper touched ${id}`);
        return true;
      }
    }
    return false;
  }

  private inChannel(pos: [number, number, number]): boolean {
    const breech = this.siteWorld(this.sites.breech);
    return (
      Math.hypot(pos[0] - breech[0], pos[1] - breech[1]) < 0.12 &&
      Math.abs(pos[2] - breech[2]) < 0.06
    );
  }

  private cleared(id: string, t: number): void {
    const file = this.scene.file;
    if (file.protected?.includes(id)) {
      this.violate("RULE", `protected ${id} was hit`);
      return;
    }
    this.clearOrder.push({ id, time: t });
    const order = file.order ?? [];
    const at = order.indexOf(id);
    if (at > 0) {
      const done = new Set(this.clearOrder.map((c) => c.id));
      const missing = order.slice(0, at).filter((o) => !done.has(o));
      if (missing.length > 0)
        this.violate("RULE", `${id} was cleared before ${missing.join(", ")}`);
    }
  }

  private checkLimits(): void {
    const [azLo, azHi] = LAUNCHER.azimuthRange;
    const [elLo, elHi] = LAUNCHER.elevationRange;
    if (this.target.el < elLo || this.target.el > elHi) {
      this.violate(
        "LIMIT",
        `elevation ${deg(this.target.el)} deg outside [${deg(elLo)}, ${deg(elHi)}]`,
      );
    } else if (this.target.az < azLo || this.target.az > azHi) {
      this.violate(
        "LIMIT",
        `azimuth ${deg(this.target.az)} deg outside [${deg(azLo)}, ${deg(azHi)}]`,
      );
    }
    this.target.el = Math.max(elLo, Math.min(elHi, this.target.el));
    this.target.az = Math.max(azLo, Math.min(azHi, this.target.az));
  }

  private fire(): void {
    if (!this.brake) {
      this.violate("RULE", "fired before the aiming cycle was completed (brake released)");
      return;
    }
    if (!this.latched) return;
    this.latched = false;
    this.releasedAt = this.sim.time;
    this.events.push(`fired at draw ${this.target.draw.toFixed(3)} m`);
  }

  private checkAmmo(): void {
    if (this.endState || this.goalMet()) return;
    if (this.marbles.some((m) => m.state !== "spent")) return;
    if (this.freeBodies.some((b) => this.sim.bodyLinearSpeed(b) > 0.02)) return;
    const missing = this.scene.file.required.filter(
      (id) => !this.clearOrder.some((c) => c.id === id),
    );
    this.endState = {
      code: "AMMO",
      detail: `all ${this.marbles.length} shots used; ${missing.join(", ")} still standing`,
    };
  }

  private goalMet(): boolean {
    return this.scene.file.required.every((id) => this.clearOrder.some((c) => c.id === id));
  }

  private violate(code: Violation["code"], detail: string): void {
    this.violations.push({ code, time: this.sim.time, detail });
  }

  ended(): WorldEnd | undefined {
    return this.endState;
  }

  private siteWorld(site: number): [number, number, number] {
    return this.sim.sitePos(site);
  }

  // --- planning tools (L1) ---

  private turn(axis: "az" | "el", degrees: number, control: Control) {
    const goal = (degrees * Math.PI) / 180;
    this.brake = false;
    const rate = axis === "az" ? LAUNCHER.azimuthRate : LAUNCHER.elevationRate;
    const done = () => Math.abs(this.target[axis] - goal) < 1e-9 || this.violations.length > 0;
    // Turn at the handwheel limit, stepping the last fraction exactly.
    control.run(600, () => {
      const left = goal - this.target[axis];
      const step = rate / control.hz;
      if (Math.abs(left) <= step) {
        this.rates[axis] = 0;
        this.target[axis] = goal;
        this.checkLimits();
      } else {
        this.rates[axis] = Math.sign(left) * rate;
      }
      return done();
    });
    this.rates[axis] = 0;
    control.run(Math.ceil(0.4 * control.hz));
    this.brake = true;
    const actual = this.sim.jointPos(this.joints[axis]);
    return {
      text: `${axis === "az" ? "azimuth" : "elevation"} ${deg(actual)} deg, brake engaged`,
      data: { degrees: deg(actual) },
    };
  }

  private setDraw(metres: number, control: Control) {
    if (!this.latched)
      throw new ToolRefusal("precondition", "the plunger is released; wait for the latch");
    const done = () => Math.abs(this.target.draw - metres) < 1e-9;
    control.run(300, () => {
      const left = metres - this.target.draw;
      const step = LAUNCHER.drawRate / control.hz;
      if (Math.abs(left) <= step) {
        this.rates.draw = 0;
        this.target.draw = metres;
      } else {
        this.rates.draw = Math.sign(left) * LAUNCHER.drawRate;
      }
      return done();
    });
    this.rates.draw = 0;
    control.run(Math.ceil(0.3 * control.hz));
    return {
      text: `drawn ${(-this.sim.jointPos(this.joints.draw)).toFixed(4)} m`,
      data: { draw: round4(-this.sim.jointPos(this.joints.draw)) },
    };
  }

  private fireTool(control: Control) {
    this.fireRequest = true;
    control.run(1);
    return { text: this.latched ? "not fired" : "fired" };
  }

  private reload(control: Control) {
    if (this.marbles.some((m) => m.state === "channel"))
      throw new ToolRefusal("precondition", "a marble is already loaded");
    if (this.target.draw > 1e-6 || !this.latched)
      throw new ToolRefusal("precondition", "the plunger must be forward (draw 0, latched)");
    const next = this.marbles.find((m) => m.state === "tray");
    if (!next) throw new ToolRefusal("precondition", "no marbles left in the tray");
    const ball = this.sim.bodyPos(next.body);
    const yaw = this.gripper.command.yaw;
    const above = 0.12;
    const go = (pos: [number, number, number], grip: number, extra = 0.2) => {
      this.gripper.command = { pos, yaw, grip };
      control.run(200, () => this.gripper.settled());
      return control.run(Math.ceil(extra * control.hz));
    };
    const grasp = ball[2] + PAD_DROP;
    go([ball[0], ball[1], grasp + above], 0);
    go([ball[0], ball[1], grasp], 0);
    go([ball[0], ball[1], grasp], 1, 0.3);
    go([ball[0], ball[1], grasp + above], 1);
    const breech = this.siteWorld(this.sites.breech);
    go([breech[0], breech[1], breech[2] + PAD_DROP + above], 1);
    go([breech[0], breech[1], breech[2] + PAD_DROP], 1);
    go([breech[0], breech[1], breech[2] + PAD_DROP], 0, 0.5);
    go([breech[0], breech[1], breech[2] + PAD_DROP + above], 0);
    const home = this.scene.gripperHome;
    go([home[0], home[1], home[2]], 0, 0.3);
    const loaded = next.state === "channel";
    return {
      text: loaded ? "marble loaded" : "the marble did not reach the channel",
      data: { loaded },
    };
  }

  // --- views ---

  publicView(): Json {
    const s = this.sim;
    return {
      launcher: {
        base: this.scene.base,
        azimuth: deg(s.jointPos(this.joints.az)),
        elevation: deg(s.jointPos(this.joints.el)),
        draw: round4(-s.jointPos(this.joints.draw)),
        brake: this.brake,
        latched: this.latched,
        loaded: this.marbles.some((m) => m.state === "channel"),
        springStiffness: this.scene.k,
        breech: round3(this.siteWorld(this.sites.breech)),
        muzzle: round3(this.siteWorld(this.sites.muzzle)),
      },
      ammunition: {
        total: this.marbles.length,
        fired: this.shots,
        inTray: this.marbles.filter((m) => m.state === "tray").length,
        tray: this.marbles.filter((m) => m.state === "tray").map((m) => round3(s.bodyPos(m.body))),
      },
      gripper: (() => {
        const r = this.gripper.reading(0);
        return {
          pos: round3(r.pos),
          yaw: round3([r.yaw])[0]!,
          opening: round4(r.opening),
          grip: r.grip,
        };
      })(),
      // Public task state (stands in for the camera, see docs/playground.md).
      cleared: this.clearOrder.map((c) => c.id),
    };
  }

  simulatorView(): Json {
    const s = this.sim;
    return {
      plates: this.plates.map((p) => ({
        id: p.id,
        angle: round3([s.jointPos(p.joint)])[0]!,
        cleared: p.cleared !== null,
      })),
      panes: this.panes.map((p) => ({ id: p.id, broken: p.broken !== null })),
      marbles: this.marbles.map((m) => ({
        state: m.state,
        pos: round3(s.bodyPos(m.body)),
        speed: round3([s.bodyLinearSpeed(m.body)])[0]!,
      })),
      bodies: this.freeBodies.map((b) => ({
        pos: round3(s.bodyPos(b)),
        speed: round3([s.bodyLinearSpeed(b)])[0]!,
      })),
    };
  }

  drainEvents(): string[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  evidence(): Json {
    return {
      time: this.sim.time,
      required: this.scene.file.required,
      order: this.scene.file.order ?? [],
      protected: this.scene.file.protected ?? [],
      cleared: this.clearOrder,
      shots: this.shots,
      ammo: this.marbles.length,
    };
  }

  close(): void {
    this.sim.close();
  }
}

function gripperSpec(scene: LaunchScene) {
  return { name: GRIPPER, pos: scene.gripperHome, collision: LAUNCH_COLLISION.gripper };
}

function deg(rad: number): number {
  return Math.round(((rad * 180) / Math.PI) * 100) / 100;
}

function round3(xs: readonly number[]): number[] {
  return xs.map((x) => Math.round(x * 1000) / 1000);
}

function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}

/** Yaw that turns a local +x axis from `from` towards `to`. */
function facing(from: readonly number[], to: readonly number[]): number {
  return Math.atan2(to[1]! - from[1]!, to[0]! - from[0]!);
}

function objectMjcf(
  o: SceneObject,
  i: number,
  launcher: readonly number[],
): { body: string; sensor?: string } {
  const w = LAUNCH_COLLISION.world;
  switch (o.kind) {
    case "plate": {
      const yaw = o.yaw ?? facing(o.pos, launcher);
      const [hw, hh] = o.half;
      return {
        body: `<body name="plate_${o.id}_b" pos="${vec(o.pos)}" euler="0 0 ${num(yaw)}">
    <joint name="plate_${o.id}" type="hinge" axis="0 -1 0" range="-0.03 1.6" damping="0.0005" frictionloss="0.002"/>
    <geom name="plate_${o.id}_g" type="box" size="${vec([0.004, hw, hh])}" pos="${vec([0, 0, hh])}" mass="${num(o.mass ?? 0.05)}" ${LAUNCH_COLLISION.plate} rgba="0.85 0.3 0.2 1"/>
  </body>`,
      };
    }
    case "box": {
      const euler = `0 ${num(o.pitch ?? 0)} ${num(o.yaw ?? 0)}`;
      const bits = o.static ? w : LAUNCH_COLLISION.free;
      const geom = `<geom type="box" size="${vec(o.half)}" ${o.static ? "" : `mass="${num(o.mass ?? 0.1)}"`} friction="${num(o.friction ?? 0.6)} 0.005 0.0001" ${bits} rgba="0.6 0.5 0.35 1"/>`;
      if (o.static)
        return { body: `<body name="obj${i}" pos="${vec(o.pos)}" euler="${euler}">${geom}</body>` };
      return {
        body: `<body name="obj${i}" pos="${vec(o.pos)}" euler="${euler}"><freejoint/>${geom}</body>`,
      };
    }
    case "ball":
      return {
        body: `<body name="obj${i}" pos="${vec(o.pos)}"><freejoint/><geom type="sphere" size="${num(o.radius)}" mass="${num(o.mass)}" friction="0.6 0.005 0.0005" condim="6" ${LAUNCH_COLLISION.free} rgba="0.3 0.6 0.3 1"/></body>`,
      };
    case "glass": {
      const yaw = o.yaw ?? 0;
      const [hx, hy, hz] = o.half;
      return {
        body: `<body name="glass_${o.id}_b" pos="${vec(o.pos)}" euler="0 0 ${num(yaw)}">
    <geom name="glass_${o.id}" type="box" size="${vec(o.half)}" ${w} rgba="0.6 0.8 0.95 0.4"/>
    <site name="glass_${o.id}_site" type="box" size="${vec([hx + 0.004, hy + 0.004, hz + 0.004])}"/>
  </body>`,
        sensor: `<touch name="glass_${o.id}" site="glass_${o.id}_site"/>`,
      };
    }
  }
}

/** The MJCF of a realized launcher scene. */
export function launchMjcf(scene: LaunchScene): string {
  const { base } = scene;
  const launcherPos = [base.x, base.y, LAUNCHER.pivotHeight];
  const objects = scene.file.objects.map((o, i) => objectMjcf(o, i, launcherPos));
  const marbles: string[] = [];
  // The first marble is preloaded against the plunger face.
  const c = Math.cos(base.yaw + START_ANGLES.az);
  const s = Math.sin(base.yaw + START_ANGLES.az);
  const along = LAUNCHER.ballRest * Math.cos(START_ANGLES.el);
  marbles.push(
    marbleBody("marble0", [
      base.x + along * c,
      base.y + along * s,
      LAUNCHER.pivotHeight + LAUNCHER.ballRest * Math.sin(START_ANGLES.el) + 0.001,
    ]),
  );
  for (let i = 1; i < scene.file.ammo; i++) {
    const slot = scene.traySlots[i - 1]!;
    marbles.push(marbleBody(`marble${i}`, slot));
  }
  // Each tray marble sits on a thin tee, so the pads can close around it from both sides.
  const tees = scene.traySlots.map((slot) => {
    const h = slot[2] - LAUNCHER.ballRadius;
    return `<geom type="cylinder" size="0.004 ${num(h / 2)}" pos="${vec([slot[0], slot[1], h / 2])}" ${LAUNCH_COLLISION.world} rgba="0.4 0.3 0.2 1"/>`;
  });
  const gripper = gripperSpec(scene);
  const drive = gripperConstraints(gripper);
  return mjcf({
    name: `launch-${scene.file.case}`,
    timestep: 1 / FAMILY_BUDGETS.launcher.physicsHz,
    // Every launcher body has one to three geoms, so MuJoCo's BVH midphase costs more than the
    // few geom pairs it prunes; without it the same pairs are tested and the same contacts
    // found (4-7% less CPU per reference episode; docs/playground.md, "Physics options").
    flags: `midphase="disable"`,
    worldbody: [
      `<geom name="floor" type="plane" size="6 6 0.1" friction="0.6 0.005 0.001" ${LAUNCH_COLLISION.world} rgba="0.55 0.65 0.45 1"/>`,
      ...tees,
      launcherBodies(base, scene.k),
      ...marbles,
      ...objects.map((o) => o.body),
      gripperBodies(gripper),
    ],
    equality: [drive.equality],
    actuator: [launcherActuators(), drive.actuator],
    sensor: objects.flatMap((o) => (o.sensor ? [o.sensor] : [])),
  });
}
