/**
 * Make Coffee (Table 2: 1 robot; MU, SE, IN). The authors' coffee scenario: a coffee maker,
 * capsule flavors (black, milky, white), people in teams with preferences. Skills as the
 * authors' MakingCoffeeTool: place_mug, load_capsule(name), press_button, the registry
 * lookups people_from_team(team) and team_from_people(person), plus `serve(person)` (hand the
 * cup over) so that several coffees follow each other in one episode. A coffee is judged on the
 * ordered action log: the served cup's flavor, brewed after a mug and a capsule were loaded.
 */
import { Catalog } from "../../../world/index.ts";
import type { ExpertCall, Family, SkillDef, StepContext } from "../family.ts";
import type { MissionBuilder, PlanHooks } from "../mission-builder.ts";
import { SceneBuilder } from "../scene-builder.ts";
import type { Unit } from "../types.ts";
import { list, p3, same } from "./common.ts";

const FLAVORS = ["black", "milky", "white"] as const;
const PEOPLE = [
  "smith",
  "anderson",
  "clark",
  "wright",
  "mitchell",
  "johnson",
  "thomas",
  "lopez",
  "perez",
  "jackson",
  "lewis",
  "hill",
];
const TEAMS = ["disco", "gepetto", "rap", "ris"];
const MAKER = "coffee_maker";
const ROBOT = "barista";

const SKILLS: SkillDef[] = [
  {
    name: "place_mug",
    description: "Place a clean mug in the coffee maker, under the coffee outlet.",
    params: {},
    action: "place_mug",
    args: [`@${MAKER}`],
    kind: "act",
    faults: ["execution"],
    report: () => ({ message: "You have placed the mug." }),
  },
  {
    name: "load_capsule",
    description: "Insert a coffee capsule of the requested flavor into the coffee maker.",
    params: {
      name: { type: "string", description: "Flavor of the capsule: black, milky or white." },
    },
    action: (a) => `load_${a.name}`,
    args: [`@${MAKER}`],
    kind: "act",
    faults: ["grasp"],
    guard: (_s, _r, a) =>
      FLAVORS.includes(a.name as (typeof FLAVORS)[number])
        ? null
        : `No coffee_pod named ${a.name}. Use only known pods.`,
    report: (_s, _r, a) => ({ message: `You have loaded a ${a.name} capsule.` }),
  },
  {
    name: "press_button",
    description:
      "Press the start button of the coffee maker once the mug and the capsule are in place.",
    params: {},
    action: "brew",
    args: [`@${MAKER}`],
    kind: "act",
    faults: ["execution"],
    report: (s) => ({ message: "Coffee launched!", content: { flavor: flavorOf(s) } }),
  },
  {
    name: "serve",
    description: "Hand the brewed coffee over to a person.",
    params: { person: { type: "string", description: "Name of the person to serve." } },
    action: "serve",
    args: [`@${MAKER}`],
    kind: "act",
    faults: ["execution"],
    guard: (_s, _r, a) =>
      PEOPLE.includes(a.person ?? "") ? null : `${a.person} is not in the registry.`,
    report: (s, _r, a) => ({
      message: `${a.person} has a ${flavorOf(s)} coffee.`,
      content: { person: a.person as string, flavor: flavorOf(s) },
    }),
  },
  {
    name: "people_from_team",
    description: "Look up the registered members of a team.",
    params: { team: { type: "string", description: "Name of the team." } },
    action: "lookup",
    args: [],
    kind: "info",
    faults: [],
    guard: (_s, _r, a) => (TEAMS.includes(a.team ?? "") ? null : `team ${a.team} doesn't exist.`),
    report: (s, _r, a) => ({
      message: `people in ${a.team}: ${membersOf(s.index.nodes.get(MAKER)?.attrs ?? {}, a.team as string).join(", ")}`,
    }),
  },
  {
    name: "team_from_people",
    description: "Look up the team a person belongs to.",
    params: { person: { type: "string", description: "Name of the person." } },
    action: "lookup",
    args: [],
    kind: "info",
    faults: [],
    guard: (_s, _r, a) =>
      PEOPLE.includes(a.person ?? "") ? null : "person doesn't exist in the registry.",
    report: (s, _r, a) => ({
      message: `${a.person} in team ${teamOf(s.index.nodes.get(MAKER)?.attrs ?? {}, a.person as string)}`,
    }),
  },
];

/** The flavor bit the last capsule set. */
function flavorOf(s: { attr(id: string, a: string): boolean }): string {
  return FLAVORS.find((f) => s.attr(MAKER, f)) ?? "none";
}

/** Team membership is static scene data: attributes `member_<team>_<person>` on the maker. */
function membersOf(attrs: Record<string, boolean>, team: string): string[] {
  return PEOPLE.filter((p) => attrs[`member_${team}_${p}`]);
}

function teamOf(attrs: Record<string, boolean>, person: string): string {
  return TEAMS.find((t) => attrs[`member_${t}_${person}`]) ?? "none";
}

const setFlavor = (f: string) =>
  FLAVORS.map((g) => ({ op: "set_attr" as const, arg: 0, attr: g, value: g === f }));

const CATALOG = new Catalog({
  actions: [
    {
      name: "place_mug",
      description: "put a mug under the outlet",
      parameters: ["maker"],
      preconditions: [{ check: "attr", arg: 0, attr: "has_mug", value: false }],
      effects: [{ op: "set_attr", arg: 0, attr: "has_mug", value: true }],
    },
    ...FLAVORS.map((f) => ({
      name: `load_${f}`,
      description: `load a ${f} capsule`,
      parameters: ["maker"],
      preconditions: [{ check: "attr" as const, arg: 0, attr: "has_capsule", value: false }],
      effects: [
        { op: "set_attr" as const, arg: 0, attr: "has_capsule", value: true },
        ...setFlavor(f),
      ],
    })),
    {
      name: "brew",
      description: "brew",
      parameters: ["maker"],
      preconditions: [
        { check: "attr", arg: 0, attr: "has_mug", value: true },
        { check: "attr", arg: 0, attr: "has_capsule", value: true },
        { check: "attr", arg: 0, attr: "brewed", value: false },
      ],
      effects: [
        { op: "set_attr", arg: 0, attr: "brewed", value: true },
        { op: "set_attr", arg: 0, attr: "has_capsule", value: false },
      ],
    },
    {
      name: "serve",
      description: "hand the cup over",
      parameters: ["maker"],
      preconditions: [{ check: "attr", arg: 0, attr: "brewed", value: true }],
      effects: [
        { op: "set_attr", arg: 0, attr: "brewed", value: false },
        { op: "set_attr", arg: 0, attr: "has_mug", value: false },
      ],
    },
    {
      name: "lookup",
      description: "look up the registry",
      parameters: [],
      preconditions: [],
      effects: [],
    },
  ],
});

function coffeeUnit(person: string, flavor: string): Unit {
  return {
    kind: "coffee",
    args: { person, flavor },
    atoms: [],
    logs: [
      { match: { skill: "serve", args: { person }, content: { flavor } }, op: "ge", count: 1 },
    ],
  };
}

function lookupUnit(team: string): Unit {
  return {
    kind: "lookup",
    args: { team },
    atoms: [],
    logs: [{ match: { skill: "people_from_team", args: { team } }, op: "ge", count: 1 }],
  };
}

function members(b: MissionBuilder, team: string): string[] {
  return membersOf(b.nodes.nodes.get(MAKER)?.attrs ?? {}, team);
}

function preference(b: MissionBuilder, person: string): string | undefined {
  const team = teamOf(b.nodes.nodes.get(MAKER)?.attrs ?? {}, person);
  return b.rule(`pref:${person}`)?.value ?? b.rule(`team:${team}`)?.value;
}

/** State a rule first in missions with rules; then make a request rely on it. */
function ruleFirst(b: MissionBuilder, people: string[]): boolean {
  const rng = b.rng;
  if (b.wantsRule) {
    const person = rng.pick(people);
    const flavor = rng.pick(FLAVORS);
    b.ack(prefSay(person, flavor), { request: "rule", key: `pref:${person}`, value: flavor });
    return true;
  }
  const unused = b.unusedRules;
  if (unused.length === 0 || !rng.chance(0.6)) return false;
  const key = rng.pick(unused);
  const flavor = b.rule(key)?.value as string;
  if (key.startsWith("pref:")) {
    const person = key.slice(5);
    b.act(
      [coffeeUnit(person, flavor)],
      p3(
        `Make a coffee for ${person}.`,
        `${person} would like a coffee.`,
        `Please prepare ${person}'s coffee.`,
      ),
      { request: "underspecified", uses: [key], report: rng.chance(0.4) },
    );
    return true;
  }
  const team = key.slice(5);
  b.act(
    [
      lookupUnit(team),
      ...members(b, team).map((p) => coffeeUnit(p, b.rule(`pref:${p}`)?.value ?? flavor)),
    ],
    p3(
      `Make coffee for everyone in team ${team}.`,
      `The whole ${team} team wants coffee.`,
      `Prepare a coffee for each member of team ${team}.`,
    ),
    { request: "underspecified", uses: [key], report: rng.chance(0.5) },
  );
  return true;
}

function prefSay(person: string, flavor: string) {
  return p3(
    `Remember: ${person} likes ${flavor} coffee.`,
    `Please keep in mind that ${person} prefers ${flavor} coffee.`,
    `${person}'s coffee is always ${flavor}.`,
  );
}

function request(b: MissionBuilder): void {
  const rng = b.rng;
  const attrs = b.nodes.nodes.get(MAKER)?.attrs ?? {};
  const people = PEOPLE.filter((p) => TEAMS.some((t) => attrs[`member_${t}_${p}`]));
  if (ruleFirst(b, people)) return;
  const roll = rng.next();
  if (b.withRules && roll < 0.25) {
    if (rng.chance(0.3)) {
      const team = rng.pick(TEAMS.filter((t) => members(b, t).length > 0));
      const flavor = rng.pick(FLAVORS);
      b.ack(
        p3(
          `Remember: the ${team} team always drinks ${flavor} coffee.`,
          `Please note that everyone in team ${team} likes ${flavor} coffee.`,
          `Team ${team} takes ${flavor} coffee, keep that in mind.`,
        ),
        { request: "rule", key: `team:${team}`, value: flavor },
      );
      return;
    }
    const person = rng.pick(people);
    const flavor = rng.pick(FLAVORS);
    b.ack(
      p3(
        `Remember: ${person} likes ${flavor} coffee.`,
        `Please keep in mind that ${person} prefers ${flavor} coffee.`,
        `${person}'s coffee is always ${flavor}.`,
      ),
      { request: "rule", key: `pref:${person}`, value: flavor },
    );
    return;
  }
  if (b.withRules && roll < 0.5) {
    const known = people.filter((p) => preference(b, p));
    if (known.length > 0) {
      const person = rng.pick(known);
      const team = teamOf(attrs, person);
      const key = b.rule(`pref:${person}`) ? `pref:${person}` : `team:${team}`;
      if (rng.chance(0.25)) {
        const value = preference(b, person) as string;
        b.ask(
          same(`What kind of coffee does ${person} like?`),
          { kind: "value", value, others: FLAVORS.filter((f) => f !== value) },
          `${person} likes ${value} coffee.`,
          { request: "rule-question", uses: [key] },
        );
        return;
      }
      b.act(
        [coffeeUnit(person, preference(b, person) as string)],
        p3(
          `Make a coffee for ${person}.`,
          `${person} would like a coffee.`,
          `Please prepare ${person}'s coffee.`,
        ),
        { request: "underspecified", uses: [key], report: rng.chance(0.4) },
      );
      return;
    }
  }
  if (b.withRules && roll < 0.6) {
    const teams = TEAMS.filter((t) => b.rule(`team:${t}`) && members(b, t).length > 0);
    if (teams.length > 0) {
      const team = rng.pick(teams);
      const flavor = b.rule(`team:${team}`)?.value as string;
      b.act(
        [lookupUnit(team), ...members(b, team).map((p) => coffeeUnit(p, flavor))],
        p3(
          `Make coffee for everyone in team ${team}.`,
          `The whole ${team} team wants coffee.`,
          `Prepare a coffee for each member of team ${team}.`,
        ),
        { request: "underspecified", uses: [`team:${team}`], report: rng.chance(0.5) },
      );
      return;
    }
  }
  if (b.track === "CG" && roll < 0.68) {
    const person = rng.pick(
      people
        .filter((p) => !preference(b, p))
        .concat(people)
        .slice(0, 3),
    );
    const flavor = rng.pick(FLAVORS);
    b.clarify(
      p3(
        `Make ${person} a coffee the way they like it.`,
        `${person} wants their usual coffee.`,
        `Prepare ${person}'s favourite coffee.`,
      ),
      `Which coffee does ${person} like?`,
      p3(`A ${flavor} one.`, `${flavor}, please.`, `Make it ${flavor}.`),
      [coffeeUnit(person, flavor)],
      { request: "clarified" },
    );
    return;
  }
  const n = rng.range(1, 3);
  const who = rng.shuffle(people).slice(0, n);
  const flavors = who.map(() => rng.pick(FLAVORS));
  const parts = who.map((p, k) => `a ${flavors[k]} coffee for ${p}`);
  const ordered = n >= 2 && roll > 0.85;
  b.act(
    who.map((p, k) => coffeeUnit(p, flavors[k] as string)),
    ordered
      ? p3(
          `First ${parts.join(", then ")}.`,
          `In this order: ${parts.join(", then ")}.`,
          `Make ${parts.join(", then ")}, in that order.`,
        )
      : p3(`Make ${list(parts)}.`, `Please prepare ${list(parts)}.`, `I need ${list(parts)}.`),
    {
      request: ordered ? "ordered" : "direct",
      ordered: ordered ? "instruction" : undefined,
      report: rng.chance(0.3),
    },
  );
}

/** The coffee program: look up teams first, then mug, capsule, brew, serve, coffee by coffee. */
function step(ctx: StepContext): ExpertCall | null {
  const { s, open, reserved } = ctx;
  const lookup = open.find((u) => u.kind === "lookup");
  if (lookup) return { skill: "people_from_team", args: { team: lookup.args.team as string } };
  const coffees = open.filter((u) => u.kind === "coffee");
  if (coffees.length === 0 || reserved.has(MAKER)) return null;
  const current = s.attr(MAKER, "brewed") ? flavorOf(s) : undefined;
  if (current) {
    const target = coffees.find((u) => u.args.flavor === current) ?? coffees[0];
    return { skill: "serve", args: { person: target?.args.person as string } };
  }
  const next = coffees[0] as Unit;
  if (!s.attr(MAKER, "has_mug")) return { skill: "place_mug", args: {} };
  if (!s.attr(MAKER, "has_capsule"))
    return { skill: "load_capsule", args: { name: next.args.flavor as string } };
  return { skill: "press_button", args: {} };
}

export const makeCoffee: Family & PlanHooks = {
  id: "make-coffee",
  title: "Make Coffee",
  robots: 1,
  perturbations: ["MU", "SE", "IN"],
  setting:
    "A robot makes coffee for the people of an office: a mug under the outlet, a capsule of the right flavor, the start button, then the cup is served. A registry tells who is in which team.",
  rules: [
    "One coffee at a time: mug, capsule, button, then serve the cup.",
    "Capsule flavors are black, milky and white.",
  ],
  catalog: CATALOG,
  skills: SKILLS,
  durations: {
    place_mug: 3,
    load_capsule: 3,
    press_button: 6,
    serve: 3,
    people_from_team: 1,
    team_from_people: 1,
  },
  vocabulary: {
    barista: ["coffee_bot", "kitchen_robot"],
    black: ["dark", "espresso"],
    milky: ["latte", "creamy"],
    white: ["light", "flat_white"],
    disco: ["alpha", "phoenix"],
    gepetto: ["beta", "orion"],
    rap: ["gamma", "vega"],
    ris: ["delta", "lyra"],
    press_button: ["start_brewing", "push_start"],
    serve: ["hand_over", "deliver_cup"],
  },
  attributes: () => ({ coffee_pod: [...FLAVORS], teams: [...TEAMS] }),
  initiallyKnown: () => [],
  cost: (u) => (u.kind === "lookup" ? 1 : 4),
  step,
  generate(b) {
    const rng = b.rng;
    const team: Record<string, boolean> = {};
    for (const p of rng.shuffle(PEOPLE).slice(0, 9)) team[`member_${rng.pick(TEAMS)}_${p}`] = true;
    const scene = new SceneBuilder()
      .room("kitchen")
      .fixture(MAKER, {
        in: "kitchen",
        category: "machine",
        attrs: {
          has_mug: false,
          has_capsule: false,
          brewed: false,
          black: false,
          milky: false,
          white: false,
          ...team,
        },
      })
      .robot(ROBOT, {
        room: "kitchen",
        hands: 0,
        skills: ["place_mug", ...FLAVORS.map((f) => `load_${f}`), "brew", "serve", "lookup"],
      });
    b.scene(scene.build());
    for (let guard = 0; !b.full && guard < 300; guard++) request(b);
  },
  ruleUpdate(b, key) {
    const value = b.rng.pick(FLAVORS.filter((f) => f !== b.rule(key)?.value));
    const who = key.startsWith("team:") ? `the ${key.slice(5)} team` : key.slice(5);
    return {
      value,
      say: p3(
        `Change of plan: ${who} now drinks ${value} coffee.`,
        `Update: ${who} prefers ${value} coffee from now on.`,
        `Forget the earlier preference; ${who} wants ${value} coffee.`,
      ),
    };
  },
  interruption(b, exclude) {
    const attrs = b.nodes.nodes.get(MAKER)?.attrs ?? {};
    const people = PEOPLE.filter(
      (p) => TEAMS.some((t) => attrs[`member_${t}_${p}`]) && !exclude.has(p),
    );
    if (people.length === 0) return null;
    const person = b.rng.pick(people);
    const flavor = b.rng.pick(FLAVORS);
    return {
      units: [coffeeUnit(person, flavor)],
      say: p3(
        `Make a ${flavor} coffee for ${person} right away.`,
        `${person} urgently needs a ${flavor} coffee.`,
        `Quick, a ${flavor} coffee for ${person}.`,
      ),
    };
  },
};
