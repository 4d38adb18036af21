/**
 * The Hanoi board as data and as MJCF: three pegs (optionally on platforms), five rings built
 * from eight box segments each with a radial handle tab, optional barriers, one floating
 * parallel gripper. Dimensions are ours (the paper's Isaac Lab assets are unpublished).
 */
import { gripperBodies, gripperConstraints, mjcf, num, vec } from "../../../physics/index.ts";
import type { HanoiState } from "./hanoi.ts";

/** One peg: its axis position, the height of the platform it stands on, its length. */
export interface Peg {
  x: number;
  y: number;
  base: number;
  height: number;
}

/** One ring (index = size - 1): mass, friction and the yaw of its handle tab. */
export interface Ring {
  size: number;
  outer: number;
  mass: number;
  friction: number;
  handleYaw: number;
}

/** A box obstacle (centre and half sizes). */
export interface Barrier {
  pos: [number, number, number];
  half: [number, number, number];
}

/** A realized Hanoi scene (after the condition's perturbations). */
export interface TowerScene {
  pegs: Peg[];
  pegRadius: number;
  holeRadius: number;
  ringHeight: number;
  rings: Ring[];
  barriers: Barrier[];
  start: HanoiState;
  goal: HanoiState;
  gripperStart: [number, number, number];
}

/** Standard dimensions (metres, kilograms). */
export const STANDARD = {
  pegX: [-0.16, 0, 0.16],
  pegRadius: 0.009,
  holeRadius: 0.015,
  pegHeight: 0.11,
  ringHeight: 0.018,
  outer: [0.028, 0.034, 0.04, 0.046, 0.052],
  mass: [0.03, 0.04, 0.05, 0.06, 0.07],
  friction: 0.8,
  /** The handle tab: from `outer - 0.003` to `outer + handleLength`, `handleHalfWidth` wide. */
  handleLength: 0.035,
  handleHalfWidth: 0.007,
} as const;

/** Radius (from the ring centre) where the gripper pads close on the handle. */
export function handleGraspRadius(ring: Ring): number {
  return ring.outer + 0.016;
}

const SEGMENTS = 8;
const FEET = 3;
const FOOT = 0.002;

/**
 * Collision bits. Ring walls and handles meet pegs, barriers and the gripper, never other rings
 * or the base. Three small feet under each ring carry its weight on the base or on the deck of
 * the ring below: a solid disc as wide and as high as the ring (thick, so that no foot tunnels
 * through it), that meets nothing but feet. All rings share the hole radius, so the feet (4 mm outside the hole) land on
 * any ring: a ring lowered onto a smaller one rests on it, and the rule monitor sees that
 * contact. A five-ring stack so rests on 15 contacts whatever the rings' yaws (feet on the eight
 * wall segments made it 50: the solver's cost grows with the contacts, and it dominated Hanoi).
 */
const COLLISION = {
  ring: `contype="2" conaffinity="1"`,
  foot: `contype="4" conaffinity="17"`,
  deck: `contype="16" conaffinity="0"`,
  base: `contype="8" conaffinity="5"`,
  solid: `contype="1" conaffinity="1"`,
} as const;

function ringBody(scene: TowerScene, ring: Ring, pos: [number, number, number]): string {
  const h = scene.ringHeight;
  const inner = scene.holeRadius;
  const mid = (ring.outer + inner) / 2;
  const halfRadial = (ring.outer - inner) / 2;
  const halfTangent = ring.outer * Math.tan(Math.PI / SEGMENTS) * 0.98;
  const segMass = (ring.mass * 0.85) / SEGMENTS;
  const geoms: string[] = [];
  for (let i = 0; i < SEGMENTS; i++) {
    const a = (2 * Math.PI * i) / SEGMENTS + Math.PI / SEGMENTS;
    geoms.push(
      `<geom name="ring${ring.size}_s${i}" type="box" size="${vec([halfRadial, halfTangent, h / 2])}" pos="${vec([mid * Math.cos(a), mid * Math.sin(a), h / 2])}" euler="0 0 ${num(a)}" mass="${num(segMass)}" friction="${num(ring.friction)} 0.01 0.001" rgba="${ringColor(ring.size)}" ${COLLISION.ring}/>`,
    );
  }
  // Feet and deck carry all ring-ring and ring-base contacts (see COLLISION above). They sit in
  // a child body without a joint (rigidly part of the ring), so the broad phase prunes whole body
  // pairs by their collision bits: walls never meet another ring's walls, feet or deck.
  const seat: string[] = [];
  seat.push(
    `<geom name="ring${ring.size}_deck" type="cylinder" size="${vec([ring.outer, h / 2])}" pos="${vec([0, 0, h / 2])}" mass="0.0001" friction="${num(ring.friction)} 0.01 0.001" ${COLLISION.deck}/>`,
  );
  const footRadius = inner + 0.004;
  for (let i = 0; i < FEET; i++) {
    const a = (2 * Math.PI * i) / FEET;
    seat.push(
      `<geom name="ring${ring.size}_f${i}" type="sphere" size="${num(FOOT)}" pos="${vec([footRadius * Math.cos(a), footRadius * Math.sin(a), FOOT])}" mass="0.0001" friction="${num(ring.friction)} 0.01 0.001" ${COLLISION.foot}/>`,
    );
  }
  const tabStart = ring.outer - 0.003;
  const tabHalf = (STANDARD.handleLength + 0.003) / 2;
  geoms.push(
    `<geom name="ring${ring.size}_handle" type="box" size="${vec([tabHalf, STANDARD.handleHalfWidth, h / 2])}" pos="${vec([tabStart + tabHalf, 0, h / 2])}" mass="${num(ring.mass * 0.15)}" friction="${num(ring.friction)} 0.01 0.001" rgba="${ringColor(ring.size)}" ${COLLISION.ring}/>`,
  );
  return `<body name="ring${ring.size}" pos="${vec(pos)}" euler="0 0 ${num(ring.handleYaw)}">
  <freejoint name="ring${ring.size}_free"/>
  ${geoms.join("\n  ")}
  <body name="ring${ring.size}_seat">
    ${seat.join("\n    ")}
  </body>
</body>`;
}

function ringColor(size: number): string {
  const colors = [
    "0.9 0.2 0.2 1",
    "0.95 0.6 0.1 1",
    "0.9 0.9 0.2 1",
    "0.2 0.7 0.3 1",
    "0.2 0.4 0.9 1",
  ];
  return colors[size - 1]!;
}

/** The gripper of the Hanoi board. */
export const TOWER_GRIPPER = "hand";

/** The MJCF of a scene, with the rings stacked in their start arrangement. */
export function towerMjcf(scene: TowerScene, timestep: number): string {
  const world: string[] = [
    `<geom name="floor" type="plane" size="1 1 0.05" friction="0.8 0.01 0.001" rgba="0.8 0.75 0.65 1" ${COLLISION.base}/>`,
  ];
  scene.pegs.forEach((peg, i) => {
    if (peg.base > 0) {
      world.push(
        `<geom name="platform${i}" type="box" size="${vec([0.065, 0.065, peg.base / 2])}" pos="${vec([peg.x, peg.y, peg.base / 2])}" rgba="0.55 0.45 0.35 1" ${COLLISION.base}/>`,
      );
    }
    world.push(
      `<geom name="peg${i}" type="cylinder" size="${vec([scene.pegRadius, peg.height / 2])}" pos="${vec([peg.x, peg.y, peg.base + peg.height / 2])}" friction="0.3 0.01 0.001" rgba="0.4 0.3 0.2 1"/>`,
    );
  });
  scene.barriers.forEach((b, i) => {
    world.push(
      `<geom name="barrier${i}" type="box" size="${vec(b.half)}" pos="${vec(b.pos)}" rgba="0.5 0.5 0.55 1"/>`,
    );
  });
  for (let peg = 0; peg < scene.pegs.length; peg++) {
    let level = 0;
    for (let k = scene.rings.length; k >= 1; k--) {
      if (scene.start[k - 1] !== peg) continue;
      const p = scene.pegs[peg]!;
      world.push(
        ringBody(scene, scene.rings[k - 1]!, [
          p.x,
          p.y,
          p.base + level * scene.ringHeight + 0.0005,
        ]),
      );
      level++;
    }
  }
  const gripper = { name: TOWER_GRIPPER, pos: scene.gripperStart };
  world.push(gripperBodies(gripper));
  const c = gripperConstraints(gripper);
  return mjcf({
    name: "hanoi",
    timestep,
    worldbody: world,
    equality: [c.equality],
    actuator: [c.actuator],
  });
}
