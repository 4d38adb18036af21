/**
 * Color Sorting (Table 2: 1 robot; MU, SE, IN). The authors' color-sorting scenario: cubes of a
 * few colors on a table and in color trays; one arm detects cube instances
 * (`get_object_state`), takes one (`take`) and puts it down (`put`). Requests: sort a color,
 * move named cubes, ordered moves, assignment rules ("green cubes go in the yellow tray"),
 * underspecified sorts resolved by a rule, clarification, counting and listing questions.
 */
import { Catalog } from "../../../world/index.ts";
import type { Family, SkillDef } from "../family.ts";
import type { MissionBuilder, PlanHooks } from "../mission-builder.ts";
import { SceneBuilder } from "../scene-builder.ts";
import type { Unit } from "../types.ts";
import {
  armRelocationStep,
  detectAction,
  inPlace,
  list,
  listingReport,
  moveUnit,
  p3,
  putAction,
  putSkill,
  same,
  takeAction,
  takeSkill,
} from "./common.ts";

const COLORS = ["red", "blue", "green", "yellow"] as const;
const ARM = "arm";

const SKILLS: SkillDef[] = [
  {
    name: "get_object_state",
    description: "List the cube instances on the table and in each tray.",
    params: {},
    action: "detect",
    args: [],
    kind: "perception",
    faults: ["missed_detection"],
    report: (s, _r, _a, hidden) =>
      listingReport(
        s,
        places(s.index.ofType("container")),
        (i) => s.index.type(i) === "object",
        hidden,
        "contains no cube",
      ),
  },
  takeSkill("Take a specific cube instance in the gripper.", "The exact name of the cube to take."),
  putSkill(
    "Put the cube held in the gripper on the table or in a tray.",
    "The table or a tray, e.g. red_tray.",
    {
      report: (_s, r, a) => ({ message: `The cube is now in ${a.target}.`, content: { robot: r } }),
    },
  ),
];

function places(containers: string[]): string[] {
  return ["table", ...containers.filter((c) => c !== "table")];
}

const CATALOG = new Catalog({
  actions: [detectAction("detect"), takeAction("take"), putAction("put")],
});

function cubesOf(b: MissionBuilder, color: string): string[] {
  return b.nodes.ofCategory(color);
}

function trayOf(color: string): string {
  return `${color}_tray`;
}

/** Colors whose cubes sit on the table now. */
function colorsOnTable(b: MissionBuilder): string[] {
  const s = b.s;
  return COLORS.filter((c) => inPlace(s, cubesOf(b, c), "table").length > 0);
}

function trays(b: MissionBuilder): string[] {
  return b.nodes.ofType("container").filter((c) => c !== "table");
}

/** Default destination of a color: its user rule, else its own tray (R_p). */
function destOf(b: MissionBuilder, color: string): string {
  return b.rule(`dest:${color}`)?.value ?? trayOf(color);
}

function sortUnits(cubes: string[], dest: string): Unit[] {
  return cubes.map((c) => moveUnit("sort", c, dest));
}

/** State a rule first in missions with rules; then make a request rely on it. */
function ruleFirst(b: MissionBuilder): boolean {
  const rng = b.rng;
  const s = b.s;
  if (b.wantsRule) {
    const colors = COLORS.filter((c) => cubesOf(b, c).length > 0);
    const color = rng.pick(colorsOnTable(b).length ? colorsOnTable(b) : colors);
    const dest = rng.pick(trays(b).filter((t) => t !== trayOf(color)));
    b.ack(ruleSay(color, dest), { request: "rule", key: `dest:${color}`, value: dest });
    return true;
  }
  const unused = b.unusedRules;
  if (unused.length === 0 || !rng.chance(0.6)) return false;
  const key = rng.pick(unused);
  const color = key.slice("dest:".length);
  const cubes = inPlace(s, cubesOf(b, color), "table");
  if (cubes.length > 0) {
    b.act(
      sortUnits(cubes, destOf(b, color)),
      p3(
        `Sort the ${color} cubes on the table.`,
        `Take care of the ${color} cubes lying on the table.`,
        `The ${color} cubes on the table need sorting.`,
      ),
      { request: "underspecified", uses: [key], report: rng.chance(0.4) },
    );
    return true;
  }
  const away = cubesOf(b, color).filter((c) => s.parent(c) !== "table");
  if (away.length === 0) return false;
  b.act(
    away.map((c) => moveUnit("sort", c, "table")),
    p3(
      `Put all the ${color} cubes back on the table.`,
      `Bring every ${color} cube back onto the table.`,
      `Move the ${color} cubes to the table.`,
    ),
    { request: "direct" },
  );
  return true;
}

function ruleSay(color: string, dest: string) {
  return p3(
    `Remember: from now on, ${color} cubes go in the ${dest} by default.`,
    `Please keep in mind that the default place for ${color} cubes is now the ${dest}.`,
    `New rule: ${color} cubes belong in the ${dest} unless I say otherwise.`,
  );
}

function request(b: MissionBuilder): void {
  if (ruleFirst(b)) return;
  const s = b.s;
  const rng = b.rng;
  const onTable = colorsOnTable(b);
  const allTrays = trays(b);
  const roll = rng.next();
  const canRule = b.withRules;
  if (onTable.length === 0 || roll < 0.12) {
    // Reset: a tray's cubes back on the table.
    const full = allTrays.filter((t) => s.children(t).length > 0);
    if (full.length === 0) return;
    const tray = rng.pick(full);
    const cubes = s.children(tray);
    b.act(
      cubes.map((c) => moveUnit("sort", c, "table")),
      p3(
        `Put every cube from the ${tray} back on the table.`,
        `Empty the ${tray}: all its cubes go back onto the table.`,
        `Move all cubes in the ${tray} to the table.`,
      ),
      { request: "direct", report: rng.chance(0.3) },
    );
    return;
  }
  const color = rng.pick(onTable);
  const cubes = inPlace(s, cubesOf(b, color), "table");
  if (canRule && roll < 0.3 && !b.rule(`dest:${color}`)) {
    const dest = rng.pick(allTrays.filter((t) => t !== trayOf(color)));
    b.ack(
      p3(
        `Remember: from now on, ${color} cubes go in the ${dest} by default.`,
        `Please keep in mind that the default place for ${color} cubes is now the ${dest}.`,
        `New rule: ${color} cubes belong in the ${dest} unless I say otherwise.`,
      ),
      { request: "rule", key: `dest:${color}`, value: dest },
    );
    return;
  }
  if (canRule && b.rule(`dest:${color}`) && roll < 0.55) {
    // Underspecified: completed from the earlier rule.
    b.act(
      sortUnits(cubes, destOf(b, color)),
      p3(
        `Sort the ${color} cubes on the table.`,
        `Take care of the ${color} cubes lying on the table.`,
        `The ${color} cubes on the table need sorting.`,
      ),
      {
        request: "underspecified",
        uses: [`dest:${color}`],
        report: rng.chance(0.4),
      },
    );
    return;
  }
  if (roll < 0.62 && canRule && b.rule(`dest:${color}`)) {
    const key = `dest:${color}`;
    const dest = destOf(b, color);
    b.ask(
      same(`Where do ${color} cubes go by default?`),
      { kind: "value", value: dest, others: allTrays.filter((t) => t !== dest) },
      `${color} cubes go in the ${dest}.`,
      { request: "rule-question", uses: [key] },
    );
    return;
  }
  if (roll < 0.72) {
    const place = rng.chance(0.5) ? "table" : rng.pick(allTrays);
    const here = s.children(place).filter((i) => s.index.type(i) === "object");
    if (rng.chance(0.5)) {
      b.ask(
        p3(
          `How many cubes are ${at(place)}?`,
          `Count the cubes ${at(place)} for me.`,
          `Tell me the number of cubes ${at(place)}.`,
        ),
        { kind: "count", n: here.length },
        `There are ${here.length} cubes ${at(place)}.`,
        { request: "question", allowTools: ["get_object_state"] },
      );
    } else {
      const universe = b.nodes.ofType("object");
      b.ask(
        p3(
          `Which cubes are ${at(place)}?`,
          `List the cubes ${at(place)}.`,
          `Name every cube ${at(place)}.`,
        ),
        { kind: "set", items: here, universe },
        here.length
          ? `${list(here)} ${here.length === 1 ? "is" : "are"} ${at(place)}.`
          : `There are no cubes ${at(place)}.`,
        { request: "question", allowTools: ["get_object_state"] },
      );
    }
    return;
  }
  if (roll < 0.8 && b.track === "CG") {
    // Clarification: a named cube with no destination.
    const cube = rng.pick(cubes);
    const dest = rng.pick(allTrays);
    b.clarify(
      p3(
        `Move ${cube} somewhere else.`,
        `${cube} should not stay where it is.`,
        `Please relocate ${cube}.`,
      ),
      `Where should I put ${cube}?`,
      p3(`Put it in the ${dest}.`, `The ${dest}, please.`, `It goes in the ${dest}.`),
      [moveUnit("sort", cube, dest)],
      { request: "clarified" },
    );
    return;
  }
  const other = onTable.filter((c) => c !== color);
  if (other.length > 0 && roll < 0.9) {
    const second = rng.pick(other);
    const c2 = inPlace(s, cubesOf(b, second), "table");
    const d1 = rng.pick(allTrays);
    const d2 = rng.pick(allTrays);
    b.act(
      [...sortUnits(cubes, d1), ...sortUnits(c2, d2)],
      p3(
        `First put the ${color} cubes from the table in the ${d1}, then the ${second} cubes in the ${d2}.`,
        `Start with the ${color} cubes on the table: ${d1}. After that, the ${second} ones go to the ${d2}.`,
        `Move the ${color} cubes from the table into the ${d1}, and only then the ${second} cubes into the ${d2}.`,
      ),
      { request: "ordered", ordered: "instruction", report: rng.chance(0.3) },
    );
    return;
  }
  const dest = rng.pick(allTrays);
  b.act(
    sortUnits(cubes, dest),
    p3(
      `Put all the ${color} cubes that are on the table in the ${dest}.`,
      `Every ${color} cube on the table goes into the ${dest}.`,
      `Move the ${color} cubes lying on the table to the ${dest}.`,
    ),
    { request: "direct", report: rng.chance(0.3) },
  );
}

function at(place: string): string {
  return place === "table" ? "on the table" : `in the ${place}`;
}

export const colorSorting: Family & PlanHooks = {
  id: "color-sorting",
  title: "Color Sorting",
  robots: 1,
  perturbations: ["MU", "SE", "IN"],
  setting:
    "Cubes of several colors lie on a table and in color trays. The arm must detect cube instances before taking them.",
  rules: [
    "By default, a cube goes in the tray of its own color.",
    "The gripper holds one cube at a time.",
  ],
  catalog: CATALOG,
  skills: SKILLS,
  durations: { get_object_state: 2, take: 4, put: 3 },
  vocabulary: {
    red: ["crimson", "scarlet"],
    blue: ["azure", "navy"],
    green: ["lime", "emerald"],
    yellow: ["amber", "golden"],
    cube: ["block", "brick"],
    cubes: ["blocks", "bricks"],
    tray: ["bin", "crate"],
    trays: ["bins", "crates"],
    table: ["bench", "counter"],
    arm: ["gripper_unit", "manipulator"],
    get_object_state: ["scan_cubes", "list_cubes"],
    take: ["grasp", "pick_up"],
    put: ["place", "drop_off"],
  },
  attributes: (s) => ({
    known_tray_color: COLORS.filter((c) => s.index.nodes.has(trayOf(c))),
    locations: ["table", ...s.index.ofType("container").filter((c) => c !== "table")],
  }),
  initiallyKnown: () => [],
  cost: (u, s) => (s.parent(u.args.item as string) === u.args.dest ? 0 : 2),
  step: (ctx) =>
    ctx.robot === ARM
      ? armRelocationStep(ctx, {
          take: "take",
          takeParam: "name",
          put: "put",
          putParam: "target",
          detect: "get_object_state",
        })
      : null,
  generate(b) {
    const rng = b.rng;
    const n = rng.range(2, 4);
    const colors = COLORS.slice(0, n);
    const scene = new SceneBuilder().room("cell").place("table", { in: "cell" });
    for (const c of COLORS)
      if (colors.includes(c) || c === COLORS[n])
        scene.place(trayOf(c), { in: "cell", category: "tray" });
    for (const c of colors)
      for (let i = 1; i <= 3; i++)
        scene.item(`${c}_cube_${i}`, { at: rng.chance(0.75) ? "table" : trayOf(c), category: c });
    scene.robot(ARM, { room: "cell", hands: 1, skills: ["detect", "take", "put"] });
    b.scene(scene.build());
    while (!b.full) request(b);
  },
  ruleUpdate(b, key) {
    const color = key.slice("dest:".length);
    const current = b.rule(key)?.value;
    const options = trays(b).filter((t) => t !== current);
    if (options.length === 0) return null;
    const value = b.rng.pick(options);
    return {
      value,
      say: p3(
        `Change of plan: ${color} cubes now go in the ${value} by default.`,
        `Update: from now on the default tray for ${color} cubes is the ${value}.`,
        `Forget the earlier rule for ${color} cubes; they belong in the ${value} now.`,
      ),
    };
  },
  interruption(b, exclude) {
    const s = b.s;
    const free = b.nodes.ofType("object").filter((c) => !exclude.has(c));
    if (free.length === 0) return null;
    const cube = b.rng.pick(free);
    const options = ["table", ...trays(b)].filter((p) => p !== s.parent(cube));
    const dest = b.rng.pick(options);
    return {
      units: [moveUnit("sort", cube, dest)],
      say: p3(`Put ${cube} ${at(dest)}.`, `Move ${cube} ${at(dest)}.`, `${cube} goes ${at(dest)}.`),
    };
  },
};
