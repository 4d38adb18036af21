/**
 * Table 2 of seed 000 as data: per scenario family its robots, the number of nominal task
 * specifications per horizon bucket (short, medium, long, very long, extreme), per
 * generalization track (ID, CG, HO) and its perturbation families. The extracted table lost
 * its column breaks; "Warehouse Sorting11302152–MU, SE, IN" reads robots 1, buckets
 * 1/3/0/2/1, ID 5, CG 2, HO –. Totals: 13/18/24/16/28 specs per bucket, 74/15/10 per track.
 */
import type { Perturbation } from "./types.ts";

/** One row of Table 2. */
export interface Table2Row {
  family: string;
  robots: number;
  /** Specs per bucket: short, medium, long, very long, extreme. */
  buckets: readonly [number, number, number, number, number];
  id: number;
  cg: number;
  ho: number;
  perturbations: readonly Perturbation[];
}

export const TABLE2: readonly Table2Row[] = [
  {
    family: "warehouse-sorting",
    robots: 1,
    buckets: [1, 3, 0, 2, 1],
    id: 5,
    cg: 2,
    ho: 0,
    perturbations: ["MU", "SE", "IN"],
  },
  {
    family: "color-sorting",
    robots: 1,
    buckets: [1, 0, 2, 3, 2],
    id: 6,
    cg: 2,
    ho: 0,
    perturbations: ["MU", "SE", "IN"],
  },
  {
    family: "laundry",
    robots: 1,
    buckets: [1, 2, 2, 1, 2],
    id: 6,
    cg: 2,
    ho: 0,
    perturbations: ["MU", "SE", "IN"],
  },
  {
    family: "bi-robot-sorting",
    robots: 2,
    buckets: [2, 1, 3, 1, 3],
    id: 8,
    cg: 2,
    ho: 0,
    perturbations: ["MU", "SE"],
  },
  {
    family: "make-coffee",
    robots: 1,
    buckets: [4, 2, 2, 1, 1],
    id: 7,
    cg: 3,
    ho: 0,
    perturbations: ["MU", "SE", "IN"],
  },
  {
    family: "clean-table",
    robots: 1,
    buckets: [0, 2, 1, 2, 3],
    id: 8,
    cg: 0,
    ho: 0,
    perturbations: ["MU", "SE"],
  },
  {
    family: "press-buttons",
    robots: 1,
    buckets: [1, 2, 2, 0, 0],
    id: 5,
    cg: 0,
    ho: 0,
    perturbations: ["MU", "SE", "IN"],
  },
  {
    family: "delivery",
    robots: 1,
    buckets: [1, 1, 2, 1, 3],
    id: 6,
    cg: 2,
    ho: 0,
    perturbations: ["MU", "SE", "IN"],
  },
  {
    family: "advanced-clean-table",
    robots: 2,
    buckets: [1, 0, 2, 0, 4],
    id: 7,
    cg: 0,
    ho: 0,
    perturbations: ["SE"],
  },
  {
    family: "hall-sorting",
    robots: 2,
    buckets: [0, 2, 2, 1, 3],
    id: 8,
    cg: 0,
    ho: 0,
    perturbations: ["MU", "SE", "IN"],
  },
  {
    family: "advanced-delivery",
    robots: 3,
    buckets: [0, 2, 3, 3, 2],
    id: 8,
    cg: 2,
    ho: 0,
    perturbations: ["SE", "IN"],
  },
  {
    family: "packaging",
    robots: 1,
    buckets: [1, 1, 3, 1, 4],
    id: 0,
    cg: 0,
    ho: 10,
    perturbations: ["MU", "SE", "IN"],
  },
];

/**
 * The condition rule (docs/magma.md): CE and SE apply to every spec; IN to every spec of a
 * family with IN; MU to a spec of a family with MU whose mission states a user rule that a
 * later request relies on; CO when at least two individual families apply. Table 2 gives no
 * per-spec conditions; Figure 2a's per-bucket episode counts (165/234/306/207/342 = 3 × 55/78/
 * 102/69/114) fix how many specs per bucket rely on permanent rules only. These specs, by
 * family and bucket (1-based within the bucket), state no user rule and so have no MU.
 */
export const RULE_FREE: readonly { family: string; bucket: number; nth: number }[] = [
  // short: 60 possible conditions, 55 in Figure 2a
  { family: "bi-robot-sorting", bucket: 0, nth: 1 },
  { family: "bi-robot-sorting", bucket: 0, nth: 2 },
  { family: "make-coffee", bucket: 0, nth: 1 },
  // medium: 85 -> 78
  { family: "clean-table", bucket: 1, nth: 1 },
  { family: "bi-robot-sorting", bucket: 1, nth: 1 },
  { family: "warehouse-sorting", bucket: 1, nth: 1 },
  { family: "press-buttons", bucket: 1, nth: 1 },
  { family: "hall-sorting", bucket: 1, nth: 1 },
  // long: 107 -> 102
  { family: "bi-robot-sorting", bucket: 2, nth: 1 },
  { family: "press-buttons", bucket: 2, nth: 1 },
  { family: "delivery", bucket: 2, nth: 1 },
  { family: "make-coffee", bucket: 2, nth: 1 },
  // very long: 74 -> 69
  { family: "clean-table", bucket: 3, nth: 1 },
  { family: "color-sorting", bucket: 3, nth: 1 },
  { family: "warehouse-sorting", bucket: 3, nth: 1 },
  { family: "delivery", bucket: 3, nth: 1 },
  // extreme: 120 -> 114
  { family: "bi-robot-sorting", bucket: 4, nth: 1 },
  { family: "clean-table", bucket: 4, nth: 1 },
  { family: "delivery", bucket: 4, nth: 1 },
  { family: "laundry", bucket: 4, nth: 1 },
];

/** Figure 2a's episodes per bucket (three realizations). */
export const EPISODES_PER_BUCKET = [165, 234, 306, 207, 342] as const;

/** The frozen mini subset's episodes per bucket (Figure 2b, one realization). */
export const MINI_PER_BUCKET = [31, 44, 47, 37, 56] as const;
