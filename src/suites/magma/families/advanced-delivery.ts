/**
 * Advanced Delivery (Table 2: 3 robots; SE, IN). The authors' three-robot warehouse
 * (AdvancedDeliveryTools): a reception robot that serves the reception and the storage spots,
 * and two preparation robots that serve the storage spots and the four output bays; a spot
 * holds one robot at a time. Arrivals at the reception are shelved by the reception robot;
 * orders are carried from the spots to the bays by the preparation robots; an order of a
 * product still at the reception goes through its spot (the two robot classes share no other
 * place). Skills: move_to(target), detect, pick(name), drop(name), grounded like Delivery's.
 * The authors' preparation robots carry a package tray taken from and dropped at a bay, and
 * the reception robot inspects products and throws broken ones away; here each robot carries
 * its own tray and products are never broken (docs/magma.md, deviations).
 */
import type { Family } from "../family.ts";
import type { MissionBuilder, PlanHooks } from "../mission-builder.ts";
import type { SymState } from "../sym-state.ts";
import type { Unit } from "../types.ts";
import { count, list, type MobileRouting, mobileStep, moveUnit, p3 } from "./common.ts";
import {
  arrive,
  cancelOrder,
  MOBILE_CATALOG,
  mobileSkills,
  roomOf,
  table,
  warehouseScene,
} from "./delivery.ts";

const TYPES = ["electronics", "drinks", "snacks", "hygiene", "textile"] as const;
const SPOTS = TYPES.map((t) => `${t}_spot`);
const BAYS = ["priority_bay_0", "priority_bay_1", "standard_bay_0", "standard_bay_1"];
const ROOMS = ["reception", ...SPOTS, ...BAYS];
const RECEPTION_ROBOT = "reception_robot";
const PREP_ROBOTS = ["preparation_robot_a", "preparation_robot_b"];

const typeOf = (item: string) => item.replace(/_\d+$/, "");
const spotOf = (item: string) => `${typeOf(item)}_spot`;

/** Which rooms a robot class serves (the authors' move_to accessibility). */
function reach(robot: string, room: string): boolean {
  if (room.endsWith("_spot")) return true;
  return robot === RECEPTION_ROBOT ? room === "reception" : BAYS.includes(room);
}

const ROUTING: MobileRouting = {
  move: "move_to",
  moveParam: "target",
  pick: "pick",
  pickParam: "name",
  drop: "drop",
  dropParam: "name",
  detect: "detect",
  tray: (robot) => `${robot}_tray`,
  capacity: 3,
  roomOf,
  tableOf: table,
  reach,
  // The reception robot relays an order waiting at the reception to its product's spot.
  via: (robot, item) => (robot === RECEPTION_ROBOT ? spotOf(item) : undefined),
};

function stocked(s: SymState): string[] {
  return SPOTS.flatMap((spot) => s.children(table(spot)));
}

function request(b: MissionBuilder): void {
  const s = b.s;
  const rng = b.rng;
  const roll = rng.next();
  const backlog = s.children("dock_table");
  if ((roll < 0.3 || stocked(s).length < 3) && backlog.length > 0) {
    const arriving = backlog.slice(0, rng.range(2, 4));
    const enter = arrive(arriving);
    // Part of an arrival may be ordered straight away: it is shelved on the way.
    const direct = rng.chance(0.3) ? arriving.slice(0, 1) : [];
    const units = arriving.map((i) =>
      direct.includes(i)
        ? moveUnit("deliver", i, table("priority_bay_0"))
        : moveUnit("restock", i, table(spotOf(i))),
    );
    b.act(
      units,
      direct.length
        ? p3(
            `New products arrived at the reception: shelve them, but ${direct[0]} goes to priority_bay_0 at once.`,
            `A delivery came in at the reception. Store it on the spots; ${direct[0]} is needed at priority_bay_0.`,
            `Please shelve the new arrivals, except ${direct[0]}, which must reach priority_bay_0.`,
          )
        : p3(
            "New products arrived at the reception: put them on their spots.",
            "A delivery came in at the reception; store the products on their spots.",
            "Please shelve the products that just arrived at the reception.",
          ),
      { request: "direct", enter, report: rng.chance(0.3) },
    );
    return;
  }
  if (roll < 0.42) {
    const room = rng.pick([...BAYS, ...SPOTS]);
    const n = s.children(table(room)).length;
    b.ask(
      p3(
        `How many products are at ${room}?`,
        `Count the products on the ${room} table.`,
        `Tell me how many products ${room} holds.`,
      ),
      { kind: "count", n },
      `There are ${count(n)} products at ${room}.`,
      { request: "question", allowTools: ["detect"] },
    );
    return;
  }
  const delivered = BAYS.flatMap((bay) => s.children(table(bay)));
  if (roll < 0.52 && delivered.length > 0) {
    cancelOrder(b, delivered);
    return;
  }
  const items = rng.shuffle(stocked(s)).slice(0, rng.range(2, 4));
  if (items.length === 0) return;
  const bays = rng.shuffle(BAYS);
  // Large orders are split over two bays (both preparation robots can work at once).
  const split = items.length >= 3 && rng.chance(0.5);
  const dest = (k: number) => (split && k % 2 === 1 ? (bays[1] as string) : (bays[0] as string));
  b.act(
    items.map((i, k) => moveUnit("deliver", i, table(dest(k)))),
    split
      ? p3(
          `Prepare two orders: ${list(items.filter((_, k) => k % 2 === 0))} to ${bays[0]}, ${list(items.filter((_, k) => k % 2 === 1))} to ${bays[1]}.`,
          `Deliver ${list(items.filter((_, k) => k % 2 === 0))} to ${bays[0]} and ${list(items.filter((_, k) => k % 2 === 1))} to ${bays[1]}.`,
          `${list(items.filter((_, k) => k % 2 === 0))} go to ${bays[0]}; ${list(items.filter((_, k) => k % 2 === 1))} go to ${bays[1]}.`,
        )
      : p3(
          `Deliver ${list(items)} to ${bays[0]}.`,
          `Bring ${list(items)} to ${bays[0]}.`,
          `${list(items)} must go to ${bays[0]}.`,
        ),
    { request: "direct", report: rng.chance(0.3) },
  );
}

export const advancedDelivery: Family & PlanHooks = {
  id: "advanced-delivery",
  title: "Advanced Delivery",
  robots: 3,
  perturbations: ["SE", "IN"],
  setting:
    "Three mobile robots with trays (three products each) run a warehouse: a reception, one storage spot per product type and four output bays (priority_bay_0/1, standard_bay_0/1), each with a table. The reception_robot serves the reception and the storage spots; preparation_robot_a and preparation_robot_b serve the storage spots and the output bays. A place holds one robot at a time. Robots must detect products before picking them, and be where they pick or drop.",
  rules: [
    "Products are stored on the spot of their type (drinks on the drinks_spot, ...).",
    "Only the reception_robot reaches the reception; only the preparation robots reach the output bays.",
  ],
  catalog: MOBILE_CATALOG,
  skills: mobileSkills("product"),
  durations: { move_to: 6, detect: 2, pick: 3, drop: 3 },
  vocabulary: {
    reception_robot: ["intake_robot", "receiving_bot"],
    preparation_robot_a: ["picker_a", "order_bot_a"],
    preparation_robot_b: ["picker_b", "order_bot_b"],
    reception: ["entrance", "inbound_desk"],
    electronics: ["gadgets", "devices"],
    drinks: ["beverages", "sodas"],
    snacks: ["treats", "crisps"],
    hygiene: ["toiletries", "care"],
    textile: ["clothing", "fabrics"],
  },
  attributes: () => ({ known_locations: ROOMS, product_types: [...TYPES] }),
  initiallyKnown: () => [],
  here: (s, robot) => table(s.parent(robot) as string),
  tray: (robot) => `${robot}_tray`,
  cost: (u, s) => {
    const at = s.parent(u.args.item as string) ?? "";
    if (at === u.args.dest) return 0;
    // Moves, detections and making room included (measured: about 1.4 times pick + drop + move).
    // Through a spot: both robot classes pick and drop.
    return roomOf(at) === "reception" && BAYS.includes(roomOf(u.args.dest as string)) ? 7 : 4.3;
  },
  step: (ctx) => mobileStep(ctx, ROUTING),
  generate(b) {
    const scene = warehouseScene(b.rng, ROOMS, TYPES, 18);
    const starts = ["reception", "priority_bay_0", "standard_bay_1"];
    [RECEPTION_ROBOT, ...PREP_ROBOTS].forEach((robot, k) => {
      scene.robot(robot, {
        room: starts[k] as string,
        hands: 0,
        skills: ["move", "detect", "pick", "drop"],
      });
      scene.tray(`${robot}_tray`, { robot, capacity: 3 });
    });
    b.scene(scene.build());
    for (let guard = 0; !b.full && guard < 300; guard++) request(b);
  },
  ruleUpdate: () => null,
  interruption(b, exclude) {
    const free = stocked(b.s).filter((i) => !exclude.has(i));
    if (free.length === 0) return null;
    const item = b.rng.pick(free);
    const units: Unit[] = [moveUnit("deliver", item, table("priority_bay_1"))];
    return {
      units,
      say: p3(
        `Bring ${item} to priority_bay_1 urgently.`,
        `${item} is urgent: deliver it to priority_bay_1.`,
        `Rush ${item} to priority_bay_1.`,
      ),
    };
  },
};
