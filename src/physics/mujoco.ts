/**
 * A thin typed handle on the official MuJoCo WebAssembly build (`mujoco-js`): one module per
 * process, models loaded from MJCF text through its in-memory file system, and a `Sim` that
 * owns one model and its data until `close()` frees them.
 */
import type { MainModule, MjData, MjModel } from "mujoco-js";

/** MuJoCo object types used for name lookups (mjtObj). */
export const OBJ = { body: 1, joint: 3, geom: 5, site: 6, actuator: 19, sensor: 20 } as const;
export type ObjKind = keyof typeof OBJ;

let modulePromise: Promise<MainModule> | undefined;
let fileCounter = 0;

/**
 * The process-wide MuJoCo module, loaded once on first use (the 11 MB build takes about half a
 * second to import, so it is imported lazily and CLI commands that never simulate skip it).
 */
export function mujoco(): Promise<MainModule> {
  modulePromise ??= import("mujoco-js").then(async ({ default: loadMujoco }) => {
    const mj = await loadMujoco();
    mj.FS.mkdir("/models");
    return mj;
  });
  return modulePromise;
}

/** The model's timestep (the option struct is an embind object that must be freed). */
function readTimestep(model: MjModel): number {
  const opt = model.opt;
  const dt = opt.timestep;
  opt.delete();
  return dt;
}

/** Byte layout of mjContact in this build (MuJoCo 3.3, wasm32), verified at first use. */
const CONTACT = { size: 576, geom1: 524, geom2: 528, efcAddress: 568 } as const;

/** One contact of the current state: the two geoms, penetration depth and normal force. */
export interface Contact {
  geom1: number;
  geom2: number;
  /** Signed distance: negative means penetration (metres). */
  dist: number;
  /** Normal force magnitude (newtons) from the constraint solver. */
  force: number;
}

/** The physical state that determines the future: time, positions, velocities, controls. */
export interface SimState {
  time: number;
  qpos: number[];
  qvel: number[];
  act: number[];
  ctrl: number[];
  mocapPos: number[];
  mocapQuat: number[];
}

type ArrayView = Float64Array | Int32Array;

/** A loaded model with its data. Reads never advance time; `step` does. */
export class Sim {
  private closed = false;
  private readonly ids = new Map<string, number>();

  /**
   * Typed-array views onto the WebAssembly heap, cached: each embind getter builds a new view
   * (microseconds), which dominated a 1 kHz step loop. A view whose buffer was detached by a
   * memory growth (another model loaded) reads as empty and is fetched again.
   */
  private readonly views = {
    data: new Map<string, ArrayView>(),
    model: new Map<string, ArrayView>(),
  };

  private view<T extends ArrayView>(owner: "data" | "model", name: string): T {
    // Keyed by the caller's literal name (no key built per call: this runs every physics step).
    const cache = this.views[owner];
    let v = cache.get(name);
    if (!v || v.length === 0) {
      v = (this[owner] as unknown as Record<string, T>)[name]!;
      cache.set(name, v);
    }
    return v as T;
  }

  private d64(name: string): Float64Array {
    return this.view<Float64Array>("data", name);
  }

  private mi32(name: string): Int32Array {
    return this.view<Int32Array>("model", name);
  }

  private constructor(
    readonly mj: MainModule,
    readonly model: MjModel,
    readonly data: MjData,
  ) {}

  /** Compile MJCF text into a new simulation (throws with MuJoCo's message on bad XML). */
  static async fromXml(xml: string): Promise<Sim> {
    const mj = await mujoco();
    return Sim.fromXmlSync(mj, xml);
  }

  /** Compile with an already loaded module. */
  static fromXmlSync(mj: MainModule, xml: string): Sim {
    const path = `/models/m${fileCounter++}.xml`;
    mj.FS.writeFile(path, xml);
    try {
      const model = mj.MjModel.loadFromXML(path);
      if (!model) throw new Error("MuJoCo could not compile the model");
      const data = new mj.MjData(model);
      mj.mj_forward(model, data);
      return new Sim(mj, model, data);
    } finally {
      mj.FS.unlink(path);
    }
  }

  /** The id of a named object, or an error naming it (cached). */
  id(kind: ObjKind, name: string): number {
    const key = `${kind}:${name}`;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.mj.mj_name2id(this.model, OBJ[kind], name);
      if (id < 0) throw new Error(`no ${kind} named "${name}" in the model`);
      this.ids.set(key, id);
    }
    return id;
  }

  /**
   * Simulated time. Mirrored in JavaScript (the embind getter costs a quarter of a microsecond
   * and is read every physics step): mj_step advances it by `time += timestep`, the same IEEE
   * addition done here, so the mirror equals MuJoCo's value bit for bit.
   */
  get time(): number {
    this.t ??= this.data.time;
    return this.t;
  }

  private t: number | undefined;

  get timestep(): number {
    this.dt ??= readTimestep(this.model);
    return this.dt;
  }

  private dt: number | undefined;

  /** World position of a site. */
  sitePos(site: number): [number, number, number] {
    const x = this.d64("site_xpos");
    return [x[site * 3]!, x[site * 3 + 1]!, x[site * 3 + 2]!];
  }

  /** Advance `n` physics steps. */
  step(n = 1): void {
    let t = this.time;
    const dt = this.timestep;
    for (let i = 0; i < n; i++) {
      this.mj.mj_step(this.model, this.data);
      t += dt;
    }
    this.t = t;
  }

  /** Recompute derived quantities (positions, contacts) without advancing time. */
  forward(): void {
    this.mj.mj_forward(this.model, this.data);
  }

  /** World position of a body's frame. */
  bodyPos(body: number): [number, number, number] {
    const x = this.d64("xpos");
    return [x[body * 3]!, x[body * 3 + 1]!, x[body * 3 + 2]!];
  }

  /** World orientation quaternion (w, x, y, z) of a body. */
  bodyQuat(body: number): [number, number, number, number] {
    const q = this.d64("xquat");
    return [q[body * 4]!, q[body * 4 + 1]!, q[body * 4 + 2]!, q[body * 4 + 3]!];
  }

  /** Linear velocity of a body's free joint (the first three dofs at `dofadr`). */
  bodyLinearSpeed(body: number): number {
    const jnt = this.mi32("body_jntadr")[body]!;
    if (jnt < 0) return 0;
    const dof = this.mi32("jnt_dofadr")[jnt]!;
    const v = this.d64("qvel");
    return Math.hypot(v[dof]!, v[dof + 1]!, v[dof + 2]!);
  }

  /** Angular speed of a body's free joint. */
  bodyAngularSpeed(body: number): number {
    const jnt = this.mi32("body_jntadr")[body]!;
    if (jnt < 0) return 0;
    const dof = this.mi32("jnt_dofadr")[jnt]!;
    const v = this.d64("qvel");
    return Math.hypot(v[dof + 3]!, v[dof + 4]!, v[dof + 5]!);
  }

  /** Position of a scalar (hinge or slide) joint. */
  jointPos(joint: number): number {
    const adr = this.mi32("jnt_qposadr")[joint]!;
    return this.d64("qpos")[adr]!;
  }

  /** Velocity of a scalar joint. */
  jointVel(joint: number): number {
    const adr = this.mi32("jnt_dofadr")[joint]!;
    return this.d64("qvel")[adr]!;
  }

  /** Overwrite a scalar joint's position and velocity (initialisation only). */
  setJoint(joint: number, pos: number, vel = 0): void {
    this.d64("qpos")[this.mi32("jnt_qposadr")[joint]!] = pos;
    this.d64("qvel")[this.mi32("jnt_dofadr")[joint]!] = vel;
  }

  setCtrl(actuator: number, value: number): void {
    this.d64("ctrl")[actuator] = value;
  }

  /** Move a mocap body (by its mocap index) to a position and orientation. */
  setMocap(mocap: number, pos: readonly number[], quat?: readonly number[]): void {
    const p = this.d64("mocap_pos");
    for (let i = 0; i < 3; i++) p[mocap * 3 + i] = pos[i]!;
    if (quat) {
      const q = this.d64("mocap_quat");
      for (let i = 0; i < 4; i++) q[mocap * 4 + i] = quat[i]!;
    }
  }

  /** The mocap index of a body. */
  mocapId(body: number): number {
    return this.mi32("body_mocapid")[body]!;
  }

  /** The body a geom belongs to. */
  geomBody(geom: number): number {
    return this.mi32("geom_bodyid")[geom]!;
  }

  /** First value of a named sensor (e.g. a touch sensor's summed normal force). */
  sensor(sensor: number): number {
    const adr = this.mi32("sensor_adr")[sensor]!;
    return this.d64("sensordata")[adr]!;
  }

  /** Disable a geom's collisions (e.g. a pane that shattered). */
  disableGeom(geom: number): void {
    this.mi32("geom_contype")[geom] = 0;
    this.mi32("geom_conaffinity")[geom] = 0;
  }

  /**
   * The active contacts with their normal forces. Reads the mjContact array straight from the
   * arena (embind copies each contact at ~60 us); the layout is checked once against embind
   * and the slow path is kept if it ever differs.
   */
  contacts(): Contact[] {
    const n = this.data.ncon;
    if (n === 0) return [];
    this.fastContacts ??= this.checkLayout();
    return this.fastContacts ? this.contactsFromArena(n) : this.contactsFromEmbind(n);
  }

  private fastContacts: boolean | undefined;

  /**
   * Float and integer views over the start of the arena, where mjData keeps its contacts: built
   * once per heap buffer (the embind getter decodes a new view per call, and the contact scan
   * runs every control period), fetched again after a memory growth detached the old one.
   */
  private arenaViews: { f64: Float64Array; i32: Int32Array } | undefined;

  private contactArena(n: number): { f64: Float64Array; i32: Int32Array } {
    let v = this.arenaViews;
    if (!v || v.f64.length * 8 < n * CONTACT.size) {
      const arena = this.data.arena as Uint8Array;
      const bytes = arena.byteLength - (arena.byteLength % 8);
      v = {
        f64: new Float64Array(arena.buffer, arena.byteOffset, bytes / 8),
        i32: new Int32Array(arena.buffer, arena.byteOffset, bytes / 4),
      };
      this.arenaViews = v;
    }
    return v;
  }

  private contactsFromArena(n: number): Contact[] {
    const { f64, i32 } = this.contactArena(n);
    const efc = this.d64("efc_force");
    const out: Contact[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const base = i * CONTACT.size;
      const adr = i32[(base + CONTACT.efcAddress) / 4]!;
      out[i] = {
        dist: f64[base / 8]!,
        geom1: i32[(base + CONTACT.geom1) / 4]!,
        geom2: i32[(base + CONTACT.geom2) / 4]!,
        force: adr >= 0 ? efc[adr]! : 0,
      };
    }
    return out;
  }

  private contactsFromEmbind(n: number): Contact[] {
    const out: Contact[] = [];
    const efc = this.d64("efc_force");
    const vec = this.data.contact;
    for (let i = 0; i < n; i++) {
      const c = vec.get(i);
      if (!c) continue;
      const adr = c.efc_address;
      out.push({ geom1: c.geom1, geom2: c.geom2, dist: c.dist, force: adr >= 0 ? efc[adr]! : 0 });
      c.delete();
    }
    vec.delete();
    return out;
  }

  private checkLayout(): boolean {
    const n = this.data.ncon;
    const slow = this.contactsFromEmbind(n);
    const fast = this.contactsFromArena(n);
    return slow.every(
      (c, i) =>
        c.dist === fast[i]!.dist &&
        c.geom1 === fast[i]!.geom1 &&
        c.geom2 === fast[i]!.geom2 &&
        c.force === fast[i]!.force,
    );
  }

  /** A copy of the state that determines the future (for determinism checks and logs). */
  state(): SimState {
    const arr = (v: unknown) => Array.from(v as Float64Array);
    return {
      time: this.data.time,
      qpos: arr(this.data.qpos),
      qvel: arr(this.data.qvel),
      act: arr(this.data.act),
      ctrl: arr(this.data.ctrl),
      mocapPos: arr(this.data.mocap_pos),
      mocapQuat: arr(this.data.mocap_quat),
    };
  }

  /** Free the model and data (idempotent). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.data.delete();
    this.model.delete();
  }
}
