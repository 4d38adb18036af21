/**
 * The spring launcher: a turret on a pedestal with an azimuth and an elevation handwheel, an
 * open barrel channel with a spring plunger (stiffness k, drawn back by a winch and held by a
 * latch until fired), and a tray of marbles that a floating gripper loads into the breech.
 * Also its public model: muzzle kinematics and the muzzle speed of a draw, which the task card
 * declares (the paper gives agents the spring stiffness as a public parameter, §5.1).
 */
import { num, vec } from "../../../physics/index.ts";

/** Launcher constants (metres, kilograms, radians). */
export const LAUNCHER = {
  pivotHeight: 0.25,
  /** Ball centre travel from its loaded rest position to the muzzle. */
  muzzle: 0.2,
  /** Ball centre at rest against the plunger face, along the barrel (plunger at q = 0). */
  ballRest: -0.008,
  /** Where a dropped marble lands in the channel (along the barrel, above its axis). */
  breech: [0.06, 0, 0.035] as const,
  ballRadius: 0.012,
  ballMass: 0.012,
  plungerMass: 0.02,
  maxDraw: 0.2,
  azimuthRange: [-1.3, 1.3] as const,
  elevationRange: [0.05, 1.1] as const,
  /** Handwheel and winch speed limits. */
  azimuthRate: 0.6,
  elevationRate: 0.4,
  drawRate: 0.15,
  /** Marble tray: first slot position relative to the launcher (in its frame), slot spacing. */
  tray: { first: [-0.25, -0.25, 0.1] as const, spacing: 0.05 },
} as const;

const G = 9.81;

/**
 * Ideal muzzle speed of a draw `d` at elevation `el` with spring stiffness `k` (no losses):
 * the spring's energy drives plunger and marble to the rest point against the marble's weight
 * (the plunger's is compensated), where the marble separates and coasts to the muzzle.
 */
export function idealMuzzleSpeed(k: number, d: number, el: number): number {
  const m = LAUNCHER.plungerMass + LAUNCHER.ballMass;
  const s = Math.sin(el);
  const atRest = (k * d * d - 2 * LAUNCHER.ballMass * G * s * d) / m;
  const atMuzzle = atRest - 2 * G * s * (LAUNCHER.muzzle - LAUNCHER.ballRest);
  return atMuzzle > 0 ? Math.sqrt(atMuzzle) : 0;
}

/**
 * Measured ratio of simulated to ideal muzzle speed (soft contacts and the plunger's damping
 * lose a little); the reference controller and the card both use it.
 */
export const MUZZLE_EFFICIENCY = 1;

/** Muzzle speed model of the card: ideal speed times the measured efficiency. */
export function muzzleSpeed(k: number, d: number, el: number): number {
  return MUZZLE_EFFICIENCY * idealMuzzleSpeed(k, d, el);
}

/** The draw that gives muzzle speed `v` (bisection on the monotone model), or undefined. */
export function drawFor(k: number, v: number, el: number): number | undefined {
  let lo = 0;
  let hi: number = LAUNCHER.maxDraw;
  if (muzzleSpeed(k, hi, el) < v) return undefined;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (muzzleSpeed(k, mid, el) < v) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Ball-centre position at the muzzle for a launcher at `base` (x, y, yaw) and angles. */
export function muzzlePoint(
  base: { x: number; y: number; yaw: number },
  az: number,
  el: number,
): [number, number, number] {
  const heading = base.yaw + az;
  const r = LAUNCHER.muzzle * Math.cos(el);
  return [
    base.x + r * Math.cos(heading),
    base.y + r * Math.sin(heading),
    LAUNCHER.pivotHeight + LAUNCHER.muzzle * Math.sin(el),
  ];
}

/**
 * Azimuth and muzzle speed that send the ball centre through `aim` at elevation `el`
 * (drag-free ballistics from the muzzle), or undefined if unreachable at that elevation.
 */
export function aimAt(
  base: { x: number; y: number; yaw: number },
  aim: readonly [number, number, number],
  el: number,
): { az: number; speed: number } | undefined {
  let az = Math.atan2(aim[1] - base.y, aim[0] - base.x) - base.yaw;
  az = Math.atan2(Math.sin(az), Math.cos(az));
  const m = muzzlePoint(base, az, el);
  const range = Math.hypot(aim[0] - m[0], aim[1] - m[1]);
  const rise = aim[2] - m[2];
  const denom = 2 * Math.cos(el) ** 2 * (range * Math.tan(el) - rise);
  if (denom <= 0) return undefined;
  return { az, speed: Math.sqrt((G * range * range) / denom) };
}

/**
 * Collision bits. Static scenery meets free bodies and marbles; hinged plates meet free
 * bodies, marbles and each other but not the stands they are hinged to; the launcher's
 * channel and plunger meet marbles only; the gripper meets marbles and the world.
 */
export const LAUNCH_COLLISION = {
  world: `contype="1" conaffinity="1"`,
  free: `contype="33" conaffinity="33"`,
  plate: `contype="32" conaffinity="34"`,
  launcher: `contype="2" conaffinity="2"`,
  marble: `contype="3" conaffinity="3"`,
  gripper: `contype="4" conaffinity="1"`,
} as const;

/** MJCF of the launcher at `base` with spring stiffness `k` (angles are set after loading). */
export function launcherBodies(base: { x: number; y: number; yaw: number }, k: number): string {
  const r = LAUNCHER.ballRadius;
  const chan = `${LAUNCH_COLLISION.launcher} friction="0.001 0.001 0.0001" priority="1"`;
  const len = 0.46;
  const cx = LAUNCHER.muzzle - len / 2;
  return `
  <body name="pedestal" pos="${vec([base.x, base.y, 0])}" euler="0 0 ${num(base.yaw)}">
    <geom type="cylinder" size="0.05 ${num(LAUNCHER.pivotHeight / 2 - 0.03)}" pos="0 0 ${num(LAUNCHER.pivotHeight / 2 - 0.03)}" contype="0" conaffinity="0" rgba="0.3 0.3 0.3 1"/>
    <body name="turret" pos="0 0 ${num(LAUNCHER.pivotHeight)}" gravcomp="1">
      <joint name="az" type="hinge" axis="0 0 1" range="${vec(LAUNCHER.azimuthRange)}" damping="0.5" armature="0.05" ref="0"/>
      <geom type="box" size="0.03 0.03 0.02" pos="0 0 -0.03" mass="0.5" contype="0" conaffinity="0"/>
      <body name="barrel" gravcomp="1">
        <joint name="el" type="hinge" axis="0 -1 0" range="0 1.3" damping="0.5" armature="0.05"/>
        <geom name="chan_floor" type="box" size="${vec([len / 2, 0.02, 0.003])}" pos="${vec([cx, 0, -r - 0.003])}" mass="0.2" ${chan}/>
        <geom name="chan_left" type="box" size="${vec([len / 2, 0.003, 0.02])}" pos="${vec([cx, r + 0.005, 0.006])}" mass="0.05" ${chan}/>
        <geom name="chan_right" type="box" size="${vec([len / 2, 0.003, 0.02])}" pos="${vec([cx, -r - 0.005, 0.006])}" mass="0.05" ${chan}/>
        <site name="breech" pos="${vec(LAUNCHER.breech)}"/>
        <site name="muzzle" pos="${num(LAUNCHER.muzzle)} 0 0"/>
        <body name="plunger" gravcomp="1">
          <joint name="draw" type="slide" axis="1 0 0" range="${vec([-LAUNCHER.maxDraw - 0.01, 0.03])}" stiffness="${num(k)}" springref="0" damping="0.002"/>
          <geom name="plunger_face" type="box" size="0.006 0.011 0.011" pos="${num(LAUNCHER.ballRest - r - 0.006)} 0 0" mass="${num(LAUNCHER.plungerMass)}" ${chan}/>
        </body>
      </body>
    </body>
  </body>`;
}

/** Actuators of the launcher: handwheel drives and the winch/latch motor. */
export function launcherActuators(): string {
  return `<position name="az_drive" joint="az" kp="60" kv="4" ctrlrange="-1.5 1.5"/>
<position name="el_drive" joint="el" kp="60" kv="4" ctrlrange="-0.2 1.5"/>
<motor name="winch" joint="draw" ctrlrange="-60 60"/>`;
}

/** A marble body (free). */
export function marbleBody(name: string, pos: readonly number[]): string {
  return `<body name="${name}" pos="${vec(pos)}">
    <freejoint/>
    <geom name="${name}_g" type="sphere" size="${num(LAUNCHER.ballRadius)}" mass="${num(LAUNCHER.ballMass)}" friction="0.6 0.005 0.0005" condim="6" ${LAUNCH_COLLISION.marble} rgba="0.75 0.75 0.8 1"/>
  </body>`;
}
