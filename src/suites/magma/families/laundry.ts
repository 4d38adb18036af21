/**
 * Laundry (Table 2: 1 robot; MU, SE, IN). The authors' laundry scenario: clothes of several
 * categories in a basket, detergents, a washing machine. Skills as the authors' LaunchTool:
 * take (by name), drop (the held item into the machine), action_wash (the load, here with the
 * detergent as an argument), plus `store` (the held item onto the clean shelf) so that loads
 * can follow each other in one episode. Rules assign detergents to clothing categories.
 */
import { Catalog } from "../../../world/index.ts";
import type { ExpertCall, Family, SkillDef, StepContext } from "../family.ts";
import type { MissionBuilder, PlanHooks } from "../mission-builder.ts";
import { SceneBuilder } from "../scene-builder.ts";
import type { Constraint, Unit } from "../types.ts";
import { list, p3, putAction, same, takeAction, takeSkill } from "./common.ts";

const CATEGORY: Record<string, string> = {
  shirt: "formal",
  blouse: "formal",
  jeans: "everyday",
  pants: "everyday",
  shorts: "sport",
  socks: "sport",
  cap: "sport",
  boxer: "sleepwear",
  pyjama: "sleepwear",
};
const CLASSES = Object.keys(CATEGORY);
const CATEGORIES = ["everyday", "formal", "sport", "sleepwear"];
const DETERGENTS = ["omo", "persil", "skip"];
const ROBOT = "washer";
const MACHINE = "washing_machine";

const SKILLS: SkillDef[] = [
  takeSkill("Pick a piece of clothing by its name.", "Name of the object to grab."),
  {
    name: "drop",
    description: "Put the held clothes into the washing machine.",
    params: {},
    action: "drop",
    args: ["$held", `@${MACHINE}`],
    kind: "act",
    faults: ["execution"],
    report: () => ({ message: "Successfully put the clothes in the washing machine." }),
  },
  {
    name: "action_wash",
    description: "Wash all clothes in the washing machine with a detergent.",
    params: {
      detergent: { type: "string", description: "The detergent to use: omo, persil or skip." },
    },
    action: "wash",
    args: [`@${MACHINE}`],
    kind: "act",
    faults: ["execution"],
    guard: (_s, _r, a) =>
      DETERGENTS.includes(a.detergent ?? "") ? null : `Unknown detergent ${a.detergent}.`,
    report: (s, _r, a) => {
      const items = s.children(MACHINE);
      return {
        message: `You have washed ${items.join(", ")} with ${a.detergent}.`,
        content: { detergent: a.detergent as string },
        items,
      };
    },
  },
  {
    name: "store",
    description: "Put the held clothes on the clean shelf.",
    params: {},
    action: "store",
    args: ["$held", "@shelf"],
    kind: "act",
    faults: ["execution"],
    report: () => ({ message: "Successfully put the clothes on the shelf." }),
  },
];

const CATALOG = new Catalog({
  actions: [
    takeAction("take"),
    putAction("drop"),
    putAction("store"),
    {
      name: "wash",
      description: "wash the machine's load",
      parameters: ["machine"],
      preconditions: [{ check: "loaded", arg: 0 }],
      effects: [{ op: "set_attr_contents", arg: 0, attr: "washed", value: true }],
    },
  ],
});

function classOf(item: string): string {
  return item.replace(/_\d+$/, "");
}

function categoryOf(item: string): string {
  return CATEGORY[classOf(item)] as string;
}

function detergentFor(b: MissionBuilder, item: string): string {
  return b.rule(`det:${categoryOf(item)}`)?.value ?? "omo";
}

function washUnit(item: string, detergent: string): Unit {
  return {
    kind: "wash",
    args: { item, detergent },
    atoms: [{ pred: "INSIDE", object: item, target: "shelf" }],
    logs: [{ match: { skill: "action_wash", item, content: { detergent } }, op: "ge", count: 1 }],
  };
}

function shelveUnit(item: string): Unit {
  return {
    kind: "shelve",
    args: { item, dest: "shelf" },
    atoms: [{ pred: "INSIDE", object: item, target: "shelf" }],
    logs: [],
  };
}

/** Washing an item of a ruled category with another detergent breaks the rule. */
function forbidRules(b: MissionBuilder, items: readonly string[]): Constraint[] {
  const out: Constraint[] = [];
  for (const item of items) {
    const rule = b.rule(`det:${categoryOf(item)}`);
    if (!rule) continue;
    for (const d of DETERGENTS)
      if (d !== rule.value)
        out.push({
          kind: "log",
          match: { skill: "action_wash", item, content: { detergent: d } },
          source: "rule",
        });
  }
  return out;
}

/** State a rule first in missions with rules; then make a request rely on it. */
function ruleFirst(b: MissionBuilder): boolean {
  const rng = b.rng;
  const basket = b.s.children("basket");
  if (b.wantsRule) {
    const cat = basket.length ? categoryOf(rng.pick(basket)) : rng.pick(CATEGORIES);
    const det = rng.pick(DETERGENTS.filter((d) => d !== "omo"));
    b.ack(ruleSay(cat, det), { request: "rule", key: `det:${cat}`, value: det });
    return true;
  }
  const unused = b.unusedRules;
  if (unused.length === 0 || !rng.chance(0.6)) return false;
  const key = rng.pick(unused);
  const cat = key.slice("det:".length);
  const items = basket.filter((i) => categoryOf(i) === cat).slice(0, 3);
  if (items.length === 0) return false;
  b.act(
    items.map((i) => washUnit(i, detergentFor(b, i))),
    p3(
      `Wash the ${cat} clothes from the basket.`,
      `Please launder the ${cat} clothes in the basket.`,
      `The ${cat} clothes in the basket need washing.`,
    ),
    {
      request: "underspecified",
      uses: [key],
      forbid: forbidRules(b, items),
      report: rng.chance(0.4),
    },
  );
  return true;
}

function ruleSay(cat: string, det: string) {
  return p3(
    `Remember: ${cat} clothes must always be washed with ${det}.`,
    `Please keep in mind that ${det} is the detergent for ${cat} clothes.`,
    `New rule: use ${det} for ${cat} clothes.`,
  );
}

function request(b: MissionBuilder): void {
  if (ruleFirst(b)) return;
  const s = b.s;
  const rng = b.rng;
  const basket = s.children("basket");
  const roll = rng.next();
  if (basket.length < 2) {
    const shelf = s.children("shelf");
    const back = rng.shuffle(shelf).slice(0, rng.range(3, 5));
    const enter = back.flatMap((i) => [
      { op: "relocate" as const, node: i, rel: "INSIDE" as const, target: "basket" },
      { op: "set_attr" as const, node: i, attr: "washed", value: false },
    ]);
    const items = [...basket, ...back];
    const units = items.map((i) => washUnit(i, detergentFor(b, i)));
    const uses = [...new Set(items.map((i) => `det:${categoryOf(i)}`))].filter((k) => b.rule(k));
    b.act(
      units,
      p3(
        "The basket is full again: wash everything in it.",
        "More dirty laundry came in; please wash all of the basket.",
        "Wash all the clothes in the basket.",
      ),
      {
        request: uses.length ? "underspecified" : "direct",
        uses,
        enter,
        forbid: forbidRules(b, items),
        report: rng.chance(0.5),
      },
    );
    return;
  }
  if (b.withRules && roll < 0.22) {
    const cat = rng.pick(CATEGORIES);
    const det = rng.pick(DETERGENTS.filter((d) => d !== (b.rule(`det:${cat}`)?.value ?? "omo")));
    b.ack(
      p3(
        `Remember: ${cat} clothes must always be washed with ${det}.`,
        `Please keep in mind that ${det} is the detergent for ${cat} clothes.`,
        `New rule: use ${det} for ${cat} clothes.`,
      ),
      { request: "rule", key: `det:${cat}`, value: det },
    );
    return;
  }
  if (roll < 0.36) {
    if (b.withRules && rng.chance(0.5)) {
      const keys = b.ruleKeys();
      if (keys.length > 0) {
        const key = rng.pick(keys);
        const value = b.rule(key)?.value as string;
        const cat = key.slice("det:".length);
        b.ask(
          same(`Which detergent do ${cat} clothes need?`),
          { kind: "value", value, others: DETERGENTS.filter((d) => d !== value) },
          `${cat} clothes are washed with ${value}.`,
          { request: "rule-question", uses: [key] },
        );
        return;
      }
    }
    const place = rng.pick(["basket", "shelf"]);
    const here = s.children(place);
    if (rng.chance(0.5))
      b.ask(
        p3(
          `How many clothes are in the ${place}?`,
          `Count the clothes in the ${place}.`,
          `Tell me how many clothes the ${place} holds.`,
        ),
        { kind: "count", n: here.length },
        `There are ${here.length} clothes in the ${place}.`,
        { request: "question" },
      );
    else
      b.ask(
        p3(
          `Which clothes are in the ${place}?`,
          `List the clothes in the ${place}.`,
          `Name the clothes in the ${place}.`,
        ),
        { kind: "set", items: here, universe: b.nodes.ofType("object") },
        `${list(here)} ${here.length === 1 ? "is" : "are"} in the ${place}.`,
        { request: "question" },
      );
    return;
  }
  const items = rng.shuffle(basket).slice(0, rng.range(2, Math.min(4, basket.length)));
  if (b.withRules && roll < 0.6 && items.some((i) => b.rule(`det:${categoryOf(i)}`))) {
    const uses = [...new Set(items.map((i) => `det:${categoryOf(i)}`))].filter((k) => b.rule(k));
    b.act(
      items.map((i) => washUnit(i, detergentFor(b, i))),
      p3(`Wash ${list(items)}.`, `Please launder ${list(items)}.`, `${list(items)} need washing.`),
      { request: "underspecified", uses, forbid: forbidRules(b, items), report: rng.chance(0.4) },
    );
    return;
  }
  if (b.track === "CG" && roll < 0.7) {
    const item = items[0] as string;
    const det = b.rule(`det:${categoryOf(item)}`)?.value ?? rng.pick(DETERGENTS);
    b.clarify(
      p3(
        `Wash ${item} with a special detergent.`,
        `${item} needs a special wash.`,
        `Please wash ${item} differently this time.`,
      ),
      `Which detergent should I use for ${item}?`,
      p3(`Use ${det}.`, `${det}, please.`, `With ${det}.`),
      [washUnit(item, det)],
      { request: "clarified" },
    );
    return;
  }
  const det = rng.pick(DETERGENTS);
  const fits = items.filter((i) => (b.rule(`det:${categoryOf(i)}`)?.value ?? det) === det);
  if (fits.length === 0) return;
  items.splice(0, items.length, ...fits);
  const ordered = roll > 0.85 && items.length >= 2;
  b.act(
    items.map((i) => washUnit(i, det)),
    ordered
      ? p3(
          `Wash ${list(items)} with ${det}, one after the other in that order.`,
          `With ${det}: first ${items.join(", then ")}.`,
          `One at a time and in this order, wash ${list(items)} with ${det}.`,
        )
      : p3(
          `Wash ${list(items)} with ${det}.`,
          `Use ${det} to wash ${list(items)}.`,
          `${list(items)} go in the machine with ${det}.`,
        ),
    {
      request: ordered ? "ordered" : "direct",
      ordered: ordered ? "instruction" : undefined,
      forbid: forbidRules(b, items),
      report: rng.chance(0.3),
    },
  );
}

/** The washer's program: empty a washed load, fill one detergent's load, wash it. */
function step(ctx: StepContext): ExpertCall | null {
  const { s, robot, open, known, reserved } = ctx;
  const held = s.held(robot);
  const inMachine = s.children(MACHINE);
  const unitOf = (item: string) => open.find((u) => u.args.item === item);
  if (held) {
    const u = unitOf(held);
    if (u?.kind === "shelve" || s.attr(held, "washed")) return { skill: "store", args: {} };
    return { skill: "drop", args: {} };
  }
  const washed = inMachine.filter((i) => s.attr(i, "washed"));
  if (washed.length > 0) return { skill: "take", args: { name: washed[0] as string } };
  const shelve = open.find(
    (u) =>
      u.kind === "shelve" &&
      s.parent(u.args.item as string) !== "shelf" &&
      known.has(u.args.item as string) &&
      !reserved.has(u.args.item as string),
  );
  if (shelve) return { skill: "take", args: { name: shelve.args.item as string } };
  const pending = open.filter((u) => u.kind === "wash" && !s.attr(u.args.item as string, "washed"));
  const loadDet =
    inMachine.map((i) => unitOf(i)?.args.detergent).find((d) => d !== undefined) ??
    pending[0]?.args.detergent;
  if (!loadDet) return null;
  const next = pending.find(
    (u) =>
      u.args.detergent === loadDet &&
      s.parent(u.args.item as string) !== MACHINE &&
      known.has(u.args.item as string) &&
      !reserved.has(u.args.item as string),
  );
  if (next) return { skill: "take", args: { name: next.args.item as string } };
  if (inMachine.length > 0 && !reserved.has(MACHINE))
    return { skill: "action_wash", args: { detergent: loadDet } };
  return null;
}

export const laundry: Family & PlanHooks = {
  id: "laundry",
  title: "Laundry",
  robots: 1,
  perturbations: ["MU", "SE", "IN"],
  setting:
    "Dirty clothes wait in a basket; a washing machine washes whatever it holds with the detergent you choose; clean clothes go on the shelf. The clothes in the basket and on the shelf are listed in the attributes.",
  rules: [
    "Clothing categories: shirts and blouses are formal; jeans and pants everyday; shorts, socks and caps sport; boxers and pyjamas sleepwear.",
    "Use omo unless a rule says otherwise; clean clothes go on the shelf.",
  ],
  catalog: CATALOG,
  skills: SKILLS,
  durations: { take: 4, drop: 3, action_wash: 8, store: 3 },
  vocabulary: {
    basket: ["hamper", "laundry_bin"],
    shelf: ["rack", "cupboard"],
    washer: ["laundry_bot", "housekeeper"],
    shirt: ["tshirt", "polo"],
    socks: ["stockings", "sock_pair"],
    cap: ["hat", "beanie"],
    omo: ["ariel", "dash"],
    persil: ["tide", "bonux"],
    skip: ["lenor", "xtra"],
    action_wash: ["start_wash", "run_wash_cycle"],
    store: ["put_on_shelf", "fold_away"],
  },
  attributes: (s) => ({
    basket: s.children("basket"),
    shelf: s.children("shelf"),
    washing_machine: s.children(MACHINE),
    detergents: DETERGENTS,
    categories: CATEGORIES,
  }),
  initiallyKnown: () => [],
  listed: (s) => [...s.children("basket"), ...s.children("shelf"), ...s.children(MACHINE)],
  cost: (u) => (u.kind === "shelve" ? 2 : 4.5),
  step,
  generate(b) {
    const rng = b.rng;
    const scene = new SceneBuilder()
      .room("laundry_room")
      .place("basket", { in: "laundry_room" })
      .place(MACHINE, { in: "laundry_room", capacity: 6 })
      .place("shelf", { in: "laundry_room" });
    const n = rng.range(6, 9);
    const counts: Record<string, number> = {};
    for (let k = 0; k < n; k++) {
      const cls = rng.pick(CLASSES);
      counts[cls] = (counts[cls] ?? 0) + 1;
      scene.item(`${cls}_${counts[cls]}`, {
        at: k < n - 2 ? "basket" : "shelf",
        category: cls,
        attrs: { washed: k >= n - 2 },
      });
    }
    scene.robot(ROBOT, {
      room: "laundry_room",
      hands: 1,
      skills: ["take", "drop", "wash", "store"],
    });
    b.scene(scene.build());
    for (let guard = 0; !b.full && guard < 200; guard++) request(b);
  },
  ruleUpdate(b, key) {
    const cat = key.slice("det:".length);
    const options = DETERGENTS.filter((d) => d !== b.rule(key)?.value);
    const value = b.rng.pick(options);
    return {
      value,
      say: p3(
        `Change of plan: wash ${cat} clothes with ${value} from now on.`,
        `Update: the detergent for ${cat} clothes is now ${value}.`,
        `Forget the earlier rule; ${cat} clothes get ${value}.`,
      ),
    };
  },
  interruption(b, exclude) {
    const free = b.s.children("basket").filter((i) => !exclude.has(i));
    if (free.length === 0) return null;
    const item = b.rng.pick(free);
    return {
      units: [shelveUnit(item)],
      say: p3(
        `Put ${item} on the shelf without washing it.`,
        `${item} is clean: put it on the shelf as it is.`,
        `Move ${item} straight to the shelf.`,
      ),
    };
  },
};
