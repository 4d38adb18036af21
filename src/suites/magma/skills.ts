/**
 * The skill interface: tool specs the agent sees (realized, addressed to a robot) and the
 * grounding of an agent's call into a world action, with the checks a malformed call fails.
 */
import type { ToolCall, ToolSpec } from "../../core/index.ts";
import type { WorldAction } from "../../world/index.ts";
import type { Family, SkillDef } from "./family.ts";
import type { Renamer } from "./realize.ts";
import type { SymState } from "./sym-state.ts";

/** The control skill every robot accepts, even while busy (§4.2). */
export const CANCEL = "cancel_current_action";

/** The tools of a family as the agent sees them under a realization. */
export function toolSpecs(family: Family, names: Renamer): ToolSpec[] {
  const tools: ToolSpec[] = family.skills.map((skill) => {
    const properties: Record<string, unknown> = {};
    for (const [param, p] of Object.entries(skill.params))
      properties[param] = { type: p.type, description: names.text(p.description) };
    return {
      name: names.name(skill.name),
      description: names.text(skill.description),
      parameters: {
        type: "object",
        properties,
        required: Object.keys(skill.params),
        additionalProperties: false,
      },
      robot: true,
    };
  });
  tools.push({
    name: names.name(CANCEL),
    description: "Cancel the skill currently running on the targeted robot.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
    robot: true,
  });
  return tools;
}

/** A call read back in canonical names, grounded or refused. */
export type Grounded =
  | {
      ok: true;
      skill: SkillDef;
      robot: string;
      args: Record<string, string>;
      action: WorldAction;
      items: string[];
    }
  | {
      ok: false;
      skill: string;
      robot: string;
      reason: "bad_arguments" | "precondition" | "unknown_skill";
      message: string;
    };

/** The canonical skill name and robot of an agent's call. */
export function canonicalCall(call: ToolCall, names: Renamer): { skill: string; robot: string } {
  return { skill: names.canonical(call.tool), robot: names.canonical(call.robot ?? "") };
}

/**
 * Ground a call: known skill, exactly its parameters as strings (objects for object
 * parameters), detected items only where perception must localise them, then the world
 * action's arguments (`$held`: what the robot holds).
 */
export function ground(
  family: Family,
  call: ToolCall,
  names: Renamer,
  s: SymState,
  known: ReadonlySet<string>,
): Grounded {
  const { skill: name, robot } = canonicalCall(call, names);
  const skill = family.skills.find((k) => k.name === name);
  if (!skill)
    return {
      ok: false,
      skill: name,
      robot,
      reason: "unknown_skill",
      message: `${call.tool} is not a known tool.`,
    };
  const expected = Object.keys(skill.params);
  const given = Object.keys(call.args);
  const extra = given.filter((k) => !expected.includes(k));
  const missing = expected.filter((k) => !given.includes(k));
  if (extra.length || missing.length) {
    const want = expected.length ? expected.join(", ") : "no arguments";
    return {
      ok: false,
      skill: name,
      robot,
      reason: "bad_arguments",
      message: `${call.tool} takes ${want}.`,
    };
  }
  const args: Record<string, string> = {};
  for (const [k, p] of Object.entries(skill.params)) {
    const v = call.args[k];
    if (p.type === "string" && typeof v === "string") args[k] = names.canonical(v.trim());
    else if (p.type === "object" && v && typeof v === "object" && !Array.isArray(v))
      args[k] = JSON.stringify(v);
    else
      return {
        ok: false,
        skill: name,
        robot,
        reason: "bad_arguments",
        message: `${call.tool}: ${k} must be a ${p.type}.`,
      };
  }
  if (skill.needsDetection && skill.item) {
    const item = args[skill.item] as string;
    if (!known.has(item))
      return {
        ok: false,
        skill: name,
        robot,
        reason: "precondition",
        message: `${names.name(item)} was not detected.`,
      };
  }
  const items: string[] = [];
  const worldArgs: string[] = [];
  for (const source of skill.args) {
    let node: string | undefined;
    if (source === "$held") {
      node = s.held(robot);
      if (node === undefined)
        return {
          ok: false,
          skill: name,
          robot,
          reason: "precondition",
          message: "The gripper is empty.",
        };
    } else if (source === "$robot") node = robot;
    else if (source === "$tray") node = family.tray?.(robot) ?? "";
    else if (source === "$here") {
      node = family.here?.(s, robot);
      if (node === undefined)
        return {
          ok: false,
          skill: name,
          robot,
          reason: "precondition",
          message: "There is no place to put it here.",
        };
    } else if (source.startsWith("@")) node = source.slice(1);
    else node = args[source.slice("param:".length)];
    worldArgs.push(node as string);
    if (source !== "$robot" && source !== "$here" && !source.startsWith("@"))
      items.push(node as string);
  }
  const action = typeof skill.action === "string" ? skill.action : skill.action(args);
  return { ok: true, skill, robot, args, action: { name: action, args: worldArgs }, items };
}
