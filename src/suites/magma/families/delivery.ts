/**
 * Delivery (Table 2: 1 robot; MU, SE, IN). A mobile robot with a tray serves a small
 * warehouse (after the authors' delivery scenarios): products wait on the tables of storage
 * spots; arrivals appear at the reception; orders go to a priority or a standard bay. Skills:
 * move_to(target), detect (the current table and the tray), pick(name) (onto the tray) and
 * drop(name) (onto the current table). Customers' bays are user rules.
 */
import type { Rng } from "../../../core/index.ts";
import { Catalog, type Rewrite } from "../../../world/index.ts";
import type { Family, SkillDef } from "../family.ts";
import type { MissionBuilder, PlanHooks } from "../mission-builder.ts";
import { SceneBuilder } from "../scene-builder.ts";
import type { SymState } from "../sym-state.ts";
import type { Unit } from "../types.ts";
import {
  detectAction,
  list,
  type MobileRouting,
  mobileStep,
  moveAction,
  moveUnit,
  p3,
  same,
  transferAction,
} from "./common.ts";

const TYPES = ["drinks", "snacks", "hygiene", "electronics"] as const;
const SPOTS = TYPES.map((t) => `${t}_spot`);
const BAYS = ["priority_bay", "standard_bay"];
const ROOMS = ["reception", ...SPOTS, ...BAYS];
const CUSTOMERS = ["acme", "globex", "initech", "umbrella"];
const ROBOT = "courier";
const TRAY = "courier_tray";

/** A room's table and a table's room. */
export const table = (room: string) => `${room}_table`;
export const roomOf = (place: string) => place.replace(/_table$/, "");
const typeOf = (item: string) => item.replace(/_\d+$/, "");

/** Skill names and parameters of a mobile family (delivery's or the authors' hall-sorting names). */
export interface MobileNames {
  move: string;
  moveParam: string;
  pick: string;
  drop: string;
  itemParam: string;
}

const DELIVERY_NAMES: MobileNames = {
  move: "move_to",
  moveParam: "target",
  pick: "pick",
  drop: "drop",
  itemParam: "name",
};

/** The skills of a mobile robot with a tray: move, detect, pick onto the tray, drop here. */
export const mobileSkills = (item: string, n: MobileNames = DELIVERY_NAMES): SkillDef[] => [
  {
    name: n.move,
    description: "Move the robot to a destination.",
    params: { [n.moveParam]: { type: "string", description: "Target destination." } },
    action: "move",
    args: [`param:${n.moveParam}`],
    kind: "act",
    faults: ["execution"],
    report: (_s, r, a) => ({ message: `${r} is at ${a[n.moveParam]}.` }),
  },
  {
    name: "detect",
    description: `List the ${item}s on the table where the robot is and on its tray.`,
    params: {},
    action: "detect",
    args: [],
    kind: "perception",
    faults: ["missed_detection"],
    report: (s, r, _a, hidden) => {
      const room = s.parent(r) as string;
      const here = s.children(table(room)).filter((i) => !hidden.includes(i));
      const tray = s.children(`${r}_tray`).filter((i) => !hidden.includes(i));
      return {
        message: `${here.length ? `On the table: ${here.join(", ")}.` : "No object detected on the current table."} ${tray.length ? `The tray contains: ${tray.join(", ")}.` : "The tray is empty."} The robot is at ${room}.`,
        reveal: [...here, ...tray],
        content: { seen: [...here, ...tray].join(",") },
      };
    },
  },
  {
    name: n.pick,
    description: `Load a ${item} from the current table onto the robot's tray.`,
    params: { [n.itemParam]: { type: "string", description: `Name of the ${item} to pick.` } },
    action: "pick",
    args: [`param:${n.itemParam}`, "$tray"],
    kind: "act",
    faults: ["grasp"],
    item: n.itemParam,
    needsDetection: true,
    guard: (s, r, a) => {
      const it = a[n.itemParam] ?? "";
      return s.room(it) === s.parent(r) &&
        s.index.type(s.parent(s.parent(it) ?? "") ?? "") !== "robot"
        ? null
        : `${it} is not on the current table.`;
    },
    report: (_s, _r, a) => ({ message: `${a[n.itemParam]} is now on the tray.` }),
  },
  {
    name: n.drop,
    description: `Unload a ${item} from the robot's tray onto the current table.`,
    params: { [n.itemParam]: { type: "string", description: `Name of the ${item} to drop.` } },
    action: "drop",
    args: [`param:${n.itemParam}`, "$here"],
    kind: "act",
    faults: ["execution"],
    item: n.itemParam,
    guard: (s, r, a) =>
      s.parent(a[n.itemParam] ?? "") === `${r}_tray`
        ? null
        : `${a[n.itemParam]} is not on the tray.`,
    report: (s, r, a) => ({ message: `${a[n.itemParam]} is on the table at ${s.parent(r)}.` }),
  },
];

/**
 * A warehouse scene: a table per room, one or two products of each type on its spot, and
 * `arrivals` products waiting on the dock (out of every robot's reach) until a request's entry
 * transition brings them to the reception.
 */
export function warehouseScene(
  rng: Rng,
  rooms: readonly string[],
  types: readonly string[],
  arrivals: number,
): SceneBuilder {
  const scene = new SceneBuilder();
  for (const room of [...rooms, "dock"])
    scene.room(room).place(table(room), { in: room, category: "table" });
  let n = 0;
  for (const t of types)
    for (let k = 0; k < rng.range(1, 2); k++)
      scene.item(`${t}_${++n}`, { at: table(`${t}_spot`), category: t });
  for (let k = 0; k < arrivals; k++) {
    const t = rng.pick(types);
    scene.item(`${t}_${++n}`, { at: "dock_table", category: t });
  }
  return scene;
}

/** Products arriving at the reception (a request's entry transition). */
export function arrive(items: readonly string[]): Rewrite[] {
  return items.map((node) => ({ op: "relocate", node, rel: "INSIDE", target: "reception_table" }));
}

/** A cancelled order: two delivered products go back to their spots. */
export function cancelOrder(b: MissionBuilder, delivered: readonly string[]): void {
  const items = b.rng.shuffle(delivered).slice(0, 2);
  b.act(
    items.map((i) => moveUnit("restock", i, table(`${typeOf(i)}_spot`))),
    p3(
      `The order was cancelled: bring ${list(items)} back to their spots.`,
      `Return ${list(items)} to their spots.`,
      `${list(items)} go back to storage.`,
    ),
    { request: "direct", report: b.rng.chance(0.3) },
  );
}

export const MOBILE_CATALOG = new Catalog({
  actions: [
    moveAction("move"),
    detectAction("detect"),
    transferAction("pick"),
    transferAction("drop"),
  ],
});

const ROUTING: MobileRouting = {
  move: "move_to",
  moveParam: "target",
  pick: "pick",
  pickParam: "name",
  drop: "drop",
  dropParam: "name",
  detect: "detect",
  tray: () => TRAY,
  capacity: 3,
  roomOf,
  tableOf: table,
  reach: () => true,
};

function bayOf(b: MissionBuilder, customer: string): string {
  return b.rule(`bay:${customer}`)?.value ?? "standard_bay";
}

function products(s: SymState, room: string): string[] {
  return s.children(table(room));
}

function stocked(s: SymState): string[] {
  return SPOTS.flatMap((spot) => products(s, spot));
}

function request(b: MissionBuilder): void {
  const s = b.s;
  const rng = b.rng;
  const roll = rng.next();
  if (b.wantsRule || (b.withRules && roll < 0.18)) {
    const customer = rng.pick(CUSTOMERS);
    const bay = rng.pick(BAYS.filter((x) => x !== bayOf(b, customer)));
    b.ack(
      p3(
        `Remember: orders for ${customer} always go to the ${bay}.`,
        `Please keep in mind that ${customer} collects its orders at the ${bay}.`,
        `New rule: ${customer}'s orders are delivered to the ${bay}.`,
      ),
      { request: "rule", key: `bay:${customer}`, value: bay },
    );
    return;
  }
  const unused = b.unusedRules;
  if (unused.length > 0 && rng.chance(0.6)) {
    const key = rng.pick(unused);
    const items = rng.shuffle(stocked(s)).slice(0, rng.range(1, 3));
    if (items.length > 0) {
      const customer = key.slice("bay:".length);
      b.act(
        items.map((i) => moveUnit("deliver", i, table(bayOf(b, customer)))),
        p3(
          `Ship ${customer}'s order: ${list(items)}.`,
          `${customer} ordered ${list(items)}; deliver them.`,
          `Prepare ${customer}'s order (${list(items)}).`,
        ),
        { request: "underspecified", uses: [key], report: rng.chance(0.4) },
      );
      return;
    }
  }
  const backlog = s.children("dock_table");
  if ((roll < 0.32 || stocked(s).length < 2) && backlog.length > 0) {
    const arriving = backlog.slice(0, rng.range(2, 3));
    const enter = arrive(arriving);
    b.act(
      arriving.map((i) => moveUnit("restock", i, table(`${typeOf(i)}_spot`))),
      p3(
        "New products arrived at the reception: put them on their spots.",
        "A delivery came in at the reception; store the products on their spots.",
        "Please shelve the products that just arrived at the reception.",
      ),
      { request: "direct", enter, report: rng.chance(0.3) },
    );
    return;
  }
  if (roll < 0.45) {
    if (b.withRules && b.ruleKeys().length > 0 && rng.chance(0.5)) {
      const key = rng.pick(b.ruleKeys());
      const value = b.rule(key)?.value as string;
      b.ask(
        same(`Where do ${key.slice(4)}'s orders go?`),
        { kind: "value", value, others: BAYS.filter((x) => x !== value) },
        `${key.slice(4)}'s orders go to the ${value}.`,
        { request: "rule-question", uses: [key] },
      );
      return;
    }
    const room = rng.pick([...BAYS, ...SPOTS]);
    const n = products(s, room).length;
    b.ask(
      p3(
        `How many products are at the ${room}?`,
        `Count the products on the ${room} table.`,
        `Tell me how many products the ${room} holds.`,
      ),
      { kind: "count", n },
      `There are ${n} products at the ${room}.`,
      { request: "question", allowTools: ["detect"] },
    );
    return;
  }
  const delivered = BAYS.flatMap((bay) => products(s, bay));
  if (roll < 0.55 && delivered.length > 0) {
    cancelOrder(b, delivered);
    return;
  }
  const items = rng.shuffle(stocked(s)).slice(0, rng.range(1, 3));
  if (items.length === 0) return;
  const bay = rng.pick(BAYS);
  b.act(
    items.map((i) => moveUnit("deliver", i, table(bay))),
    p3(
      `Deliver ${list(items)} to the ${bay}.`,
      `Bring ${list(items)} to the ${bay}.`,
      `${list(items)} must go to the ${bay}.`,
    ),
    { request: "direct", report: rng.chance(0.3) },
  );
}

export const delivery: Family & PlanHooks = {
  id: "delivery",
  title: "Delivery",
  robots: 1,
  perturbations: ["MU", "SE", "IN"],
  setting:
    "A mobile robot with a tray (three products at most) serves a warehouse: a reception, storage spots per product type and two delivery bays, each with a table. The robot must detect products before picking them, and be where it picks or drops.",
  rules: [
    "Products are stored on the spot of their type (drinks on the drinks_spot, ...).",
    "Orders go to the standard_bay unless a rule says otherwise.",
  ],
  catalog: MOBILE_CATALOG,
  skills: mobileSkills("product"),
  durations: { move_to: 6, detect: 2, pick: 3, drop: 3 },
  vocabulary: {
    courier: ["runner", "carrier_bot"],
    reception: ["entrance", "inbound_desk"],
    drinks: ["beverages", "sodas"],
    snacks: ["treats", "crisps"],
    hygiene: ["toiletries", "care"],
    electronics: ["gadgets", "devices"],
    acme: ["contoso", "wayne"],
    globex: ["fabrikam", "stark"],
    initech: ["northwind", "tyrell"],
    umbrella: ["litware", "cyberdyne"],
  },
  attributes: () => ({ known_locations: ROOMS, product_types: [...TYPES], customers: CUSTOMERS }),
  initiallyKnown: () => [],
  here: (s, robot) => table(s.parent(robot) as string),
  tray: () => TRAY,
  cost: (u, s) => (s.parent(u.args.item as string) === u.args.dest ? 0 : 3),
  step: (ctx) => mobileStep(ctx, ROUTING),
  generate(b) {
    const scene = warehouseScene(b.rng, ROOMS, TYPES, 16);
    scene.robot(ROBOT, { room: "reception", hands: 0, skills: ["move", "detect", "pick", "drop"] });
    scene.tray(TRAY, { robot: ROBOT, capacity: 3 });
    b.scene(scene.build());
    for (let guard = 0; !b.full && guard < 300; guard++) request(b);
  },
  ruleUpdate(b, key) {
    const value = BAYS.find((x) => x !== b.rule(key)?.value) as string;
    const customer = key.slice(4);
    return {
      value,
      say: p3(
        `Change of plan: ${customer}'s orders go to the ${value} from now on.`,
        `Update: deliver ${customer}'s orders to the ${value}.`,
        `Forget the earlier rule; ${customer} collects at the ${value} now.`,
      ),
    };
  },
  interruption(b, exclude) {
    const free = stocked(b.s).filter((i) => !exclude.has(i));
    if (free.length === 0) return null;
    const item = b.rng.pick(free);
    const units: Unit[] = [moveUnit("deliver", item, table("priority_bay"))];
    return {
      units,
      say: p3(
        `Bring ${item} to the priority_bay urgently.`,
        `${item} is urgent: deliver it to the priority_bay.`,
        `Rush ${item} to the priority_bay.`,
      ),
    };
  },
};
