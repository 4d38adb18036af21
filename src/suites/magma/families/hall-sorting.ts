/**
 * Hall Sorting (Table 2: 2 robots; MU, SE, IN). The authors' four-hall scenario: two mobile
 * robots with trays (four objects each) carry books, pens, backpacks and packages between the
 * tables of Hall1..Hall4; a hall holds one robot at a time. Skills as the authors'
 * HallSortingTool: detect, move_to(hall), pick_to_tray(object), drop_from_tray(object).
 */
import type { Family } from "../family.ts";
import type { MissionBuilder, PlanHooks } from "../mission-builder.ts";
import { SceneBuilder } from "../scene-builder.ts";
import type { SymState } from "../sym-state.ts";
import type { Unit } from "../types.ts";
import { list, type MobileRouting, mobileStep, moveUnit, p3, plural, same } from "./common.ts";
import { MOBILE_CATALOG, mobileSkills, roomOf, table } from "./delivery.ts";

const HALLS = ["Hall1", "Hall2", "Hall3", "Hall4"];
const CLASSES = ["book", "pen", "backpack", "package"];
const ROBOTS = ["robot1", "robot2"];

const ROUTING: MobileRouting = {
  move: "move_to",
  moveParam: "hall",
  pick: "pick_to_tray",
  pickParam: "object",
  drop: "drop_from_tray",
  dropParam: "object",
  detect: "detect",
  tray: (robot) => `${robot}_tray`,
  capacity: 4,
  roomOf,
  tableOf: table,
  reach: () => true,
};

const classOf = (item: string) => item.replace(/_\d+$/, "");

function objects(s: SymState): string[] {
  return s.index.ofType("object");
}

function hallOf(s: SymState, item: string): string {
  return roomOf(s.parent(item) ?? "");
}

function destOf(b: MissionBuilder, cls: string): string | undefined {
  return b.rule(`hall:${cls}`)?.value;
}

function request(b: MissionBuilder): void {
  const s = b.s;
  const rng = b.rng;
  const roll = rng.next();
  if (b.wantsRule || (b.withRules && roll < 0.18)) {
    const cls = rng.pick(CLASSES);
    const hall = rng.pick(HALLS.filter((h) => h !== destOf(b, cls)));
    b.ack(
      p3(
        `Remember: ${plural(cls)} belong in ${hall}.`,
        `Please keep in mind that ${plural(cls)} are stored in ${hall}.`,
        `New rule: ${plural(cls)} go to ${hall}.`,
      ),
      { request: "rule", key: `hall:${cls}`, value: hall },
    );
    return;
  }
  const unused = b.unusedRules;
  if (unused.length > 0 && rng.chance(0.6)) {
    const key = rng.pick(unused);
    const cls = key.slice(5);
    const hall = destOf(b, cls) as string;
    const items = objects(s).filter((i) => classOf(i) === cls && hallOf(s, i) !== hall);
    if (items.length > 0) {
      b.act(
        items.slice(0, 4).map((i) => moveUnit("sort", i, table(hall))),
        p3(
          `Sort the ${plural(cls)}.`,
          `Put the ${plural(cls)} where they belong.`,
          `The ${plural(cls)} need to be put away.`,
        ),
        { request: "underspecified", uses: [key], report: rng.chance(0.4) },
      );
      return;
    }
    const item = objects(s).find((i) => classOf(i) === cls);
    if (item) {
      const away = rng.pick(HALLS.filter((h) => h !== hall));
      b.act([moveUnit("sort", item, table(away))], same(`Move ${item} to ${away}.`), {
        request: "direct",
      });
      return;
    }
  }
  if (roll < 0.35) {
    if (b.withRules && b.ruleKeys().length > 0 && rng.chance(0.5)) {
      const key = rng.pick(b.ruleKeys());
      const value = b.rule(key)?.value as string;
      b.ask(
        same(`Where do ${plural(key.slice(5))} belong?`),
        { kind: "value", value, others: HALLS.filter((h) => h !== value) },
        `${plural(key.slice(5))} belong in ${value}.`,
        { request: "rule-question", uses: [key] },
      );
      return;
    }
    const hall = rng.pick(HALLS);
    const n = s.children(table(hall)).length;
    b.ask(
      p3(
        `How many objects are in ${hall}?`,
        `Count the objects on the ${hall} table.`,
        `Tell me how many objects ${hall} holds.`,
      ),
      { kind: "count", n },
      `There are ${n} objects in ${hall}.`,
      { request: "question", allowTools: ["detect"] },
    );
    return;
  }
  const items = rng.shuffle(objects(s)).slice(0, rng.range(2, 4));
  const dests = items.map((i) => rng.pick(HALLS.filter((h) => h !== hallOf(s, i))));
  const pairs = items.map((i, k) => `${i} to ${dests[k]}`);
  const ordered = roll > 0.88;
  b.act(
    items.map((i, k) => moveUnit("sort", i, table(dests[k] as string))),
    ordered
      ? p3(
          `In this order: ${pairs.join(", then ")}.`,
          `First ${pairs.join(", then ")}; keep that order.`,
          `One after the other: ${pairs.join(", then ")}.`,
        )
      : p3(`Move ${list(pairs)}.`, `Please bring ${list(pairs)}.`, `Relocate ${list(pairs)}.`),
    {
      request: ordered ? "ordered" : "direct",
      ordered: ordered ? "instruction" : undefined,
      report: rng.chance(0.3),
    },
  );
}

export const hallSorting: Family & PlanHooks = {
  id: "hall-sorting",
  title: "Hall Sorting",
  robots: 2,
  perturbations: ["MU", "SE", "IN"],
  setting:
    "Two mobile robots with trays (four objects each) move books, pens, backpacks and packages between the tables of four halls. A hall holds one robot at a time; a robot must be in a hall to pick or drop there, and must detect objects before picking them.",
  rules: ["A hall holds one robot at a time.", "A tray holds four objects at most."],
  catalog: MOBILE_CATALOG,
  skills: mobileSkills("object", {
    move: "move_to",
    moveParam: "hall",
    pick: "pick_to_tray",
    drop: "drop_from_tray",
    itemParam: "object",
  }),
  durations: { move_to: 6, detect: 2, pick_to_tray: 3, drop_from_tray: 3 },
  vocabulary: {
    robot1: ["rover_a", "unit1"],
    robot2: ["rover_b", "unit2"],
    book: ["novel", "folder"],
    books: ["novels", "folders"],
    pen: ["pencil", "marker"],
    pens: ["pencils", "markers"],
    backpack: ["bag", "satchel"],
    backpacks: ["bags", "satchels"],
    package: ["parcel", "box"],
    packages: ["parcels", "boxes"],
  },
  attributes: () => ({ halls: HALLS, object_types: CLASSES }),
  initiallyKnown: () => [],
  here: (s, robot) => table(s.parent(robot) as string),
  tray: (robot) => `${robot}_tray`,
  cost: (u, s) => (s.parent(u.args.item as string) === u.args.dest ? 0 : 3),
  step: (ctx) => mobileStep(ctx, ROUTING),
  generate(b) {
    const rng = b.rng;
    const scene = new SceneBuilder();
    for (const h of HALLS) scene.room(h).place(table(h), { in: h, category: "table" });
    let n = 0;
    for (const h of HALLS)
      for (let k = 0; k < rng.range(1, 3); k++)
        scene.item(`${rng.pick(CLASSES)}_${++n}`, { at: table(h), category: "object" });
    scene.robot("robot1", { room: "Hall1", hands: 0, skills: ["move", "detect", "pick", "drop"] });
    scene.robot("robot2", { room: "Hall3", hands: 0, skills: ["move", "detect", "pick", "drop"] });
    for (const r of ROBOTS) scene.tray(`${r}_tray`, { robot: r, capacity: 4 });
    b.scene(scene.build());
    for (let guard = 0; !b.full && guard < 300; guard++) request(b);
  },
  ruleUpdate(b, key) {
    const value = b.rng.pick(HALLS.filter((h) => h !== b.rule(key)?.value));
    const cls = key.slice(5);
    return {
      value,
      say: p3(
        `Change of plan: ${plural(cls)} now belong in ${value}.`,
        `Update: store ${plural(cls)} in ${value} from now on.`,
        `Forget the earlier rule; ${plural(cls)} go to ${value}.`,
      ),
    };
  },
  interruption(b, exclude) {
    const s = b.s;
    const free = objects(s).filter((i) => !exclude.has(i));
    if (free.length === 0) return null;
    const item = b.rng.pick(free);
    const hall = b.rng.pick(HALLS.filter((h) => h !== hallOf(s, item)));
    const units: Unit[] = [moveUnit("sort", item, table(hall))];
    return {
      units,
      say: p3(
        `Bring ${item} to ${hall} right away.`,
        `${item} is needed in ${hall} now.`,
        `Quick, move ${item} to ${hall}.`,
      ),
    };
  },
};
