/**
 * What the two table-cleaning families share (the authors' CleaningTools and
 * AdvancedCleaningTools): scanning the kitchen, cleaning a dish in the sink (it comes out on a
 * rack), wiping the empty table with the sponge, their catalog rows and the wipe unit.
 */
import type { ActionSchema } from "../../../world/index.ts";
import type { SkillDef } from "../family.ts";
import type { SymState } from "../sym-state.ts";
import type { Unit } from "../types.ts";
import { listingReport } from "./common.ts";

/** scan_scene: every place's objects, then the dirty ones. */
export function scanSceneSkill(places: readonly string[]): SkillDef {
  return {
    name: "scan_scene",
    description: "Return the visible objects, their locations, and the dirty objects.",
    params: {},
    action: "scan",
    args: [],
    kind: "perception",
    faults: ["missed_detection"],
    report: (s, _r, _a, hidden) => {
      const r = listingReport(s, places, (i) => s.index.type(i) === "object", hidden, "is empty");
      const dirty = (r.reveal ?? []).filter((i) => s.attr(i, "dirty"));
      return {
        ...r,
        message: `${r.message} Dirty objects: ${dirty.length ? dirty.join(", ") : "none"}.`,
      };
    },
  };
}

/** clean: a dirty dish in the sink comes out clean on `rack`. */
export function cleanSkill(rack: string, isDish: (item: string) => boolean): SkillDef {
  return {
    name: "clean",
    description: `Clean a dirty dish located in the sink; it comes out on the ${rack}.`,
    params: { name: { type: "string", description: "Name of the dish to clean." } },
    action: "clean",
    args: ["param:name", `@${rack}`],
    kind: "act",
    faults: ["execution"],
    item: "name",
    needsDetection: true,
    guard: (s, robot, a) => {
      if (s.held(robot)) return "The gripper is not empty.";
      if (!isDish(a.name ?? "")) return `${a.name} is not known dishware.`;
      return s.parent(a.name ?? "") === "sink"
        ? null
        : `${a.name} must be in the sink before cleaning.`;
    },
    report: (_s, _r, a) => ({ message: `${a.name} is now clean and on the ${rack}.` }),
  };
}

/** wipe: the table, holding the sponge, once nothing is on it. */
export function wipeSkill(onTable: (s: SymState) => string[]): SkillDef {
  return {
    name: "wipe",
    description: "Wipe the empty table with the sponge.",
    params: {},
    action: "wipe",
    args: ["@table"],
    kind: "act",
    faults: ["execution"],
    guard: (s, robot) => {
      if (s.held(robot) !== "sponge") return "The robot must hold the sponge.";
      return onTable(s).length > 0 ? "The table must be empty before wiping." : null;
    },
    report: () => ({ message: "The table was wiped successfully." }),
  };
}

/** The catalog rows of clean and wipe. */
export const KITCHEN_ACTIONS: ActionSchema[] = [
  {
    name: "clean",
    description: "clean a dish",
    parameters: ["dish", "rack"],
    failureInjectable: false,
    preconditions: [{ check: "attr", arg: 0, attr: "dirty", value: true }],
    effects: [
      { op: "set_attr", arg: 0, attr: "dirty", value: false },
      { op: "transfer", object: 0, rel: "INSIDE", target: 1 },
    ],
  },
  {
    name: "wipe",
    description: "wipe the table",
    parameters: ["table"],
    failureInjectable: false,
    preconditions: [],
    effects: [{ op: "set_attr", arg: 0, attr: "wiped", value: true }],
  },
];

/** The table is wiped and the sponge back on its shelf. */
export function wipeUnit(): Unit {
  return {
    kind: "wipe",
    args: {},
    atoms: [
      { pred: "ATTR", node: "table", attr: "wiped", value: true },
      { pred: "INSIDE", object: "sponge", target: "cleaning_shelf" },
    ],
    logs: [],
  };
}
