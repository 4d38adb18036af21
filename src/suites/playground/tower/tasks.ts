/**
 * The implemented Tower tasks (Plan 5, Physics 8 of Table 20) as board variations of Table 10,
 * and their four conditions: consecutive reset seeds with bounded pose, mass and friction
 * perturbations (§5.2).
 */
import { Rng } from "../../../core/index.ts";
import { hanoiDepth } from "../catalog.ts";
import { type Barrier, type Peg, type Ring, STANDARD, type TowerScene } from "./board.ts";
import { casePuzzle } from "./hanoi.ts";

/** The physical theme of a case (Table 10 group), applied to the standard board. */
interface Variation {
  theme: string;
  pegs?: PegPlace[];
  holeRadius?: number;
  massScale?: number;
  friction?: number;
  /** Handle yaw of the smallest ring (radians), the others' 0. */
  tiltTop?: number;
  barriers?: Barrier[];
}

type PegPlace = { x: number; y: number; base?: number; height?: number };
const line: PegPlace[] = STANDARD.pegX.map((x) => ({ x, y: 0 }));

/** Table 10 groups by case number. */
function variationOf(caseNo: number): Variation {
  const group = Math.floor((caseNo - 1) / 4);
  switch (group) {
    case 0:
      return { theme: "state decomposition" };
    case 1:
      return {
        theme: "planar layout (triangular pegs)",
        pegs: [
          { x: -0.14, y: -0.07 },
          { x: 0.14, y: -0.07 },
          { x: 0, y: 0.15 },
        ],
      };
    case 2:
      return {
        theme: "support height (pegs on platforms 0, 40 and 80 mm high)",
        pegs: line.map((p, i) => ({ ...p, base: 0.04 * i })),
      };
    case 3:
      return { theme: "insertion clearance (12.5 mm hole on a 9 mm peg)", holeRadius: 0.0125 };
    case 4:
      return { theme: "mass distribution (rings at half mass)", massScale: 0.5 };
    case 5:
      return { theme: "friction (ring friction 0.5)", friction: 0.5 };
    case 6:
      return { theme: "handle orientation (top ring's handle turned 50 degrees)", tiltTop: 0.87 };
    case 7:
      return {
        theme: "path obstacles (a 160 mm barrier between the first two pegs, offset)",
        barriers: [{ pos: [-0.062, 0.03, 0.08], half: [0.006, 0.07, 0.08] }],
      };
    case 8:
      return {
        theme: "peg length (pegs 110, 170 and 95 mm long)",
        pegs: line.map((p, i) => ({ ...p, height: [0.11, 0.17, 0.095][i]! })),
      };
    default:
      return {
        theme: "combined constraints (platforms, 13 mm hole, heavier and slippery rings)",
        pegs: line.map((p, i) => ({ ...p, base: 0.02 * i })),
        holeRadius: 0.013,
        massScale: 1.3,
        friction: 0.6,
      };
  }
}

/** Bounded perturbations of one condition (the reset seed). */
export const PERTURBATION = { offset: 0.01, yaw: 0.05, mass: 0.1, friction: 0.1 } as const;

/** The realized scene of a Hanoi case under condition `condition` (0-3). */
export function towerScene(
  caseId: string,
  condition: number,
): { scene: TowerScene; theme: string } {
  const caseNo = Number(caseId.slice(1));
  const v = variationOf(caseNo);
  const { start, goal } = casePuzzle(hanoiDepth(caseId));
  const rng = new Rng(`playground/tower/${caseId}`, `reset-seed-${condition}`);
  const u = (bound: number) => (rng.next() * 2 - 1) * bound;
  const dx = u(PERTURBATION.offset);
  const dy = u(PERTURBATION.offset);
  const yaw = u(PERTURBATION.yaw);
  const place = (x: number, y: number): [number, number] => [
    dx + x * Math.cos(yaw) - y * Math.sin(yaw),
    dy + x * Math.sin(yaw) + y * Math.cos(yaw),
  ];
  const pegs: Peg[] = (v.pegs ?? line).map((p) => {
    const [x, y] = place(p.x, p.y);
    return { x, y, base: p.base ?? 0, height: p.height ?? STANDARD.pegHeight };
  });
  const rings: Ring[] = STANDARD.outer.map((outer, i) => ({
    size: i + 1,
    outer,
    mass: STANDARD.mass[i]! * (v.massScale ?? 1) * (1 + u(PERTURBATION.mass)),
    friction: (v.friction ?? STANDARD.friction) * (1 + u(PERTURBATION.friction)),
    // Ring 1 (the smallest) is always the top ring of its stack.
    handleYaw: yaw + (i === 0 ? (v.tiltTop ?? 0) : 0),
  }));
  const barriers = (v.barriers ?? []).map((b) => {
    const [x, y] = place(b.pos[0], b.pos[1]);
    return { pos: [x, y, b.pos[2]] as [number, number, number], half: b.half };
  });
  const scene: TowerScene = {
    pegs,
    pegRadius: STANDARD.pegRadius,
    holeRadius: v.holeRadius ?? STANDARD.holeRadius,
    ringHeight: STANDARD.ringHeight,
    rings,
    barriers,
    start,
    goal,
    gripperStart: [dx, dy - 0.2, 0.3],
  };
  return { scene, theme: v.theme };
}
